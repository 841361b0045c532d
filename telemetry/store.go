package telemetry

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/loaders"
)

// The outcomes of a DynamoDB request, the outcome label of quickphotos_dynamodb_requests_total.
const (
	// OutcomeCancelled: DynamoDB cancelled a transaction (TransactionCanceledException);
	// quickphotos_dynamodb_transaction_cancellations_total tells why.
	OutcomeCancelled = "cancelled"
	// OutcomeAborted: the request's context ended first (the client went away, or a
	// deadline passed), so the answer, if any, was not waited for.
	OutcomeAborted = "aborted"
)

// Store returns the observer to give the store (dynamo.WithObserver). Every DynamoDB request
// gets a client span "DynamoDB.<Operation>", a child of the span in the request's context
// (the GraphQL operation's), and is counted in the quickphotos_dynamodb_* metrics with
// outcome OutcomeOK, OutcomeCancelled, OutcomeAborted or OutcomeError. Its count and
// consumed capacity also go into the access log line of its HTTP request.
func (t *Telemetry) Store() dynamo.Observer {
	return storeObserver{t}
}

type storeObserver struct{ t *Telemetry }

// BeginRequest starts the span and the clock of one request.
func (o storeObserver) BeginRequest(ctx context.Context, operation, table string) (context.Context, func(dynamo.RequestOutcome)) {
	start := time.Now()
	var span trace.Span
	if !o.t.traced {
		ctx, span = o.t.tracer.Start(ctx, "") // a noop.TracerProvider's: nothing is built
	} else {
		ctx, span = o.t.tracer.Start(ctx, "DynamoDB."+operation,
			trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(
				attribute.String("db.system.name", "aws.dynamodb"),
				attribute.String("db.operation.name", operation),
				attribute.String("rpc.system", "aws-api"),
				attribute.String("rpc.service", "DynamoDB"),
				attribute.String("rpc.method", operation),
				attribute.StringSlice("aws.dynamodb.table_names", []string{table}),
			))
	}
	return ctx, func(out dynamo.RequestOutcome) {
		defer span.End()
		m := o.t.m
		outcome := requestOutcome(out)
		m.dynamoRequests.WithLabelValues(operation, table, outcome).Inc()
		m.dynamoDuration.WithLabelValues(operation, table).Observe(time.Since(start).Seconds())

		var rcu, wcu float64
		for _, c := range out.Capacity {
			if c.ReadUnits > 0 {
				m.dynamoCapacity.WithLabelValues(operation, c.Table, "read").Add(c.ReadUnits)
			}
			if c.WriteUnits > 0 {
				m.dynamoCapacity.WithLabelValues(operation, c.Table, "write").Add(c.WriteUnits)
			}
			rcu += c.ReadUnits
			wcu += c.WriteUnits
		}
		span.SetAttributes(
			attribute.Float64("aws.dynamodb.consumed_read_capacity", rcu),
			attribute.Float64("aws.dynamodb.consumed_write_capacity", wcu),
		)

		var reasons []string
		for _, r := range out.CancellationReasons {
			if r == "" || r == "None" {
				continue
			}
			if !reasonPattern.MatchString(r) {
				r = otherLabel
			}
			reasons = append(reasons, r)
			m.dynamoCancellations.WithLabelValues(r).Inc()
		}
		if out.Err != nil {
			if len(reasons) > 0 {
				span.SetAttributes(attribute.StringSlice("aws.dynamodb.cancellation_reasons", reasons))
			}
			span.RecordError(out.Err)
			span.SetStatus(codes.Error, outcome)
		}
	}
}

// requestOutcome classifies a request's result for the outcome label.
func requestOutcome(out dynamo.RequestOutcome) string {
	switch {
	case out.Err == nil:
		return OutcomeOK
	case out.Cancelled:
		return OutcomeCancelled
	case errors.Is(out.Err, context.Canceled) || errors.Is(out.Err, context.DeadlineExceeded):
		return OutcomeAborted
	}
	return OutcomeError
}

// Loaders returns the observer to give the dataloaders (loaders.Options.Observer): it
// records the size of every batch in quickphotos_dataloader_batch_size.
func (t *Telemetry) Loaders() loaders.BatchObserver {
	return batchObserver{t}
}

type batchObserver struct{ t *Telemetry }

// ObserveBatch records one batch of keys sent by loader.
func (o batchObserver) ObserveBatch(loader string, keys int) {
	o.t.m.batchSize.WithLabelValues(loader).Observe(float64(keys))
}
