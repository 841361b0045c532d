package ddb

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// The upgrade to format 4. Formats 1 to 3 stored items, index entries and
// stream records as DynamoDB JSON (items as json.Marshal writes them, each
// index entry a full copy of the projected item under the index key and
// the whole table key, each record as GetRecords returns it): about twice
// the storage DynamoDB bills for the same items. Format 4 stores them in
// the compact forms of itemcodec.go and streamrecord.go.
//
// migrateToV4 converts every entry, holding the converted entries of one
// bucket in memory, then deletes the bucket and writes a new one in key
// order with full pages (FillPercent 1): a migrated file is as dense as it
// can be. Open runs it in its one transaction, so a crash leaves the old
// format, to be converted again.

// migrateToV4 converts the items, index entries and stream records of a
// file of format 1, 2 or 3 to format 4.
func migrateToV4(tx *bolt.Tx) error {
	if tables := tx.Bucket(bucketTables); tables != nil {
		err := tables.ForEach(func(name, _ []byte) error {
			m, err := loadTable(tx, string(name))
			if err != nil {
				return err
			}
			if err := migrateTableV4(tx, m); err != nil {
				return fmt.Errorf("table %s: %w", m.Name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	streams := tx.Bucket(bucketStreams)
	if streams == nil {
		return nil // formats 1 and 2 had no streams
	}
	var names [][]byte
	err := streams.ForEach(func(name, _ []byte) error {
		names = append(names, bytes.Clone(name))
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := migrateRecordsV4(streams.Bucket(name)); err != nil {
			return fmt.Errorf("stream %s: %w", name, err)
		}
	}
	return nil
}

// entry is one key and value to write.
type entry struct{ k, v []byte }

// migrateTableV4 rewrites a table's items and rebuilds its indexes.
func migrateTableV4(tx *bolt.Tx, m *tableMeta) error {
	tb := tx.Bucket(tableBucketName(m.Name))
	if tb == nil {
		return fmt.Errorf("ddb: table %s has no bucket", m.Name)
	}
	var items []entry
	indexes := make([][]entry, len(m.Indexes))
	err := tb.Bucket(bucketItems).ForEach(func(k, v []byte) error {
		it, err := attr.DecodeItem(v)
		if err != nil {
			return fmt.Errorf("ddb: corrupt item %x: %w", k, err)
		}
		items = append(items, entry{bytes.Clone(k), m.encodeStored(it, attr.Size(it))})
		for i := range m.Indexes {
			ix := &m.Indexes[i]
			if ik := m.indexKeyBytes(ix, it); ik != nil {
				proj := m.project(ix, it)
				indexes[i] = append(indexes[i], entry{ik, m.indexEntryValue(ix, proj, attr.Size(proj))})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := rewriteBucket(tb, bucketItems, items, 0); err != nil {
		return err
	}
	for i, ix := range m.Indexes {
		es := indexes[i]
		slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.k, b.k) })
		if err := rewriteBucket(tb, indexBucketName(ix.Name), es, 0); err != nil {
			return err
		}
	}
	return nil
}

// rewriteBucket replaces bucket name of parent by one holding entries
// (sorted by key), with sequence seq.
func rewriteBucket(parent *bolt.Bucket, name []byte, entries []entry, seq uint64) error {
	if err := parent.DeleteBucket(name); err != nil {
		return err
	}
	b, err := parent.CreateBucket(name)
	if err != nil {
		return err
	}
	// Written in key order: full pages rather than bbolt's half-full splits.
	b.FillPercent = 1
	for _, e := range entries {
		if err := b.Put(e.k, e.v); err != nil {
			return err
		}
	}
	return b.SetSequence(seq)
}

// jsonRecordV3 is a stream record as formats 3 stored it: as GetRecords
// returns it.
type jsonRecordV3 struct {
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

// migrateRecordsV4 rewrites a stream's records in their stored form. The
// region each record was written in is not kept: GetRecords gives the
// engine's (Options.Region).
func migrateRecordsV4(sb *bolt.Bucket) error {
	log, err := openStreamLog(sb)
	if err != nil {
		return err
	}
	var keyNames []string
	for _, k := range log.meta.KeySchema {
		keyNames = append(keyNames, k.AttributeName)
	}
	var records []entry
	err = log.records.ForEach(func(k, v []byte) error {
		if len(v) < 8 {
			return fmt.Errorf("%w %x", errBadRecord, k)
		}
		var old jsonRecordV3
		if err := json.Unmarshal(v[8:], &old); err != nil {
			return fmt.Errorf("%w %x: %w", errBadRecord, k, err)
		}
		id, err := hex.DecodeString(old.EventID)
		if err != nil || len(id) != 16 {
			return fmt.Errorf("%w %x: eventID %q", errBadRecord, k, old.EventID)
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
			return fmt.Errorf("%w %x: event %q, view type %q", errBadRecord, k, r.event, r.view)
		}
		records = append(records, entry{bytes.Clone(k), appendStreamRecord(bytes.Clone(v[:8]), &r)})
		return nil
	})
	if err != nil {
		return err
	}
	return rewriteBucket(sb, bucketRecords, records, log.records.Sequence())
}
