package domain

import "context"

// Caller is who sends a request. The HTTP edge decides it (from a verified token, or from
// the server running without authentication) and the resolvers ask it before acting.
type Caller struct {
	// Username is the authenticated user; "" for an anonymous or a trusted caller.
	Username string
	// trusted is the caller of a server that runs without authentication (on loopback, or
	// with authentication explicitly switched off): it may act as anyone and see everything.
	trusted bool
}

// Anonymous is a caller with no credentials on a server that authenticates: it may read
// public data and nothing else.
func Anonymous() Caller { return Caller{} }

// Authenticated is a caller whose token proved they are username.
func Authenticated(username string) Caller { return Caller{Username: username} }

// Trusted is every caller of a server that runs without authentication.
func Trusted() Caller { return Caller{trusted: true} }

// IsTrusted reports whether the caller is a Trusted caller.
func (c Caller) IsTrusted() bool { return c.trusted }

// MayActAs returns nil when the caller may write as username: only as themselves. An
// anonymous caller gets Unauthenticated, anyone else Forbidden.
func (c Caller) MayActAs(username string) error {
	switch {
	case c.trusted || (c.Username != "" && c.Username == username):
		return nil
	case c.Username == "":
		return Errorf(Unauthenticated, "sign in to act as %q: send Authorization: Bearer <token>", username)
	default:
		return Errorf(Forbidden, "%q may not act as %q", c.Username, username)
	}
}

// MaySeePrivate reports whether the caller may see username's private profile fields (email,
// birthdate, address): only their owner may.
func (c Caller) MaySeePrivate(username string) bool {
	return c.trusted || (c.Username != "" && c.Username == username)
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller WithCaller put in ctx; Anonymous when there is none, so that
// a request the edge forgot to identify can read public data and write nothing.
func CallerFrom(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}
