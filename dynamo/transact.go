package dynamo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// onFailed is the error an access pattern returns when the condition of its action number
// Action (0-based, in request order, or anyAction) cancelled the transaction.
type onFailed struct {
	Action int
	Err    error
}

// anyAction in an onFailed matches a failed condition on any action of the transaction.
const anyAction = -1

// transact runs actions as one TransactWriteItems. Conflicts with other transactions are
// retried with bounded backoff under one ClientRequestToken, so a retry after a lost response
// cannot apply the writes twice. A cancellation by a condition returns the Err of the first of
// failures, in the order given, whose action's condition failed; any other cancellation is
// Internal, naming what the transaction was for.
func (s *Store) transact(ctx context.Context, what string, actions []types.TransactWriteItem, failures ...onFailed) error {
	for i := range actions {
		setTable(&actions[i], &s.table)
	}
	token := requestToken()
	for attempt := 1; ; attempt++ {
		err := s.transactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems:      actions,
			ClientRequestToken: &token,
		})
		if err == nil {
			return nil
		}
		reasons := cancellationReasons(err)
		retry := isTransactionInProgress(err) || (reasons != nil && isRetryableCancellation(reasons))
		if reasons != nil && !retry {
			return cancellationError(what, reasons, failures)
		}
		if !retry {
			return storeError("TransactWriteItems", err)
		}
		if attempt >= s.retry.attempts {
			return domain.Wrap(domain.Unavailable, err, "the write kept conflicting with other writes; retry later")
		}
		if !s.retry.wait(ctx, attempt) {
			return ctx.Err()
		}
		// A conflict cancelled the whole transaction, so nothing was written and a new token
		// is needed: DynamoDB would answer a reused token with the same cancellation.
		if reasons != nil {
			token = requestToken()
		}
	}
}

// cancellationError is the error of a transaction cancelled with reasons, one code per action.
func cancellationError(what string, reasons []string, failures []onFailed) error {
	for _, f := range failures {
		if f.Action == anyAction && slices.Contains(reasons, "ConditionalCheckFailed") {
			return f.Err
		}
		if f.Action >= 0 && f.Action < len(reasons) && reasons[f.Action] == "ConditionalCheckFailed" {
			return f.Err
		}
	}
	return domain.Errorf(domain.Internal, "%s cancelled: %v", what, reasons)
}

func setTable(a *types.TransactWriteItem, table *string) {
	switch {
	case a.Put != nil:
		a.Put.TableName = table
	case a.Update != nil:
		a.Update.TableName = table
	case a.Delete != nil:
		a.Delete.TableName = table
	case a.ConditionCheck != nil:
		a.ConditionCheck.TableName = table
	}
}

// requestToken is a fresh ClientRequestToken (DynamoDB allows up to 36 characters).
func requestToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// uncounted is the error of an undo whose parent is missing or does not count the item being
// removed: data that no write of this server leaves (`quickphotos check` lists it), refused
// rather than taking a counter below zero.
func uncounted(parent, what string) error {
	return domain.Errorf(domain.NotFound, "%s does not exist or does not count this %s; nothing was removed", parent, what)
}
