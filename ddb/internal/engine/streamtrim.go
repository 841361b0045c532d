package engine

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// trimBatch bounds the records one trimming transaction deletes, so that
// writers wait for a trim no longer than for a TTL sweep.
const trimBatch = 1000

// TrimStreams deletes the stream records older than StreamRetention, the
// closed shards left without records, and the streams switched off more
// than StreamRetention ago, and returns how many records it deleted. The
// background sweeper calls it with the TTL sweep; tests may call it
// directly.
func (e *Engine) TrimStreams() (int, error) {
	var names [][]byte
	err := e.View(func(tx *bolt.Tx) error {
		return tx.Bucket(storage.BucketStreams).ForEach(func(k, _ []byte) error {
			names = append(names, append([]byte(nil), k...))
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	total := 0
	for _, name := range names {
		for {
			n, more, err := e.trimStream(name)
			total += n
			if err != nil {
				return total, err
			}
			if !more {
				break
			}
		}
	}
	return total, nil
}

// trimStream trims up to trimBatch records of the stream in bucket name;
// more reports that a full batch was deleted and more may be due.
func (e *Engine) trimStream(name []byte) (deleted int, more bool, err error) {
	cutoff := e.Now().Add(-StreamRetention)
	err = e.Update(func(tx *bolt.Tx) error {
		deleted, more = 0, false
		root := tx.Bucket(storage.BucketStreams)
		sb := root.Bucket(name)
		if sb == nil {
			return nil
		}
		log, err := storage.OpenStreamLog(sb)
		if err != nil {
			return err
		}
		if log.Meta.Disabled != 0 && log.Meta.Disabled < storage.UnixSeconds(cutoff) {
			// Every record predates the switch-off, so all are past retention.
			return root.DeleteBucket(name)
		}
		c := log.Records.Cursor()
		for k, v := c.First(); k != nil && deleted < trimBatch; k, v = c.First() {
			if len(v) < 8 {
				return fmt.Errorf("ddb: corrupt stream record %x", k)
			}
			if int64(binary.BigEndian.Uint64(v)) >= cutoff.UnixMilli() {
				break
			}
			if err := c.Delete(); err != nil {
				return err
			}
			deleted++
		}
		more = deleted == trimBatch
		return dropTrimmedShards(log)
	})
	return deleted, more, err
}

// dropTrimmedShards deletes the closed shards none of whose records is
// kept any more; the newest shard always stays.
func dropTrimmedShards(l *storage.StreamLog) error {
	kept := keptFrom(l)
	last, _ := l.Shards.Cursor().Last()
	var drop [][]byte
	err := l.Shards.ForEach(func(k, v []byte) error {
		if string(k) == string(last) {
			return nil
		}
		var s storage.ShardMeta
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("ddb: corrupt shard: %w", err)
		}
		if s.Closed && (s.End == 0 || s.End < kept) {
			drop = append(drop, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range drop {
		if err := l.Shards.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
