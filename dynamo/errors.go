package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/domain"
)

// storeError turns a failed DynamoDB request into a domain error. Conditional failures are
// not handled here: each access pattern knows what its condition meant.
func storeError(operation string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
			"InternalServerError", "ServiceUnavailable", "LimitExceededException":
			return domain.Wrap(domain.Unavailable, err, "the database is busy; retry later")
		case "ResourceNotFoundException":
			return domain.Wrap(domain.Internal, err, fmt.Sprintf("%s: table or index missing", operation))
		}
	}
	return domain.Wrap(domain.Internal, err, operation+" failed")
}

// isConditionFailed reports whether err is a ConditionalCheckFailedException.
func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

// cancellationReasons returns the codes of a cancelled transaction, one per action in request
// order ("None" for actions that did not fail), or nil when err is not a cancellation.
func cancellationReasons(err error) []string {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil
	}
	codes := make([]string, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		if r.Code != nil {
			codes[i] = *r.Code
		}
	}
	return codes
}

// cancelledItems returns the items a cancelled transaction returned, one per action in request
// order (nil where none: an action returns its item only when its condition failed and it
// asked for ALL_OLD), or nil when err is not a cancellation.
func cancelledItems(err error) []Item {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil
	}
	items := make([]Item, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		if len(r.Item) > 0 {
			items[i] = r.Item
		}
	}
	return items
}

// isRetryableCancellation reports whether a transaction was cancelled only because of a
// conflict with another transaction or throttling, so that running it again may succeed.
func isRetryableCancellation(codes []string) bool {
	retryable := false
	for _, c := range codes {
		switch c {
		case "", "None":
		case "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded":
			retryable = true
		default:
			return false
		}
	}
	return retryable
}

// isTransactionInProgress reports whether DynamoDB refused a transaction because an identical
// one (same ClientRequestToken) is still running.
func isTransactionInProgress(err error) bool {
	var tip *types.TransactionInProgressException
	return errors.As(err, &tip)
}
