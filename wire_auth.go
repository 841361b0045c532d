package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
)

// verifier returns the configured verifier, nil for none, and refuses to run open on an
// address other hosts can reach unless that was asked for. say tells how callers are
// authenticated, for the start-up message.
func (c *authConfig) verifier(ctx context.Context, addr net.Addr) (v auth.Verifier, say string, err error) {
	offered, _, err := c.offersDevSignIn(addr)
	if err != nil {
		return nil, "", err
	}
	switch {
	case c.mode != authAuto && c.mode != authNone:
		return nil, "", fmt.Errorf("--auth %q: want %s or %s", c.mode, authAuto, authNone)
	case c.mode == authNone && (c.jwtSecret != "" || c.oidcIssuer != ""):
		return nil, "", errors.New("--auth none contradicts --jwt-secret and --oidc-issuer: pick one")
	case c.jwtSecret != "" && c.oidcIssuer != "":
		return nil, "", errors.New("--jwt-secret and --oidc-issuer are two verifiers: pick one")
	case c.oidcIssuer != "":
		if c.oidcAudience == "" {
			return nil, "", errors.New("--oidc-issuer needs --oidc-audience (the client id tokens are issued for)")
		}
		o, err := auth.NewOIDC(ctx, auth.OIDCConfig{Issuer: c.oidcIssuer, Audience: c.oidcAudience, Options: c.options()})
		if err != nil {
			return nil, "", err
		}
		return o, fmt.Sprintf("OIDC tokens from %s for %s (username in %q)", c.oidcIssuer, c.oidcAudience, c.usernameClaim), nil
	case c.jwtSecret != "":
		h, err := auth.NewHS256([]byte(c.jwtSecret), c.options())
		if err != nil {
			return nil, "", err
		}
		return h, "HS256 tokens signed with --jwt-secret (development; mint one with `quickphotos token USERNAME`)", nil
	}
	var open string
	switch {
	case c.mode == authNone:
		open = "none (--auth none): every caller may act as any user"
	case isLoopback(addr):
		open = "none, because no verifier is configured and the server listens on loopback only: every caller may act as any user"
	default:
		return nil, "", fmt.Errorf("refusing to serve %s without authentication: set --oidc-issuer and --oidc-audience (or --jwt-secret for development), or pass --auth none to run open on purpose", addr)
	}
	if !offered {
		return nil, open, nil
	}
	dev, err := auth.NewDev(c.options())
	if err != nil {
		return nil, "", err
	}
	return dev, open + "; the web app signs in as any username at " + api.DevSignInPath + " (a key made at start-up)", nil
}

// offersDevSignIn says whether the server signs people in as any username (auth.Dev), and if
// not, why: the reason the sign-in's refusal gives (api/devsignin.go). The sign-in grants
// nothing an open server does not: it is offered only where the server runs without a verifier,
// on loopback unless --dev-sign-in on asks for another address.
func (c *authConfig) offersDevSignIn(addr net.Addr) (bool, string, error) {
	_, listens := addr.(*net.TCPAddr)
	mode := c.devSignIn
	if mode == "" {
		mode = devSignInAuto // a zero authConfig asks for the default
	}
	switch {
	case mode != devSignInAuto && mode != devSignInOn && mode != devSignInOff:
		return false, "", fmt.Errorf("--dev-sign-in %q: want %s, %s or %s", mode, devSignInAuto, devSignInOn, devSignInOff)
	case mode == devSignInOn && (c.jwtSecret != "" || c.oidcIssuer != ""):
		return false, "", errors.New("--dev-sign-in on contradicts --jwt-secret and --oidc-issuer: a server with an identity provider signs no one in itself")
	case mode == devSignInOn && !listens:
		return false, "", errors.New("--dev-sign-in on: only serve signs people in (its key lives in one process)")
	case c.jwtSecret != "":
		return false, "this server verifies tokens signed with its --jwt-secret: sign in with one (`quickphotos token USERNAME` mints it)", nil
	case c.oidcIssuer != "":
		return false, "this server verifies tokens from its identity provider (" + c.oidcIssuer + "): sign in there and paste the token", nil
	case mode == devSignInOff:
		return false, "the development sign-in is off (--dev-sign-in off): sign in with a token", nil
	case !listens:
		return false, "the development sign-in is offered only by `quickphotos serve`", nil
	case mode == devSignInOn || isLoopback(addr):
		return true, "", nil
	default:
		return false, fmt.Sprintf("the development sign-in is offered only on loopback, and this server listens on %s (--dev-sign-in on offers it there)", addr), nil
	}
}

func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// closeVerifier stops what a verifier runs in the background (the OIDC key refresher).
func closeVerifier(v auth.Verifier) {
	if c, ok := v.(io.Closer); ok {
		_ = c.Close()
	}
}

// open is verifier, onto lc, which stops what the verifier runs in the background.
func (c *authConfig) open(ctx context.Context, lc *lifecycle, addr net.Addr) (auth.Verifier, string, error) {
	v, say, err := c.verifier(ctx, addr)
	if err != nil {
		return nil, "", err
	}
	lc.onClose(func() { closeVerifier(v) })
	return v, say, nil
}
