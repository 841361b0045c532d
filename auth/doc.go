// Package auth authenticates the caller of the API from the `Authorization: Bearer <JWT>`
// header: a Verifier turns a token into the username that the rest of the API acts as, and says
// until when (Identity.Expires), for the connections that outlive a request.
//
// There are two verifiers:
//
//   - HS256 checks tokens signed with a shared secret, and Mint signs them (`quickphotos token
//     USERNAME --ttl 1h`). It needs no identity provider, so a developer can call the API a minute
//     after cloning the repository. It is for development only: the secret that verifies tokens
//     also mints them, so anyone who can read the server's configuration can act as any user,
//     and users cannot sign up, sign in or be revoked.
//   - OIDC checks tokens from an OpenID Connect issuer — Amazon Cognito in production, or any
//     other — against the public keys the issuer publishes. The server holds no secret: it can
//     verify tokens but never mint them.
//
// Both refuse everything they were not configured for — the "none" algorithm, algorithms other
// than the expected ones, expired or not-yet-valid tokens, other issuers and audiences, missing
// or invalid usernames — with a *domain.Error of code domain.Unauthenticated whose message says
// what was wrong and never repeats the token. The JOSE work (parsing, signatures, key sets and
// their caching) is github.com/lestrrat-go/jwx's; this package only decides what to accept.
package auth
