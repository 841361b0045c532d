package engine

import (
	"bytes"
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// QueryInput is the Query request.
type QueryInput struct {
	ListParams
	KeyConditionExpression *string `json:"KeyConditionExpression"`
	ScanIndexForward       *bool   `json:"ScanIndexForward"`
}

// checkFilterKeys refuses a Query filter on the queried key attributes.
func checkFilterKeys(ks []storage.KeySchemaElement, c *compiled) error {
	for _, k := range ks {
		for _, n := range c.filterNames {
			if n == k.AttributeName {
				return Validationf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", n)
			}
		}
	}
	return nil
}

// Query reads the items of one partition of the table or an index. It stops
// with ctx's error once ctx ends (see source.read).
func (e *Engine) Query(ctx context.Context, in *QueryInput) (*ListOutput, error) {
	if err := in.LegacyParams.translate(&in.ExprParams, exprSlots{projection: &in.ProjectionExpression, filter: &in.FilterExpression, keyCondition: &in.KeyConditionExpression}); err != nil {
		return nil, err
	}
	env := in.env()
	c, err := in.checkList("Query", env)
	if err != nil {
		return nil, err
	}
	if in.KeyConditionExpression == nil {
		return nil, Validationf("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	var out *ListOutput
	err = e.View(func(tx *bolt.Tx) error {
		s, err := e.openListSource(tx, &in.ListParams, c)
		if err != nil {
			return err
		}
		t := s.t
		ks := t.M.KeySchema
		if s.ix != nil {
			ks = s.ix.KeySchema
		}
		if err := checkFilterKeys(ks, c); err != nil {
			return err
		}
		kc, err := env.keyCondition(*in.KeyConditionExpression, t.M, ks)
		if err != nil {
			return err
		}
		if err := env.Check(); err != nil {
			return err
		}
		lo, hi, err := keyRange(kc)
		if err != nil {
			return err
		}
		start, err := s.startKey(in.ExclusiveStartKey)
		if err != nil {
			return err
		}
		if start != nil && (bytes.Compare(start, lo) < 0 || hi != nil && bytes.Compare(start, hi) >= 0) {
			return Validationf("The provided starting key does not match the range key predicate")
		}
		forward := in.ScanIndexForward == nil || *in.ScanIndexForward
		pg, err := s.Read(ctx, pageSpec{lo: lo, hi: hi, forward: forward, start: start, limit: in.limit(), rawOnly: s.rawOnly(&in.ListParams, c)})
		if err != nil {
			return err
		}
		out, err = s.respond(&in.ListParams, c, pg)
		return err
	})
	return out, err
}

// keyRange turns a bound key condition into the byte range of entries it
// selects: entries of one partition share the prefix of its encoded
// partition key and are ordered by sort key.
func keyRange(kc *expr.KeyRange) (lo, hi []byte, err error) {
	prefix := attr.AppendKey(nil, kc.Partition)
	sc := kc.Sort
	if sc == nil {
		return prefix, storage.PrefixEnd(prefix), nil
	}
	at := func(v attr.Value) []byte { return attr.AppendKey(append([]byte(nil), prefix...), v) }
	switch sc.Op {
	case expr.SortEQ:
		k := at(sc.Value)
		return k, storage.PrefixEnd(k), nil
	case expr.SortLT:
		return prefix, at(sc.Value), nil
	case expr.SortLE:
		return prefix, storage.PrefixEnd(at(sc.Value)), nil
	case expr.SortGT:
		return storage.PrefixEnd(at(sc.Value)), storage.PrefixEnd(prefix), nil
	case expr.SortGE:
		return at(sc.Value), storage.PrefixEnd(prefix), nil
	case expr.SortBetween:
		if attr.Compare(sc.Value, sc.Hi) > 0 {
			return nil, nil, Validationf("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s", valueText(sc.Value), valueText(sc.Hi))
		}
		return at(sc.Value), storage.PrefixEnd(at(sc.Hi)), nil
	case expr.SortBeginsWith:
		k := at(sc.Value)
		k = k[:len(k)-2] // drop the S/B terminator: a prefix of every extension
		return k, storage.PrefixEnd(k), nil
	}
	return nil, nil, Validationf("Invalid KeyConditionExpression: unsupported sort key condition")
}

// valueText renders a value as DynamoDB's messages do: {S:x}.
func valueText(v attr.Value) string {
	switch v.Type {
	case attr.TypeS:
		return "{S:" + v.S + ",}"
	case attr.TypeN:
		return "{N:" + v.NumText() + ",}"
	}
	return "{" + v.Type.String() + ":…}"
}
