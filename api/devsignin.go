package api

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
)

// DevSignInPath is the development sign-in: GET says whether the server offers it, POST
// {"username": "ada"} answers {"token": "<JWT>", "username": "ada", "expiresIn": 43200}, a
// bearer token for that username (auth.Dev). A server that does not offer it (one with an
// identity provider, one reachable from other hosts, or one told --dev-sign-in off) refuses
// the POST with 403 and DEV_SIGN_IN_UNAVAILABLE, giving the reason; docs/web-app.md.
const DevSignInPath = "/auth/dev-sign-in"

// maxDevSignInBody bounds the POST's body: a username is at most 64 characters.
const maxDevSignInBody = 1 << 10

// devSignInStatus is what GET answers: the web app shows its username form when available,
// its token form otherwise.
type devSignInStatus struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

func devSignIn(dev *auth.Dev, refusal string) http.Handler {
	if refusal == "" {
		refusal = "this server offers no development sign-in: sign in with a token from its identity provider"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			if dev == nil {
				writeJSON(w, http.StatusOK, devSignInStatus{Reason: refusal})
				return
			}
			writeJSON(w, http.StatusOK, devSignInStatus{Available: true})
		default: // POST: the mux routes no other method here
			if dev == nil {
				writeRefusal(w, r, http.StatusForbidden, codeDevSignInUnavailable, refusal)
				return
			}
			var req struct {
				Username string `json:"username"`
			}
			dec := json.NewDecoder(io.LimitReader(r.Body, maxDevSignInBody))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&req); err != nil {
				writeHTTPError(w, http.StatusBadRequest, domain.Wrap(domain.Invalid, err, `the body must be {"username": "..."}`))
				return
			}
			token, err := dev.SignIn(req.Username)
			if err != nil {
				if domain.ErrorCode(err) != domain.Invalid {
					err = domain.Wrap(domain.Internal, err, "the token could not be signed")
				}
				writeHTTPError(w, 0, err)
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"token": token, "username": req.Username, "expiresIn": int(auth.DevTokenTTL.Seconds())})
		}
	})
}
