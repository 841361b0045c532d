package auth

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/domain"
)

// HS256Issuer and HS256Audience are the iss and aud of every token Mint signs. HS256 requires
// both exactly, so a token minted for another service that happens to share the secret is
// still refused.
const (
	HS256Issuer   = "quickphotos"
	HS256Audience = "quickphotos"
)

// MinSecretLength is the shortest secret NewHS256 and Mint accept: 32 bytes is the size of the
// HMAC-SHA256 output, below which the key, not the hash, is the weakest link (RFC 7518 §3.2).
const MinSecretLength = 32

// HS256 verifies tokens signed with a shared secret: the development verifier, and the one
// `quickphotos token` mints for. It needs no network and no identity provider, which is what
// makes it convenient for development and unsuitable for production: whoever can verify a
// token can also mint one for any user.
//
// An HS256 is safe for concurrent use.
type HS256 struct {
	secret []byte
	s      settings
}

var _ Verifier = (*HS256)(nil)

// NewHS256 returns a verifier for tokens that Mint signed with the same secret and options. It
// copies secret, so the caller may clear its own copy.
func NewHS256(secret []byte, opts Options) (*HS256, error) {
	if err := checkSecret(secret); err != nil {
		return nil, err
	}
	return &HS256{secret: append([]byte(nil), secret...), s: opts.settings()}, nil
}

func checkSecret(secret []byte) error {
	if len(secret) < MinSecretLength {
		return fmt.Errorf("auth: the HS256 secret is %d bytes; it must be at least %d (e.g. `openssl rand -base64 48`)",
			len(secret), MinSecretLength)
	}
	return nil
}

// Verify returns the identity a token minted by Mint with the same secret authenticates. Only
// HS256 is accepted: in particular "none" and every asymmetric algorithm are refused before any
// signature is checked. ctx is unused, as verification needs no I/O; it is there to satisfy
// Verifier.
func (h *HS256) Verify(_ context.Context, token string) (Identity, error) {
	hdr, err := protectedHeader(token)
	if err != nil {
		return Identity{}, err
	}
	alg, ok := hdr.Algorithm()
	if !ok || alg.String() != jwa.HS256().String() {
		return Identity{}, reject("the token is not signed with an accepted algorithm (got %s, want HS256)", algorithmName(alg))
	}
	tok, err := parseSigned(token, jwa.HS256(), h.secret)
	if err != nil {
		return Identity{}, err
	}
	if err := h.s.checkClaims(tok, HS256Issuer, jwt.WithAudience(HS256Audience)); err != nil {
		return Identity{}, err
	}
	return h.s.identity(tok)
}

// Mint returns a token for username valid for ttl from opts.Now: what `quickphotos token
// USERNAME --ttl 1h` prints. Its sub is the username, and so is the opts.UsernameClaim claim
// when that is another claim, so a verifier built with the same options accepts it. Each token
// gets a random jti so that two tokens minted in the same second still differ.
//
// The username is checked with domain.ValidateUsername, so Mint never signs a token its own
// verifier would refuse.
func Mint(secret []byte, username string, ttl time.Duration, opts Options) (string, error) {
	if err := checkSecret(secret); err != nil {
		return "", err
	}
	if err := domain.ValidateUsername("username", username); err != nil {
		return "", err
	}
	if ttl <= 0 {
		return "", fmt.Errorf("auth: the token lifetime must be positive, got %s", ttl)
	}
	s := opts.settings()
	now := s.now()
	b := jwt.NewBuilder().
		Issuer(HS256Issuer).
		Audience([]string{HS256Audience}).
		Subject(username).
		IssuedAt(now).
		NotBefore(now).
		Expiration(now.Add(ttl)).
		JwtID(rand.Text())
	if s.usernameClaim != jwt.SubjectKey {
		b = b.Claim(s.usernameClaim, username)
	}
	tok, err := b.Build()
	if err != nil {
		return "", fmt.Errorf("auth: building the token: %w", err)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.HS256(), secret))
	if err != nil {
		return "", fmt.Errorf("auth: signing the token: %w", err)
	}
	return string(signed), nil
}
