package storage

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// The entries of format 4 made from those of formats 1 to 3. Formats 1 to
// 3 stored items, index entries and stream records as DynamoDB JSON (items
// as json.Marshal writes them, each index entry a full copy of the
// projected item under the index key and the whole table key, each record
// as GetRecords returns it): about twice the storage DynamoDB bills for the
// same items. Format 4 stores them in the compact forms of itemcodec.go and
// streamrecord.go.
//
// Open upgrades an old file by copying it, entry by entry in key order,
// into a new file (upgrade.go); the functions here convert one entry each.
// Each keeps the order of the keys it is given, which lets the copy fill
// the new file's pages completely.

// itemV4 converts the format 3 item stored as v (JSON) to its stored form,
// and returns the item too (a format 1 upgrade indexes its TTL).
func itemV4(m *TableMeta, v []byte) (attr.Item, []byte, error) {
	it, err := attr.DecodeItem(v)
	if err != nil {
		return nil, nil, err
	}
	return it, m.encodeStored(it, attr.Size(it)), nil
}

// indexV4 converts the entries of one index. A format 3 entry key is the
// index key followed by the whole table key; format 4 drops the table key
// attributes the index key already holds (indexKeyParts). Keys are
// concatenated AppendKey encodings, which compare attribute by attribute,
// and a dropped attribute equals one earlier in the same key, so two keys
// compare the same before and after: entries converted in key order come
// out in key order.
type indexV4 struct {
	m  *TableMeta
	ix *IndexMeta
	// parts are the attributes of a format 3 key, in order: the index
	// key's, then the table key's; keep tells which the format 4 key still
	// holds.
	parts []KeyPart
	keep  []bool
}

// newIndexV4 returns the converter of index ix of table m.
func newIndexV4(m *TableMeta, ix *IndexMeta) *indexV4 {
	c := &indexV4{m: m, ix: ix}
	names := ix.KeyNamesList()
	for _, n := range names {
		c.parts = append(c.parts, KeyPart{n, attr.ParseType(m.AttrType(n))})
		c.keep = append(c.keep, true)
	}
	for _, p := range m.TableKeyParts() {
		c.parts = append(c.parts, p)
		c.keep = append(c.keep, !slices.Contains(names, p.name))
	}
	return c
}

// convert returns the format 4 key and value of the format 3 index entry
// k, v. Only INCLUDE projections need the value (the projected attributes
// other than keys); for ALL and KEYS_ONLY the key is cut out of the old
// key, without decoding the item copy the old value holds.
func (c *indexV4) convert(k, v []byte) (nk, nv []byte, err error) {
	nk = make([]byte, 0, len(k))
	rest := k
	for i, p := range c.parts {
		n, err := attr.KeyLen(rest, p.typ)
		if err != nil {
			return nil, nil, fmt.Errorf("ddb: corrupt index key %x: %w", k, err)
		}
		if c.keep[i] {
			nk = append(nk, rest[:n]...)
		}
		rest = rest[n:]
	}
	if len(rest) != 0 {
		return nil, nil, fmt.Errorf("ddb: corrupt index key %x: trailing bytes", k)
	}
	if c.ix.Projection.ProjectionType == ProjectionInclude {
		proj, err := attr.DecodeItem(v)
		if err != nil {
			return nil, nil, fmt.Errorf("ddb: corrupt index entry %x: %w", k, err)
		}
		nv = c.m.IndexEntryValue(c.ix, proj, attr.Size(proj))
	}
	return nk, nv, nil
}

// jsonRecordV3 is a stream record as format 3 stored it: as GetRecords
// returns it.
type jsonRecordV3 struct {
	AwsRegion string `json:"awsRegion"`
	EventID   string `json:"eventID"`
	EventName string `json:"eventName"`
	Dynamodb  struct {
		Keys           attr.Item `json:"Keys"`
		NewImage       attr.Item `json:"NewImage"`
		OldImage       attr.Item `json:"OldImage"`
		SizeBytes      int       `json:"SizeBytes"`
		StreamViewType string    `json:"StreamViewType"`
	} `json:"dynamodb"`
	UserIdentity *struct{} `json:"userIdentity"`
}

// recordV4 converts the format 3 record stored as v (the write's time,
// then the JSON) under key k of a stream whose table keys are keyNames, and
// returns the region it was written in, which format 4 keeps per stream
// rather than per record (recordRegions).
func recordV4(k, v []byte, keyNames []string) (nv []byte, region string, err error) {
	if len(v) < 8 {
		return nil, "", fmt.Errorf("%w %x", ErrBadRecord, k)
	}
	var old jsonRecordV3
	if err := json.Unmarshal(v[8:], &old); err != nil {
		return nil, "", fmt.Errorf("%w %x: %w", ErrBadRecord, k, err)
	}
	id, err := hex.DecodeString(old.EventID)
	if err != nil || len(id) != 16 {
		return nil, "", fmt.Errorf("%w %x: eventID %q", ErrBadRecord, k, old.EventID)
	}
	d := &old.Dynamodb
	r := streamRecord{event: old.EventName, view: d.StreamViewType, byService: old.UserIdentity != nil, keys: d.Keys, size: d.SizeBytes, id: id}
	if d.NewImage != nil {
		r.newImage = attr.AppendBinary(nil, d.NewImage, attr.Size(d.NewImage), keyNames...)
	}
	if d.OldImage != nil {
		r.oldImage = attr.AppendBinary(nil, d.OldImage, attr.Size(d.OldImage), keyNames...)
	}
	if slices.Index(recordEvents[:], r.event) < 1 || !slices.Contains(recordViews[:], r.view) {
		return nil, "", fmt.Errorf("%w %x: event %q, view type %q", ErrBadRecord, k, r.event, r.view)
	}
	nv = make([]byte, 8, len(v)/2)
	copy(nv, v[:8])
	return appendStreamRecord(nv, &r), old.AwsRegion, nil
}

// recordRegions collects the regions of a stream's records, converted in
// sequence order, as the runs streamMeta.Regions keeps: one run for a
// stream whose records were all written in one region, whatever their
// number.
type recordRegions struct {
	runs []recordRegion
	prev uint64 // the sequence number of the record before
}

// Add notes that record seq was written in region ("" when unknown: the
// record then reads as written in the engine's region, as a format 4
// record does).
func (r *recordRegions) Add(seq uint64, region string) {
	n := len(r.runs)
	switch {
	case region == "":
	case n > 0 && r.runs[n-1].Region == region && r.runs[n-1].Last == r.prev:
		r.runs[n-1].Last = seq
	default:
		r.runs = append(r.runs, recordRegion{First: seq, Last: seq, Region: region})
	}
	r.prev = seq
}
