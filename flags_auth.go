package main

import "github.com/quickphotos/quickphotos/auth"

// authConfig says how `serve` authenticates callers.
type authConfig struct {
	mode          string
	jwtSecret     string
	oidcIssuer    string
	oidcAudience  string
	usernameClaim string
}

// Authentication modes: by default a configured verifier is used, and without one the server
// runs open only on loopback; none runs open anywhere, as the operator asked.
const (
	authAuto = "auto"
	authNone = "none"
)

func (c *authConfig) register(f *flags) {
	f.String(&c.mode, "auth", authAuto, `"none" runs without authentication on any address (every caller may act as any user); by default the server authenticates with --jwt-secret or --oidc-issuer, and runs open only on a loopback address when neither is set`)
	f.String(&c.jwtSecret, "jwt-secret", "", "for development: verify HS256 tokens signed with this shared secret (at least 32 bytes), as minted by `quickphotos token`")
	f.String(&c.oidcIssuer, "oidc-issuer", "", "verify tokens from this OpenID Connect issuer (e.g. https://cognito-idp.REGION.amazonaws.com/POOL_ID), with keys from its JWKS")
	f.String(&c.oidcAudience, "oidc-audience", "", "with --oidc-issuer: the audience (client id) tokens must be meant for")
	f.String(&c.usernameClaim, "username-claim", "sub", `the token claim that holds the username (Cognito: "cognito:username" in ID tokens, "username" in access tokens)`)
}

func (c *authConfig) options() auth.Options {
	return auth.Options{UsernameClaim: c.usernameClaim}
}
