package api

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/ratelimit"
)

// CostHeader asks for the DynamoDB cost of an operation in the response's extensions.cost.
const CostHeader = "X-Quickphotos-Cost"

type wantCostKey struct{}

// askCost marks requests that carry CostHeader, for the response interceptor below.
func askCost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(CostHeader); v == "1" || v == "true" {
			r = r.WithContext(context.WithValue(r.Context(), wantCostKey{}, true))
		}
		next.ServeHTTP(w, r)
	})
}

// costReporter charges an operation's cost to its caller's bucket (ratelimit.go), and adds
// extensions.cost to the response of an operation whose request asked for it: the DynamoDB
// requests and capacity units it consumed and, with rate limits, its caller's bucket after the
// charge in extensions.cost.limit. The cost itself is collected by the store for every
// operation (see perOperation in operation.go).
type costReporter struct{}

// costReport is extensions.cost.
type costReport struct {
	dynamo.CostSnapshot
	Limit *ratelimit.State `json:"limit,omitempty"`
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = costReporter{}

func (costReporter) ExtensionName() string { return "QuickphotosCost" }

func (costReporter) Validate(graphql.ExecutableSchema) error { return nil }

func (costReporter) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	cost := dynamo.CostFrom(ctx)
	limit := chargeOperation(ctx, cost)
	if resp == nil || ctx.Value(wantCostKey{}) == nil || cost == nil {
		return resp
	}
	if resp.Extensions == nil {
		resp.Extensions = map[string]any{}
	}
	resp.Extensions["cost"] = costReport{CostSnapshot: cost.Snapshot(), Limit: limit}
	return resp
}
