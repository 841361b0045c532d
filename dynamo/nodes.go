package dynamo

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
)

// GetNodes returns the entities with these keys that exist, whatever their types: one
// BatchGetItem per 100 distinct keys (a GetItem for one key alone), so profiles, photos,
// reactions and friendships asked together cost one request (DynamoDB batches any keys of a
// table). fields, when not nil and
// every key is a profile's, are the only optional profile fields read, as in GetUsers; a batch
// that mixes types reads whole items, since a projection applies to every key of a table.
func (s *Store) GetNodes(ctx context.Context, keys []domain.NodeKey, fields []domain.ProfileField) (map[domain.NodeKey]domain.Node, error) {
	wanted := make(map[Key]domain.NodeKey, len(keys))
	ks := make([]Key, len(keys))
	profilesOnly := true
	for i, k := range keys {
		ks[i] = NodeKey(k)
		wanted[ks[i]] = k
		if _, ok := k.(domain.UserKey); !ok {
			profilesOnly = false
		}
	}
	var attributes []string
	if profilesOnly {
		if attributes = userAttributes(fields); attributes != nil {
			attributes = append([]string{attrPK, attrSK, attrUsername}, attributes...)
		}
	}
	items, err := s.batchGet(ctx, ks, attributes)
	if err != nil {
		return nil, err
	}
	nodes := make(map[domain.NodeKey]domain.Node, len(items))
	for _, item := range items {
		pk, _ := getString(item, attrPK)
		sk, _ := getString(item, attrSK)
		k, ok := wanted[Key{PK: pk, SK: sk}]
		if !ok {
			return nil, domain.Errorf(domain.Internal, "reading entities: an item %q/%q that was not asked for", pk, sk)
		}
		n, err := nodeFromItem(k, item)
		if err != nil {
			return nil, domain.Wrap(domain.Internal, err, "reading entities")
		}
		nodes[k] = n
	}
	return nodes, nil
}

// nodeFromItem reads the item of the entity k identifies.
func nodeFromItem(k domain.NodeKey, item Item) (domain.Node, error) {
	switch k.(type) {
	case domain.UserKey:
		u, err := userFromItem(item)
		return &u, err
	case domain.PhotoKey:
		p, err := photoFromItem(item)
		return &p, err
	case domain.ReactionKey:
		r, err := reactionFromItem(item)
		return &r, err
	default:
		f, err := friendshipFromItem(item)
		return &f, err
	}
}

// GetNode reads the entity k identifies, strongly consistent (one GetItem): for an answer that
// must see a write just committed. nil when it does not exist.
func (s *Store) GetNode(ctx context.Context, k domain.NodeKey) (domain.Node, error) {
	item, err := s.getItem(ctx, NodeKey(k))
	if err != nil || item == nil {
		return nil, err
	}
	n, err := nodeFromItem(k, item)
	if err != nil {
		return nil, domain.Wrap(domain.Internal, err, "reading an entity")
	}
	return n, nil
}
