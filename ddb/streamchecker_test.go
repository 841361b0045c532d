package ddb

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// checkStream verifies one stream (checkInvariants):
//
//   - its shards follow each other: each starts after the one before ends,
//     only the last may be open, and it is closed when the stream is off;
//   - its records are numbered within the sequence, each in a shard, with
//     its own number in its body;
//   - the table it belongs to, while it is on, names it; and replaying its
//     records per key agrees with the table: a key whose last record is a
//     REMOVE has no item, any other recorded key has one, equal to the
//     record's NewImage where the view has it.
func checkStream(e *Engine, tx *bolt.Tx, name []byte) error {
	log, err := storage.OpenStreamLog(tx.Bucket(storage.BucketStreams).Bucket(name))
	if err != nil {
		return err
	}
	if string(name) != string(storage.StreamBucketName(log.Meta.Table, log.Meta.Label)) {
		return fmt.Errorf("meta names %s/%s", log.Meta.Table, log.Meta.Label)
	}
	shards, err := log.AllShards()
	if err != nil {
		return err
	}
	if len(shards) == 0 {
		return fmt.Errorf("no shard")
	}
	last := log.Records.Sequence()
	open := log.B.Get(storage.KeyOpenShard)
	if lastShard := shards[len(shards)-1]; lastShard.Closed != (open == nil) ||
		open != nil && (len(open) != 16 || binary.BigEndian.Uint64(open) != lastShard.Start) {
		return fmt.Errorf("open shard record %x, last shard %+v", open, lastShard)
	}
	for i, s := range shards {
		if s.Closed != (i < len(shards)-1 || log.Meta.Disabled != 0) {
			return fmt.Errorf("shard %s: closed %v, at %d of %d, stream %s", s.ID, s.Closed, i, len(shards), engine.StreamStatus(log.Meta))
		}
		if s.Closed && s.End != 0 && (s.End < s.Start || s.End > last) {
			return fmt.Errorf("shard %s: ends at %d, starts at %d, last record %d", s.ID, s.End, s.Start, last)
		}
		if i > 0 && (s.Parent != shards[i-1].ID || s.Start != shards[i-1].End+1) {
			return fmt.Errorf("shard %s: parent %q starting at %d follows %s ending at %d", s.ID, s.Parent, s.Start, shards[i-1].ID, shards[i-1].End)
		}
	}

	type change struct {
		event    string
		newImage json.RawMessage
	}
	latest := map[string]change{} // encoded key -> last change
	err = log.Records.ForEach(func(k, v []byte) error {
		seq := storage.BytesToSeq(k)
		if seq == 0 || seq > last {
			return fmt.Errorf("record %d outside the sequence (last %d)", seq, last)
		}
		inShard := false
		for _, s := range shards {
			inShard = inShard || s.Holds(seq)
		}
		if !inShard && seq >= shards[0].Start {
			return fmt.Errorf("record %d in no shard", seq)
		}
		var rec struct {
			EventName string `json:"eventName"`
			Dynamodb  struct {
				Keys           json.RawMessage `json:"Keys"`
				NewImage       json.RawMessage `json:"NewImage"`
				SequenceNumber string          `json:"SequenceNumber"`
			} `json:"dynamodb"`
		}
		rendered, err := appendRecordJSON(nil, seq, v, engine.StreamRecordRegion(log.Meta, seq, e.core.Opts.Region))
		if err != nil {
			return fmt.Errorf("record %d: %w", seq, err)
		}
		if err := json.Unmarshal(rendered, &rec); err != nil {
			return fmt.Errorf("record %d: %w", seq, err)
		}
		if rec.Dynamodb.SequenceNumber != storage.FormatSequenceNumber(seq) {
			return fmt.Errorf("record %d says it is %s", seq, rec.Dynamodb.SequenceNumber)
		}
		latest[string(rec.Dynamodb.Keys)] = change{rec.EventName, rec.Dynamodb.NewImage}
		return nil
	})
	if err != nil {
		return err
	}

	m, err := storage.LoadTable(tx, log.Meta.Table)
	if err != nil {
		return err
	}
	current := m != nil && m.Stream != nil && m.Stream.Label == log.Meta.Label
	if (log.Meta.Disabled == 0) != current {
		return fmt.Errorf("status %s, but the table's current stream is %v", engine.StreamStatus(log.Meta), m)
	}
	if !current {
		return nil
	}
	t, err := e.core.OpenTable(tx, m.Name)
	if err != nil {
		return err
	}
	for keys, c := range latest {
		key, err := attr.DecodeItem([]byte(keys))
		if err != nil {
			return err
		}
		tk := m.TableKeyBytes(key)
		var raw []byte
		if v := t.Items.Get(tk); v != nil {
			stored, _, err := m.Stored(tk, v)
			if err != nil {
				return err
			}
			if raw, err = engine.StoredItemAppendJSON(stored, nil); err != nil {
				return err
			}
		}
		switch {
		case c.event == "REMOVE" && raw != nil:
			return fmt.Errorf("key %s: last record REMOVE, but the item is there", keys)
		case c.event != "REMOVE" && raw == nil:
			return fmt.Errorf("key %s: last record %s, but there is no item", keys, c.event)
		case c.newImage != nil && raw != nil && !bytes.Equal(c.newImage, raw):
			return fmt.Errorf("key %s: last NewImage %s, item %s", keys, c.newImage, raw)
		}
	}
	return nil
}

// appendRecordJSON appends the record stored as v (time included) under
// sequence number seq, written in region, as GetRecords returns it.
func appendRecordJSON(dst []byte, seq uint64, v []byte, region string) ([]byte, error) {
	r, err := storage.ParseStoredRecord(seq, v, region)
	if err != nil {
		return nil, err
	}
	return engine.StoredRecordAppendJSON(r, dst)
}
