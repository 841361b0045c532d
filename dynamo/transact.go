package dynamo

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// txAction is one action of a transaction, with the error its failed condition means. The
// first action in the transaction whose condition failed decides the error, so actions are
// listed in the order their failures should be reported.
type txAction struct {
	write types.TransactWriteItem
	// ifFailed is returned when this action's condition fails; nil means its condition never
	// fails but for data no write of this server leaves, an internal error.
	ifFailed error
	// explain, when set, is the error of a failed condition told from the item as it was
	// (nil when there was none), which the action asks DynamoDB to return with the
	// cancellation: what would otherwise take another read.
	explain func(old Item) error
}

// Constructors of transaction actions, each named with what its failed condition means.
func putIf(p *types.Put, ifFailed error) txAction {
	return txAction{write: types.TransactWriteItem{Put: p}, ifFailed: ifFailed}
}
func updateIf(u *types.Update, ifFailed error) txAction {
	return txAction{write: types.TransactWriteItem{Update: u}, ifFailed: ifFailed}
}

// updateOrExplain is an update whose failed condition explain tells from the item as it was.
func updateOrExplain(u *types.Update, explain func(old Item) error) txAction {
	u.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	return txAction{write: types.TransactWriteItem{Update: u}, explain: explain}
}
func deleteIf(d *types.Delete, ifFailed error) txAction {
	return txAction{write: types.TransactWriteItem{Delete: d}, ifFailed: ifFailed}
}
func checkIf(c *types.ConditionCheck, ifFailed error) txAction {
	return txAction{write: types.TransactWriteItem{ConditionCheck: c}, ifFailed: ifFailed}
}

// Conditions on an item's existence, the most common ones.
var (
	itemExists = aws.String("attribute_exists(PK)")
	itemIsNew  = aws.String("attribute_not_exists(PK)")
)

// putNew puts item only where no item has its key; ifTaken when one has.
func putNew(item Item, ifTaken error) txAction {
	return putIf(&types.Put{Item: item, ConditionExpression: itemIsNew}, ifTaken)
}

// checkExists checks that the item at k exists; ifMissing when it does not.
func checkExists(k Key, ifMissing error) txAction {
	return checkIf(&types.ConditionCheck{Key: k.item(), ConditionExpression: itemExists}, ifMissing)
}

// deleteExisting deletes the item at k, which must exist; ifMissing when it does not.
func deleteExisting(k Key, ifMissing error) txAction {
	return deleteIf(&types.Delete{Key: k.item(), ConditionExpression: itemExists}, ifMissing)
}

// removeCounted deletes the item at k and uncounts it, in one transaction: the undo of a write
// that put it and counted it. It reads the item first, since what was removed is the answer;
// missing is the error when there is no such item, before or at the transaction.
func removeCounted[T any](ctx context.Context, s *Store, what string, k Key, from func(Item) (T, error), missing error, uncount ...txAction) (T, error) {
	var zero T
	item, err := s.getItem(ctx, k)
	if err != nil {
		return zero, err
	}
	if item == nil {
		return zero, missing
	}
	v, err := from(item)
	if err != nil {
		return zero, domain.Wrap(domain.Internal, err, "reading the "+what)
	}
	// A mark records the removed item itself: a replay answers with it, as it no longer exists.
	if err := s.transactMarked(ctx, what+" removal", markOutcome{removed: item}, append([]txAction{deleteExisting(k, missing)}, uncount...)); err != nil {
		return zero, err
	}
	return v, nil
}

// allIf gives every write of a transaction the same meaning for a failed condition: for
// transactions conditional as a whole on what was read before (a delete, a repair).
func allIf(writes []types.TransactWriteItem, ifFailed error) []txAction {
	actions := make([]txAction, len(writes))
	for i, w := range writes {
		actions[i] = txAction{write: w, ifFailed: ifFailed}
	}
	return actions
}

// transact runs actions as one TransactWriteItems. Conflicts with other transactions are
// retried with bounded backoff under one ClientRequestToken, so a retry after a lost response
// cannot apply the writes twice. A cancellation by a condition returns the ifFailed of the
// first action whose condition failed; any other cancellation is Internal, naming what the
// transaction was for.
func (s *Store) transact(ctx context.Context, what string, actions []txAction) error {
	writes := make([]types.TransactWriteItem, len(actions))
	for i := range actions {
		writes[i] = actions[i].write
		setTable(&writes[i], &s.table)
	}
	token := requestToken()
	for attempt := 1; ; attempt++ {
		err := s.transactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems:      writes,
			ClientRequestToken: &token,
		})
		if err == nil {
			return nil
		}
		reasons := cancellationReasons(err)
		retry := isTransactionInProgress(err) || (reasons != nil && isRetryableCancellation(reasons))
		if reasons != nil && !retry {
			return cancellationError(what, reasons, cancelledItems(err), actions)
		}
		if !retry {
			return err
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

// cancellationError is the error of a transaction cancelled with reasons, one code per action,
// and old, the items returned with them (nil where none): that of the first action whose
// condition failed, its explanation of old or else its ifFailed.
func cancellationError(what string, reasons []string, old []Item, actions []txAction) error {
	for i, r := range reasons {
		if r != "ConditionalCheckFailed" || i >= len(actions) {
			continue
		}
		if a := actions[i]; a.explain != nil {
			var item Item
			if i < len(old) {
				item = old[i]
			}
			return a.explain(item)
		} else if a.ifFailed != nil {
			return a.ifFailed
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
