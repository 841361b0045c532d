package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/ratelimit"
)

// Rate limits by cost: every caller has a bucket of DynamoDB capacity units (package
// ratelimit). Every operation is admitted while its caller's bucket holds units, and refused
// with LIMIT_EXCEEDED before anything runs, before its document is even parsed, when it is
// empty or in debt, so a refused mutation writes nothing: an HTTP request (Server-Sent Events
// included) with 429 and Retry-After, a graphql-ws subscribe message with an error message
// for its id (graphqlws.go). Once the operation has run, the read and write units it consumed
// (the figures of extensions.cost) are charged, at least minCharge: a request that reads
// nothing, or whose document does not parse or validate, still costs the server work. A
// subscription is charged minCharge as it starts, and its events nothing, because how many
// come is up to the writers, not the subscriber (the hub bounds what one connection holds
// instead).
//
// A caller is its username when authenticated, else its address: the IP of the connection, or
// the /64 network of an IPv6 address, since one host commonly holds a whole /64; behind trusted
// proxies, the address they were reached from (clientaddress.go). When the
// buckets cannot be reached (Redis down) the request runs unmetered, is counted in metrics,
// and logged: the limit protects the table from one caller, and refusing every caller would do
// that caller's damage for it.

// minCharge is the least an operation costs: half a unit, what the cheapest DynamoDB read (an
// eventually consistent GetItem of up to 4 KB) consumes.
const minCharge = 0.5

// rateLimit is the hook of the buckets in the HTTP handler and in GraphQL. The zero value
// (no limiter) admits everything and charges nothing.
type rateLimit struct {
	limiter  ratelimit.Limiter
	clients  clientAddresses
	observer ratelimit.Observer
	log      *slog.Logger
}

// rateCaller is whose bucket a request draws on.
type rateCaller struct {
	key  string
	kind string
}

// admission is an admitted request's account: the operation's charge goes through it, once.
type admission struct {
	rl      rateLimit
	caller  rateCaller
	charged bool
	// state is the bucket after the charge, for extensions.cost.
	state ratelimit.State
}

type admissionKey struct{}
type addressKey struct{}

// newRateLimit is the hook of cfg's buckets, nil ones when cfg has no rate limit.
func newRateLimit(cfg Config) rateLimit {
	rl := rateLimit{limiter: cfg.RateLimit, clients: newClientAddresses(cfg.TrustedProxies), log: cfg.Logger}
	if cfg.Telemetry != nil {
		rl.observer = cfg.Telemetry.RateLimit()
	}
	return rl
}

// limit admits or refuses every request before GraphQL sees it, and charges it after; on
// every request it notes the client's address, for the caller of an anonymous request. A
// WebSocket's upgrade is let through: its operations are admitted one by one as they come
// (graphqlws.go), each a request of its own.
func (rl rateLimit) limit(next http.Handler) http.Handler {
	if rl.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), addressKey{}, rl.clients.of(r))
		if isWebSocket(r) {
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		a, refused := rl.account(ctx)
		if refused != nil {
			holdRefusal(ctx)
			refuseRate(w, *refused, ctx.Value(wantCostKey{}) != nil)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, admissionKey{}, a)))
		// A request refused before any operation ran (it did not parse or validate) still
		// cost the server its work.
		a.charge(ctx, nil)
	})
}

// account admits the next operation of ctx's caller, before anything of it is read: its
// account, to charge it to, or the decision that refused it. Without buckets there is neither;
// when the buckets could not say, the account is one charged already, so that the operation
// runs unmetered and nothing tries again.
func (rl rateLimit) account(ctx context.Context) (*admission, *ratelimit.Decision) {
	if rl.limiter == nil {
		return nil, nil
	}
	caller := rateCallerOf(ctx)
	d, ok := rl.admit(ctx, caller)
	switch {
	case !ok:
		return &admission{charged: true}, nil
	case !d.Allowed:
		return nil, &d
	}
	return &admission{rl: rl, caller: caller, state: d.State}, nil
}

// admit asks the buckets about caller; false when they could not say.
func (rl rateLimit) admit(ctx context.Context, c rateCaller) (ratelimit.Decision, bool) {
	d, err := rl.limiter.Admit(ctx, c.key)
	if err != nil {
		rl.failed(ctx, c, err)
		return d, false
	}
	if !d.Allowed && rl.observer != nil {
		rl.observer.Refused(c.kind)
	}
	return d, true
}

func (rl rateLimit) failed(ctx context.Context, c rateCaller, err error) {
	rl.log.WarnContext(ctx, "rate limit: the buckets did not answer; the request runs unmetered", "err", err)
	if rl.observer != nil {
		rl.observer.Failed(c.kind)
	}
}

// charge takes what cost says the request consumed, at least minCharge, from the caller's
// bucket; only the first charge of a request counts. It returns the bucket after it, nil when
// the buckets could not be charged.
func (a *admission) charge(ctx context.Context, cost *dynamo.Cost) *ratelimit.State {
	if a == nil || a.charged {
		return nil
	}
	a.charged = true
	units := minCharge
	if cost != nil {
		s := cost.Snapshot()
		units = math.Max(units, s.ReadCapacityUnits+s.WriteCapacityUnits)
	}
	// The operation has run: its charge must be taken even when the client has gone away.
	state, err := a.rl.limiter.Charge(context.WithoutCancel(ctx), a.caller.key, units)
	if err != nil {
		a.rl.failed(ctx, a.caller, err)
		return nil
	}
	if a.rl.observer != nil {
		a.rl.observer.Charged(a.caller.kind, units)
	}
	a.state = state
	return &a.state
}

// chargeOperation charges the operation of ctx, when its request was admitted by the
// buckets, and returns the bucket after the charge (nil without one).
func chargeOperation(ctx context.Context, cost *dynamo.Cost) *ratelimit.State {
	a, _ := ctx.Value(admissionKey{}).(*admission)
	return a.charge(ctx, cost)
}

// refusalHold is how long a refusal is held before it is sent. A client that retries at once
// without reading Retry-After (a loop, a misbehaving SDK) would otherwise be refused thousands
// of times a second per connection, and every refusal still costs the server the request's
// reading, JSON checks and token verification: measured, such a caller pushed the p99 of other
// callers' reads up by 83% while spending nothing (docs/benchmarks.md). Held, it sends two
// requests a second per connection, and a held refusal costs a timer. A graphql-ws connection
// reads its next message only once the refusal is sent, so its operations slow to two a second
// as well. Half a second is short next to Retry-After (a second at the least), which still
// holds when the answer arrives, give or take that half second.
const refusalHold = 500 * time.Millisecond

// holdRefusal waits refusalHold, or until the client goes away.
func holdRefusal(ctx context.Context) {
	t := time.NewTimer(refusalHold)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// refuseRate answers a request refused by its bucket: 429 with Retry-After, in GraphQL's error
// shape, with the bucket in extensions.cost when the request asked for the cost.
func refuseRate(w http.ResponseWriter, d ratelimit.Decision, wantCost bool) {
	body := map[string]any{"errors": []any{rateError(d)}}
	if wantCost {
		body["extensions"] = map[string]any{"cost": map[string]any{"limit": d.State}}
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(d.RetryAfter.Seconds())))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus(domain.LimitExceeded))
	_ = json.NewEncoder(w).Encode(body)
}

// rateError is the GraphQL error of a refused operation; retryAfter says in how many seconds
// the bucket holds units again, as Retry-After does over HTTP.
func rateError(d ratelimit.Decision) *gqlerror.Error {
	return &gqlerror.Error{
		Message: "this caller has spent its DynamoDB capacity units for now: retry after " +
			strconv.Itoa(int(d.RetryAfter.Seconds())) + "s",
		Extensions: map[string]any{"code": extensionCode(domain.LimitExceeded), "retryAfter": int(d.RetryAfter.Seconds())},
	}
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = rateLimit{}

func (rateLimit) ExtensionName() string { return "QuickphotosRateLimit" }

func (rateLimit) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation charges a subscription minCharge as it starts, so that its events, which
// costReporter would charge as an operation's responses, are not charged.
func (rl rateLimit) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Subscription {
		chargeOperation(ctx, nil)
	}
	return next(ctx)
}

// rateCallerOf is whose bucket the request of ctx draws on.
func rateCallerOf(ctx context.Context) rateCaller {
	if c := domain.CallerFrom(ctx); c.Username != "" {
		return rateCaller{key: "user:" + c.Username, kind: ratelimit.CallerUser}
	}
	addr, _ := ctx.Value(addressKey{}).(string)
	return rateCaller{key: "address:" + addr, kind: ratelimit.CallerAddress}
}
