package api

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/dynamo"
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

// costReporter adds extensions.cost to the response of an operation whose request asked for
// it. The cost itself is collected by the store for every operation (see perOperation in operation.go).
type costReporter struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = costReporter{}

func (costReporter) ExtensionName() string { return "QuickphotosCost" }

func (costReporter) Validate(graphql.ExecutableSchema) error { return nil }

func (costReporter) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || ctx.Value(wantCostKey{}) == nil {
		return resp
	}
	cost := dynamo.CostFrom(ctx)
	if cost == nil {
		return resp
	}
	if resp.Extensions == nil {
		resp.Extensions = map[string]any{}
	}
	resp.Extensions["cost"] = cost.Snapshot()
	return resp
}
