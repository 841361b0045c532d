package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/domain"
)

// queryItems runs in until it has want items or the key range ends. A page ends at Limit items
// or at 1 MB, whichever comes first, so one call is usually one request and more only when
// items are large.
func (s *Store) queryItems(ctx context.Context, in *dynamodb.QueryInput, want int) ([]Item, error) {
	var items []Item
	for {
		in.Limit = aws.Int32(int32(want - len(items)))
		out, err := s.query(ctx, in)
		if err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
		if out.LastEvaluatedKey == nil || len(items) >= want {
			return items, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// pageOf cuts children to first items and computes their cursors: the query asked for one more
// than first, so that a page knows whether another follows without a second request.
func pageOf[T any](children []T, keys []Key, first int, l list) domain.Page[T] {
	var p domain.Page[T]
	if len(children) > first {
		children, keys, p.HasNextPage = children[:first], keys[:first], true
	}
	p.Items, p.Cursors = children, make([]string, len(keys))
	for i, k := range keys {
		p.Cursors[i] = encodeCursor(l, k)
	}
	return p
}

// collection splits the items of an item-collection Query into the parent the Query also
// reached (a profile, a photo; nil when it did not) and the children, with their keys.
func collection[P, C any](items []Item, isParent func(Key) bool, parent func(Item) (P, error), child func(Item) (C, error)) (*P, []C, []Key, error) {
	var found *P
	children := make([]C, 0, len(items))
	keys := make([]Key, 0, len(items))
	for _, item := range items {
		k := keyOf(item)
		if isParent(k) {
			p, err := parent(item)
			if err != nil {
				return nil, nil, nil, domain.Wrap(domain.Internal, err, "reading an item")
			}
			found = &p
			continue
		}
		c, err := child(item)
		if err != nil {
			return nil, nil, nil, domain.Wrap(domain.Internal, err, "reading an item")
		}
		children = append(children, c)
		keys = append(keys, k)
	}
	return found, children, keys, nil
}

// decodeAll converts the items of a Query that holds only children, with their keys.
func decodeAll[C any](items []Item, child func(Item) (C, error)) ([]C, []Key, error) {
	_, children, keys, err := collection[struct{}](items, func(Key) bool { return false }, nil, child)
	return children, keys, err
}

func keyOf(item Item) Key {
	pk, _ := getString(item, attrPK)
	sk, _ := getString(item, attrSK)
	return Key{PK: pk, SK: sk}
}

// startKey returns the ExclusiveStartKey for a cursor's key, nil at the start.
func startKey(k Key, ok bool) Item {
	if !ok {
		return nil
	}
	return k.item()
}
