package engine

import (
	"context"
	"hash/fnv"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// ScanInput is the Scan request.
type ScanInput struct {
	ListParams
	Segment       *int `json:"Segment"`
	TotalSegments *int `json:"TotalSegments"`
}

// maxSegments is DynamoDB's limit on TotalSegments.
const maxSegments = 1000000

// Scan reads every item of the table or an index, in key order (by
// partition key, unlike DynamoDB's hash order), optionally one segment of a
// parallel scan. An item belongs to segment hash(partition key) mod
// TotalSegments, so a partition is never split between segments. It stops
// with ctx's error once ctx ends (see source.read).
func (e *Engine) Scan(ctx context.Context, in *ScanInput) (*ListOutput, error) {
	if err := in.LegacyParams.translate(&in.ExprParams, exprSlots{projection: &in.ProjectionExpression, filter: &in.FilterExpression}); err != nil {
		return nil, err
	}
	env := in.env()
	c, err := in.checkList("Scan", env)
	if err != nil {
		return nil, err
	}
	if err := env.Check(); err != nil {
		return nil, err
	}
	keep, err := in.segmentFilter()
	if err != nil {
		return nil, err
	}
	var out *ListOutput
	err = e.View(func(tx *bolt.Tx) error {
		s, err := e.openListSource(tx, &in.ListParams, c)
		if err != nil {
			return err
		}
		start, err := s.startKey(in.ExclusiveStartKey)
		if err != nil {
			return err
		}
		spec := pageSpec{forward: true, start: start, limit: in.limit(), rawOnly: s.rawOnly(&in.ListParams, c)}
		if keep != nil {
			partitionOf := s.partitionOf()
			spec.keep = func(k []byte) bool { return keep(partitionOf(k)) }
		}
		pg, err := s.Read(ctx, spec)
		if err != nil {
			return err
		}
		out, err = s.respond(&in.ListParams, c, pg)
		return err
	})
	return out, err
}

// segmentFilter validates Segment and TotalSegments and returns the test
// of a partition-key encoding for the requested segment (nil: no segments).
func (in *ScanInput) segmentFilter() (func(pk []byte) bool, error) {
	switch {
	case in.Segment == nil && in.TotalSegments == nil:
		return nil, nil
	case in.TotalSegments == nil:
		return nil, Validationf("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	case in.Segment == nil:
		return nil, Validationf("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
	}
	total, seg := *in.TotalSegments, *in.Segment
	if total < 1 || total > maxSegments {
		return nil, Validationf("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to %d and greater than or equal to 1", total, maxSegments)
	}
	if seg < 0 || seg >= total {
		return nil, Validationf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", seg, total)
	}
	return func(pk []byte) bool {
		h := fnv.New32a()
		h.Write(pk)
		return int(h.Sum32()%uint32(total)) == seg
	}, nil
}

// partitionOf returns the function that cuts the encoded partition key off
// the start of an entry key of this source: the table's partition key, or
// the index's. The key type is looked up once, not per entry.
func (s *source) partitionOf() func(k []byte) []byte {
	name := storage.HashKey(s.t.M.KeySchema)
	if s.ix != nil {
		name = storage.HashKey(s.ix.KeySchema)
	}
	typ := attr.ParseType(s.t.M.AttrType(name))
	return func(k []byte) []byte {
		_, rest, err := attr.DecodeKey(k, typ)
		if err != nil {
			return k
		}
		return k[:len(k)-len(rest)]
	}
}
