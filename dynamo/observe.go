package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Observer is told about every data-plane request the store sends to DynamoDB, so that
// metrics and traces can hang off the store without the store knowing about either.
type Observer interface {
	// BeginRequest is called before a request is sent. The request is sent with the returned
	// context (which may carry a trace span), and end is called once with its outcome.
	BeginRequest(ctx context.Context, operation, table string) (_ context.Context, end func(RequestOutcome))
}

// RequestOutcome is what one DynamoDB request did.
type RequestOutcome struct {
	// Err is the request's error, nil when it succeeded.
	Err error
	// Capacity is the capacity DynamoDB reported as consumed, per table.
	Capacity []Capacity
	// Cancelled reports that DynamoDB cancelled a transaction (TransactionCanceledException).
	Cancelled bool
	// CancellationReasons holds, for a cancelled transaction, one code per action in request
	// order ("None" for actions that did not cause the cancellation).
	CancellationReasons []string
}

// Capacity is the capacity one request consumed on one table.
type Capacity struct {
	Table      string
	ReadUnits  float64
	WriteUnits float64
}

// Option configures a Store.
type Option func(*Store)

// WithObserver makes the store report every request to o.
func WithObserver(o Observer) Option {
	return func(s *Store) { s.observer = o }
}

// send runs one request through call, accounts its cost to the operation in ctx, and reports
// it to the observer. Every data-plane request goes through here.
func (s *Store) send(ctx context.Context, operation string, call func(context.Context) ([]types.ConsumedCapacity, error)) error {
	end := func(RequestOutcome) {}
	if s.observer != nil {
		ctx, end = s.observer.BeginRequest(ctx, operation, s.table)
	}
	capacity, err := call(ctx)
	var tce *types.TransactionCanceledException
	outcome := RequestOutcome{Err: err, Cancelled: errors.As(err, &tce), CancellationReasons: cancellationReasons(err)}
	for _, cc := range capacity {
		r, w := capacityUnits(operation, cc)
		table := s.table
		if cc.TableName != nil {
			table = *cc.TableName
		}
		outcome.Capacity = append(outcome.Capacity, Capacity{Table: table, ReadUnits: r, WriteUnits: w})
	}
	CostFrom(ctx).add(operation, outcome.Capacity)
	end(outcome)
	return err
}
