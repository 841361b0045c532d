package api

import (
	"context"
	"errors"
	"time"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
)

// A token proves its user until it expires (auth.Identity.Expires, its exp plus the
// verifier's leeway), and HTTP refuses it from then on. A request is over long before that; a
// live connection is not: graphql-ws authenticates once, in connection_init (or with the
// upgrade request's header), and a stream of Server-Sent Events once, as it opens, and either
// may last for days. So each stops acting as the token's user when the token expires:
//
//   - a graphql-ws connection closes with 4403 Forbidden at the expiry (a timer), or at its
//     first subscribe or event past it, since a timer may fire late (graphqlws.go). graphql-ws's
//     client retries a 4403, unlike most close codes, calling connectionParams again: a client
//     whose connectionParams hands out a fresh token reconnects and sends its operations again,
//     and none of them has run with the expired token;
//   - a stream of Server-Sent Events ends: its last event is an UNAUTHENTICATED error, sent in
//     place of the first event past the expiry, or at the expiry (perEvent, live.go).
//
// The expiry is the verifier's own (auth.Identity.Expired, by its clock and leeway), so a
// connection stops acting as the user exactly when a request with its token is refused.

// errTokenExpired is why a live connection stopped acting as its caller.
var errTokenExpired = domain.Errorf(domain.Unauthenticated, "the token has expired: connect again with a fresh token")

// tokenExpiredReason is graphql-ws's close reason for an expired token.
const tokenExpiredReason = "Forbidden: the token has expired"

type identityKey struct{}

// withIdentity notes in ctx the identity the request's token proved (identify.go).
func withIdentity(ctx context.Context, id auth.Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// identityOf is the identity of ctx's token; zero, which never expires, without a token.
func identityOf(ctx context.Context) auth.Identity {
	id, _ := ctx.Value(identityKey{}).(auth.Identity)
	return id
}

// streamExpiry ends a stream of Server-Sent Events whose token expired.
type streamExpiry struct {
	id     auth.Identity
	cancel context.CancelCauseFunc
}

type streamExpiryKey struct{}

// untilExpiry ends ctx, an SSE request's, with errTokenExpired as its cause when id expires;
// stop releases its timer. An identity that never expires leaves ctx as it is.
func untilExpiry(ctx context.Context, id auth.Identity) (_ context.Context, stop func()) {
	if id.Expires.IsZero() {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(id.Left(), func() { cancel(errTokenExpired) })
	ctx = context.WithValue(ctx, streamExpiryKey{}, &streamExpiry{id: id, cancel: cancel})
	return ctx, func() {
		timer.Stop()
		cancel(nil)
	}
}

// streamExpired reports whether the SSE stream of ctx has outlived its token: its timer ended
// it, or the token has expired by the verifier's clock, and then it ends it now. False over
// graphql-ws, whose connection is closed instead, and for a stream without a token.
func streamExpired(ctx context.Context) bool {
	e, ok := ctx.Value(streamExpiryKey{}).(*streamExpiry)
	if !ok {
		return false
	}
	if e.id.Expired() {
		e.cancel(errTokenExpired)
		return true
	}
	return errors.Is(context.Cause(ctx), errTokenExpired)
}
