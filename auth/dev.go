package auth

import (
	"context"
	"crypto/rand"
	"time"
)

// DevTokenTTL is how long a token of the development sign-in is valid: a working day.
const DevTokenTTL = 12 * time.Hour

// Dev is the development sign-in of a server that has no identity provider: it signs a person
// in as any username with an HS256 key made at start-up and known to no one else, and verifies
// the tokens it signed. It is a Verifier; a request without a token is still the open
// development server's trusted caller (api/identify.go), so scripts, GraphiQL and the tutorial
// keep working beside a signed-in web app. `serve` offers it only where it runs open anyway (no
// --jwt-secret or --oidc-issuer, on loopback unless --dev-sign-in on asks otherwise), so it
// grants nothing the server did not already grant: it gives the app a caller to read the
// feed and the viewer of.
//
// A Dev is safe for concurrent use. Its tokens die with the process.
type Dev struct {
	key  []byte
	opts Options
	hs   *HS256
}

var _ Verifier = (*Dev)(nil)

// NewDev makes the key and the verifier of a development sign-in.
func NewDev(opts Options) (*Dev, error) {
	key := make([]byte, MinSecretLength)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	hs, err := NewHS256(key, opts)
	if err != nil {
		return nil, err
	}
	return &Dev{key: key, opts: opts, hs: hs}, nil
}

// SignIn returns a token for username, valid for DevTokenTTL. An invalid username is refused
// with domain.Invalid (as Mint refuses it).
func (d *Dev) SignIn(username string) (string, error) {
	return Mint(d.key, username, DevTokenTTL, d.opts)
}

// Verify returns the identity of a token SignIn signed.
func (d *Dev) Verify(ctx context.Context, token string) (Identity, error) {
	return d.hs.Verify(ctx, token)
}
