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
// the request, so a bad token can never reach a write. The token's identity stays in the
// context, for the live connections that must end with it (tokenexpiry.go): a stream of
// Server-Sent Events ends at the expiry here, a WebSocket's connection watches it itself.
func identify(v auth.Verifier, log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller, id, err := callerOf(r, v)
		if err != nil {
			if domain.ErrorCode(err) == domain.Internal {
				log.ErrorContext(r.Context(), "internal error authenticating a request", "err", err)
			}
			writeHTTPError(w, 0, err)
			return
		}
		ctx := withIdentity(domain.WithCaller(r.Context(), caller), id)
		if isLive(r) && !isWebSocket(r) {
			var stop func()
			ctx, stop = untilExpiry(ctx, id)
			defer stop()
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// callerOf is the caller r's Authorization header names, and the identity of its token (zero
// without one).
func callerOf(r *http.Request, v auth.Verifier) (domain.Caller, auth.Identity, error) {
	if v == nil {
		return domain.Trusted(), auth.Identity{}, nil
	}
	header := r.Header.Get("Authorization")
	if header == "" {
		if _, dev := v.(*auth.Dev); dev {
			// The development sign-in's server is open (auth.Dev): a request without a token
			// is trusted as on a server without a verifier; a token names its caller.
			return domain.Trusted(), auth.Identity{}, nil
		}
		return domain.Anonymous(), auth.Identity{}, nil
	}
	scheme, token, _ := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return domain.Caller{}, auth.Identity{}, domain.Errorf(domain.Unauthenticated, "the Authorization header must be: Bearer <token>")
	}
	id, err := v.Verify(r.Context(), token)
	if err != nil {
		return domain.Caller{}, auth.Identity{}, err
	}
	return domain.Authenticated(id.Username), id, nil
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
