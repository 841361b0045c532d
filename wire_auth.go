package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/quickphotos/quickphotos/auth"
)

// verifier returns the configured verifier, nil for none, and refuses to run open on an
// address other hosts can reach unless that was asked for. say tells how callers are
// authenticated, for the start-up message.
func (c *authConfig) verifier(ctx context.Context, addr net.Addr) (v auth.Verifier, say string, err error) {
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
	case c.mode == authNone:
		return nil, "none (--auth none): every caller may act as any user", nil
	case isLoopback(addr):
		return nil, "none, because no verifier is configured and the server listens on loopback only: every caller may act as any user", nil
	default:
		return nil, "", fmt.Errorf("refusing to serve %s without authentication: set --oidc-issuer and --oidc-audience (or --jwt-secret for development), or pass --auth none to run open on purpose", addr)
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
