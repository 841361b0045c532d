package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
)

// identify puts the request's caller in its context before any resolver runs. Without a
// verifier the server runs without authentication and every caller is trusted. With one, a
// request without Authorization is anonymous (it may read public data), a valid bearer token
// makes an authenticated caller, and anything else is refused with 401 before GraphQL sees
// the request, so a bad token can never reach a write.
func identify(v auth.Verifier, log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller, err := callerOf(r, v)
		if err != nil {
			if domain.ErrorCode(err) == domain.Internal {
				log.ErrorContext(r.Context(), "internal error authenticating a request", "err", err)
			}
			writeHTTPError(w, 0, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(domain.WithCaller(r.Context(), caller)))
	})
}

func callerOf(r *http.Request, v auth.Verifier) (domain.Caller, error) {
	if v == nil {
		return domain.Trusted(), nil
	}
	header := r.Header.Get("Authorization")
	if header == "" {
		if _, dev := v.(*auth.Dev); dev {
			// The development sign-in's server is open (auth.Dev): a request without a token
			// is trusted as on a server without a verifier; a token names its caller.
			return domain.Trusted(), nil
		}
		return domain.Anonymous(), nil
	}
	scheme, token, _ := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return domain.Caller{}, domain.Errorf(domain.Unauthenticated, "the Authorization header must be: Bearer <token>")
	}
	id, err := v.Verify(r.Context(), token)
	if err != nil {
		return domain.Caller{}, err
	}
	return domain.Authenticated(id.Username), nil
}

// writeHTTPError answers a request refused before GraphQL ran, in GraphQL's error shape so
// that clients handle it like any other error. A zero status is the error code's.
func writeHTTPError(w http.ResponseWriter, status int, err error) {
	code := domain.ErrorCode(err)
	if status == 0 {
		status = httpStatus(code)
	}
	message := domain.ErrorMessage(err)
	if code == domain.Unauthenticated {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []any{map[string]any{
			"message":    message,
			"extensions": map[string]any{"code": extensionCode(code)},
		}},
	})
}
