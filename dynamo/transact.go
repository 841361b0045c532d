package dynamo

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// cancelled is a transaction DynamoDB refused because a condition failed: Reasons holds one
// code per action, in request order, so the access pattern can tell which rule was broken.
type cancelled struct {
	Reasons []string
}

// failed reports whether action i was cancelled by its condition.
func (c *cancelled) failed(i int) bool {
	return c != nil && i < len(c.Reasons) && c.Reasons[i] == "ConditionalCheckFailed"
}

// transact runs actions as one TransactWriteItems. Conflicts with other transactions are
// retried with bounded backoff under one ClientRequestToken, so a retry after a lost response
// cannot apply the writes twice. A cancellation by a condition is returned as *cancelled with
// a nil error; the access pattern turns it into a domain error.
func (s *Store) transact(ctx context.Context, actions []types.TransactWriteItem) (*cancelled, error) {
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
			return nil, nil
		}
		reasons := cancellationReasons(err)
		retry := isTransactionInProgress(err) || (reasons != nil && isRetryableCancellation(reasons))
		if reasons != nil && !retry {
			return &cancelled{Reasons: reasons}, nil
		}
		if !retry {
			return nil, storeError("TransactWriteItems", err)
		}
		if attempt >= s.retry.attempts {
			return nil, domain.Wrap(domain.Unavailable, err, "the write kept conflicting with other writes; retry later")
		}
		if !s.retry.wait(ctx, attempt) {
			return nil, ctx.Err()
		}
		// A conflict cancelled the whole transaction, so nothing was written and a new token
		// is needed: DynamoDB would answer a reused token with the same cancellation.
		if reasons != nil {
			token = requestToken()
		}
	}
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
