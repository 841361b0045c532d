package main

import "github.com/quickphotos/quickphotos/auth"

// authConfig says how `serve` authenticates callers.
type authConfig struct {
	mode          string
	jwtSecret     string
	oidcIssuer    string
	oidcAudience  string
	usernameClaim string
	devSignIn     string
}

// Authentication modes: by default a configured verifier is used, and without one the server
// runs open only on loopback; none runs open anywhere, as the operator asked.
const (
	authAuto = "auto"
	authNone = "none"
)

// Development sign-in modes (--dev-sign-in): by default offered where the server runs open on
// loopback; on also offers it on another address the server runs open on (--auth none); off never.
const (
	devSignInAuto = "auto"
	devSignInOn   = "on"
	devSignInOff  = "off"
)

func (c *authConfig) register(f *flags) {
	f.String(&c.mode, "auth", authAuto, `"none" runs without authentication on any address (every caller may act as any user); by default the server authenticates with --jwt-secret or --oidc-issuer, and runs open only on a loopback address when neither is set`)
	f.String(&c.jwtSecret, "jwt-secret", "", "for development: verify HS256 tokens signed with this shared secret (at least 32 bytes), as minted by `quickphotos token`")
	f.String(&c.oidcIssuer, "oidc-issuer", "", "verify tokens from this OpenID Connect issuer (e.g. https://cognito-idp.REGION.amazonaws.com/POOL_ID), with keys from its JWKS")
	f.String(&c.oidcAudience, "oidc-audience", "", "with --oidc-issuer: the audience (client id) tokens must be meant for")
	f.String(&c.devSignIn, "dev-sign-in", devSignInAuto, `the development sign-in at /auth/dev-sign-in, which signs anyone in as any username with a key made at start-up (for the web app at /app/ against a server with no identity provider): "auto" offers it when neither --jwt-secret nor --oidc-issuer is set and the server listens on loopback; "on" also on another address with --auth none; "off" never`)
	f.String(&c.usernameClaim, "username-claim", "sub", `the token claim that holds the username (Cognito: "cognito:username" in ID tokens, "username" in access tokens)`)
}

func (c *authConfig) options() auth.Options {
	return auth.Options{UsernameClaim: c.usernameClaim}
}
