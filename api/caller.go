package api

import (
	"log/slog"
	"net/http"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
)

// CallerPath says who a bearer token's caller is, as the API verifies it: GET with
// Authorization: Bearer <token> answers {"username": "ada"}, the username the verifier took from
// the claim it is configured to read (--username-claim), so a client never guesses it from the
// token's claims. A request without a valid token is refused with 401 and UNAUTHENTICATED in
// GraphQL's error shape, as the API refuses it; docs/api.md.
const CallerPath = "/auth/caller"

// caller answers CallerPath with the caller identify would put in a request's context.
func caller(v auth.Verifier, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		c, _, err := callerOf(r, v)
		switch {
		case err != nil:
			if domain.ErrorCode(err) == domain.Internal {
				log.ErrorContext(r.Context(), "internal error authenticating a request", "err", err)
			}
			writeHTTPError(w, 0, err)
		case c.Username != "":
			writeJSON(w, http.StatusOK, map[string]string{"username": c.Username})
		case v == nil:
			// Without a verifier every caller is trusted and no token is read: none names anyone.
			writeHTTPError(w, 0, domain.Errorf(domain.Unauthenticated, "this server verifies no tokens (it runs without authentication): a token names no one here"))
		default: // no Authorization header: anonymous, or a development server's trusted caller
			writeHTTPError(w, 0, domain.Errorf(domain.Unauthenticated, "send the token to name its caller: Authorization: Bearer <token>"))
		}
	})
}
