package feed

import (
	"context"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

	"github.com/quickphotos/quickphotos/dynamo"
)

// HandleLambda runs the fan-out as an AWS Lambda function behind a DynamoDB Streams event
// source mapping, the serverless alternative to `quickphotos stream`: Lambda reads the shards
// and keeps the position, and this applies each batch's records in order. With the mapping's
// ReportBatchItemFailures on, the first record that fails is reported, and Lambda retries the
// batch from it; the records before it, applied already, are not sent again (and would apply
// to the same effect if they were). A record no change can be read from is logged and
// skipped, as the stream consumer does.
func (f *FanOut) HandleLambda(ctx context.Context, event events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	run := &run{FanOut: f}
	for _, r := range event.Records {
		change, ok, err := dynamo.ChangeFromLambdaRecord(r)
		if err != nil {
			slog.ErrorContext(ctx, "feed: skipping a record", "event_id", r.EventID, "error", err)
			continue
		}
		if !ok {
			continue
		}
		if err := run.apply(ctx, change); err != nil {
			// The records before it are not sent again: their change log entries, queued,
			// are written first.
			failed := r
			if ferr := run.flush(ctx); ferr != nil {
				failed = event.Records[0]
			}
			slog.WarnContext(ctx, "feed: a record failed; Lambda retries from it", "event_id", failed.EventID, "error", err)
			return retryFrom(failed), nil
		}
	}
	if err := run.flush(ctx); err != nil {
		// The change log entries of the batch are written together, after its feed writes:
		// Lambda sends the whole batch again, and its changes already added add nothing.
		slog.WarnContext(ctx, "feed: writing the batch's change log entries failed; Lambda retries the batch", "error", err)
		return retryFrom(event.Records[0]), nil
	}
	return events.DynamoDBEventResponse{}, nil
}

// retryFrom asks Lambda to send the batch again from record r.
func retryFrom(r events.DynamoDBEventRecord) events.DynamoDBEventResponse {
	return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{{ItemIdentifier: r.Change.SequenceNumber}}}
}
