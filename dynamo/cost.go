package dynamo

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cost is the one record of what DynamoDB requests cost: how many of each kind, and the
// capacity DynamoDB reported for them. Store.send adds every request sent with a context from
// WithCost, to that Cost and to every Cost it is nested in: the HTTP request's (read by the
// access log) holds the sum of its GraphQL operations' (read by extensions.cost). It is safe
// for concurrent use: a request's resolvers run in parallel.
type Cost struct {
	parent *Cost

	mu         sync.Mutex
	requests   int
	operations map[string]int
	rcu, wcu   float64
}

// CostSnapshot is a Cost at one moment, shaped for the response's extensions.cost.
type CostSnapshot struct {
	Requests           int            `json:"requests"`
	Operations         map[string]int `json:"operations"`
	ReadCapacityUnits  float64        `json:"readCapacityUnits"`
	WriteCapacityUnits float64        `json:"writeCapacityUnits"`
}

type costKey struct{}

// WithCost returns a context whose DynamoDB requests are added to the returned Cost, and to
// the Cost ctx already carries, if any.
func WithCost(ctx context.Context) (context.Context, *Cost) {
	c := &Cost{parent: CostFrom(ctx), operations: map[string]int{}}
	return context.WithValue(ctx, costKey{}, c), c
}

// Snapshot returns the cost so far.
func (c *Cost) Snapshot() CostSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	ops := make(map[string]int, len(c.operations))
	for k, v := range c.operations {
		ops[k] = v
	}
	return CostSnapshot{Requests: c.requests, Operations: ops, ReadCapacityUnits: c.rcu, WriteCapacityUnits: c.wcu}
}

// add accounts one request and the capacity it consumed to c and the Costs it is nested in; a
// nil Cost (a context without one) accounts nothing.
func (c *Cost) add(operation string, capacity []Capacity) {
	for ; c != nil; c = c.parent {
		c.addOne(operation, capacity)
	}
}

func (c *Cost) addOne(operation string, capacity []Capacity) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	c.operations[operation]++
	for _, cc := range capacity {
		c.rcu += cc.ReadUnits
		c.wcu += cc.WriteUnits
	}
}

// capacityUnits splits consumed capacity into read and write units. With TOTAL, DynamoDB
// reports CapacityUnits and, depending on the operation, the read/write split; where the split
// is missing the operation tells which kind the units are.
func capacityUnits(operation string, cc types.ConsumedCapacity) (read, write float64) {
	if cc.ReadCapacityUnits != nil || cc.WriteCapacityUnits != nil {
		return deref(cc.ReadCapacityUnits), deref(cc.WriteCapacityUnits)
	}
	if readOperations[operation] {
		return deref(cc.CapacityUnits), 0
	}
	return 0, deref(cc.CapacityUnits)
}

var readOperations = map[string]bool{
	"GetItem": true, "BatchGetItem": true, "Query": true, "Scan": true, "TransactGetItems": true,
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// CostFrom returns the Cost that WithCost put in ctx, nil when there is none.
func CostFrom(ctx context.Context) *Cost {
	c, _ := ctx.Value(costKey{}).(*Cost)
	return c
}
