package dynamo

import (
	"context"
	"testing"
)

// TestCost_Nested: a request counts in its operation's Cost and in the HTTP request's Cost the
// operation's is nested in, and in nothing else.
func TestCost_Nested(t *testing.T) {
	httpCtx, perRequest := WithCost(context.Background())
	first, firstCost := WithCost(httpCtx)
	_, secondCost := WithCost(httpCtx)
	_, unrelated := WithCost(context.Background())

	CostFrom(first).add("Query", []Capacity{{Table: "t", ReadUnits: 0.5}})
	CostFrom(first).add("TransactWriteItems", []Capacity{{Table: "t", WriteUnits: 6}})
	secondCost.add("Query", []Capacity{{Table: "t", ReadUnits: 1}})

	for _, tc := range []struct {
		name     string
		cost     *Cost
		requests int
		queries  int
		rcu, wcu float64
	}{
		{"the first operation", firstCost, 2, 1, 0.5, 6},
		{"the second operation", secondCost, 1, 1, 1, 0},
		{"the HTTP request", perRequest, 3, 2, 1.5, 6},
		{"an unrelated request", unrelated, 0, 0, 0, 0},
	} {
		got := tc.cost.Snapshot()
		if got.Requests != tc.requests || got.Operations["Query"] != tc.queries || got.ReadCapacityUnits != tc.rcu || got.WriteCapacityUnits != tc.wcu {
			t.Errorf("%s: %+v, want %d requests, %d queries, %g RCU, %g WCU", tc.name, got, tc.requests, tc.queries, tc.rcu, tc.wcu)
		}
	}
	var none *Cost
	none.add("Query", nil) // a context without a Cost accounts nothing, and does not panic
}
