package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Marks of client mutation ids (see domain.MutationMark). A write that a context with a mark
// reaches puts the mark first in its TransactWriteItems (a write that is one PutItem or
// UpdateItem without a mark becomes a transaction with one), conditional on there being no
// live mark: of two replays racing, one commits, and the other's transaction fails on the mark
// and reports domain.ErrMutationMarked, to answer from the mark. A mark outlives its retention
// until the table's TTL removes it (within days on DynamoDB), so an expired mark reads as none
// and may be written over.

// markOutcome is what a write records in its mark: the key of the object it returns with its
// item as returned (for a replay once it is gone), or the item of the object it removed, and
// the id of the photo deletion in steps it began.
type markOutcome struct {
	node     domain.NodeKey
	returned Item
	removed  Item
	deletion string
}

// markOf returns the mark ctx carries for this store to write, nil when there is none or the
// store has written it already (a mutation writes its mark once, in its first transaction).
func markOf(ctx context.Context) *domain.MutationMark {
	m := domain.MutationMarkFrom(ctx)
	if m == nil || m.Written {
		return nil
	}
	return m
}

// transactMarked runs actions as transact does, with the mark ctx carries put first.
func (s *Store) transactMarked(ctx context.Context, what string, outcome markOutcome, actions []txAction) error {
	m := markOf(ctx)
	if m == nil {
		return s.transact(ctx, what, actions)
	}
	put := s.markPut(m, markItem(m, outcome, s.now()))
	if err := s.transact(ctx, what, append([]txAction{put}, actions...)); err != nil {
		return err
	}
	m.Written = true
	return nil
}

// markPut puts a mark item where no live mark is.
func (s *Store) markPut(m *domain.MutationMark, item Item) txAction {
	return putIf(&types.Put{
		Item:                      item,
		ConditionExpression:       aws.String("attribute_not_exists(PK) OR #expires <= :now"),
		ExpressionAttributeNames:  map[string]string{"#expires": attrExpiresAt},
		ExpressionAttributeValues: Item{":now": unixTime(s.now())},
	}, domain.ErrMutationMarked)
}

// PutMutationMark writes mark m alone with outcome o: for a mutation refused for a reason of
// state, which wrote nothing, and for one whose answer is no stored object or whose writes
// carried no mark. ErrMutationMarked when a live mark is there already.
func (s *Store) PutMutationMark(ctx context.Context, m *domain.MutationMark, o domain.MutationOutcome) error {
	removed, err := itemOfNode(o.Removed)
	if err != nil {
		return domain.Wrap(domain.Internal, err, "writing a client mutation mark")
	}
	returned, err := itemOfNode(o.Returned)
	if err != nil {
		return domain.Wrap(domain.Internal, err, "writing a client mutation mark")
	}
	item := markItem(m, markOutcome{node: o.Node, returned: returned, removed: removed, deletion: o.Deletion}, s.now())
	if o.Err != nil {
		item[attrErrorCode], item[attrErrorMessage] = str(string(o.Err.Code)), str(o.Err.Message)
	}
	if o.Answer != nil {
		item[attrOutcomeAnswer] = str(string(o.Answer))
	}
	put := s.markPut(m, item).write.Put
	err = s.putItem(ctx, &dynamodb.PutItemInput{
		Item: put.Item, ConditionExpression: put.ConditionExpression,
		ExpressionAttributeNames: put.ExpressionAttributeNames, ExpressionAttributeValues: put.ExpressionAttributeValues,
	})
	if isConditionFailed(err) {
		return domain.ErrMutationMarked
	}
	if err == nil {
		m.Written = true
	}
	return err
}

// GetMutationMark reads the live mark of caller's client mutation id (one strongly consistent
// GetItem); nil when there is none.
func (s *Store) GetMutationMark(ctx context.Context, caller, id string) (*domain.MutationOutcome, error) {
	item, err := s.getItem(ctx, mutationMarkKey(caller, id))
	if err != nil || item == nil {
		return nil, err
	}
	if expires := getInt(item, attrExpiresAt); int64(expires) <= s.now().Unix() {
		return nil, nil
	}
	o, err := outcomeFromItem(item)
	if err != nil {
		return nil, domain.Wrap(domain.Internal, err, "reading a client mutation mark")
	}
	return o, nil
}

// itemOfNode is the item of an entity, nil for none.
func itemOfNode(n domain.Node) (Item, error) {
	switch n := n.(type) {
	case nil:
		return nil, nil
	case domain.User:
		return userItem(n), nil
	case *domain.User:
		return userItem(*n), nil
	case domain.Photo:
		return photoItem(n), nil
	case *domain.Photo:
		return photoItem(*n), nil
	case domain.Reaction:
		return reactionItem(n), nil
	case *domain.Reaction:
		return reactionItem(*n), nil
	case domain.Friendship:
		return friendshipItem(n), nil
	case *domain.Friendship:
		return friendshipItem(*n), nil
	}
	return nil, fmt.Errorf("no item for a %T", n)
}

// markItem is the item of mark m with outcome o, written at now.
func markItem(m *domain.MutationMark, o markOutcome, now time.Time) Item {
	k := mutationMarkKey(m.Caller, m.ID)
	item := Item{
		attrPK:               str(k.PK),
		attrSK:               str(k.SK),
		attrClientMutationID: str(m.ID),
		attrMutation:         str(m.Mutation),
		attrInputHash:        str(m.InputHash),
		attrExpiresAt:        unixTime(now.Add(m.Retention)),
	}
	if o.node != nil {
		item[attrOutcomeNode] = str(domain.NodeID(o.node))
	}
	if o.returned != nil {
		item[attrOutcomeReturned] = &types.AttributeValueMemberM{Value: o.returned}
	}
	if o.removed != nil {
		item[attrOutcomeRemoved] = &types.AttributeValueMemberM{Value: o.removed}
	}
	if o.deletion != "" {
		item[attrDeletion] = str(o.deletion)
	}
	return item
}

// outcomeFromItem reads a mark item.
func outcomeFromItem(item Item) (*domain.MutationOutcome, error) {
	o := &domain.MutationOutcome{}
	o.Mutation, _ = getString(item, attrMutation)
	o.InputHash, _ = getString(item, attrInputHash)
	if id, ok := getString(item, attrOutcomeNode); ok {
		k, err := domain.ParseNodeID(attrOutcomeNode, id)
		if err != nil {
			return nil, err
		}
		o.Node = k
	}
	var err error
	if o.Returned, err = nodeOfItem(item, attrOutcomeReturned); err != nil {
		return nil, err
	}
	if o.Removed, err = nodeOfItem(item, attrOutcomeRemoved); err != nil {
		return nil, err
	}
	o.Deletion, _ = getString(item, attrDeletion)
	if a, ok := getString(item, attrOutcomeAnswer); ok {
		o.Answer = []byte(a)
	}
	if code, ok := getString(item, attrErrorCode); ok {
		msg, _ := getString(item, attrErrorMessage)
		o.Err = domain.Errorf(domain.Code(code), "%s", msg)
	}
	return o, nil
}

// nodeOfItem is the entity a mark item keeps in attribute attr, nil for none.
func nodeOfItem(item Item, attr string) (domain.Node, error) {
	m, ok := item[attr].(*types.AttributeValueMemberM)
	if !ok {
		return nil, nil
	}
	decode := entityDecoder(keyOf(m.Value))
	if decode == nil {
		return nil, fmt.Errorf("%s: an object of no entity's key %v", attr, keyOf(m.Value))
	}
	v, err := decode(m.Value)
	if err != nil {
		return nil, err
	}
	n, ok := v.(domain.Node)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, which has no id", attr, v)
	}
	return n, nil
}

func unixTime(t time.Time) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(t.Unix(), 10)}
}
