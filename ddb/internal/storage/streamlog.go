package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// A stream's storage. The top-level "streams" bucket holds one bucket per
// stream, named "<table>/<label>" (a table name has no '/'), holding:
//
//	"meta"     JSON streamMeta
//	"shards"   8-byte index -> JSON shardMeta, oldest first; the last is
//	           the open one unless the stream is switched off
//	"open"     the open shard's first record and creation time (8 bytes
//	           each), absent once the stream is switched off: what a write
//	           needs, without decoding JSON
//	"records"  8-byte sequence number -> 8-byte Unix milliseconds of the
//	           write, then the record in its stored form (streamrecord.go)
//
// The records bucket's own sequence (bbolt NextSequence) numbers the
// records, so a number is taken in the write's transaction and given back
// if it rolls back. Numbers only grow; a shard holds those from its Start
// to its End.

var (
	BucketStreams = []byte("streams")
	keyStreamMeta = []byte("meta")
	KeyOpenShard  = []byte("open")
	bucketShards  = []byte("shards")
	BucketRecords = []byte("records")
)

// StreamBucketName is the name of a stream's bucket inside "streams".
func StreamBucketName(table, label string) []byte { return []byte(table + "/" + label) }

// ShardMeta is one shard of a stream: the records numbered Start to End.
type ShardMeta struct {
	ID     string `json:"ShardId"`
	Parent string `json:"Parent,omitempty"`
	Start  uint64 `json:"Start"`
	// End is the last record of a closed shard; zero while the shard is
	// open, or when it closed before holding any record.
	End     uint64  `json:"End,omitempty"`
	Closed  bool    `json:"Closed,omitempty"`
	Created float64 `json:"Created"` // Unix seconds
}

// Holds reports whether record seq belongs to shard s (as far as it is
// written: an open shard holds every number from its start).
func (s *ShardMeta) Holds(seq uint64) bool {
	return seq >= s.Start && (!s.Closed || seq <= s.End)
}

// StreamLog is one stream's buckets in a transaction. meta is loaded only
// by the operations that need it (openStreamLog: switching a stream off,
// trimming), not by writes, nor by the Streams API's reads: DescribeStream
// reads it (loadStreamMeta), and GetRecords only when it returns records
// (lazyRegions), for the regions of records upgraded from format 3.
type StreamLog struct {
	B       *bolt.Bucket
	Meta    *StreamMeta
	Shards  *bolt.Bucket
	Records *bolt.Bucket
}

// StreamBuckets returns the buckets of the stream stored in sb.
func StreamBuckets(sb *bolt.Bucket) (*StreamLog, error) {
	log := &StreamLog{B: sb, Shards: sb.Bucket(bucketShards), Records: sb.Bucket(BucketRecords)}
	if log.Shards == nil || log.Records == nil {
		return nil, errors.New("ddb: a stream's bucket lacks its shards or records")
	}
	// Records are only ever appended: full pages, not bbolt's half-full
	// splits, halve the pages a commit writes for them.
	log.Records.FillPercent = 1
	return log, nil
}

// CreateStreamBuckets creates the buckets of new stream s, with its first
// shard, in root.
func CreateStreamBuckets(root *bolt.Bucket, s *StreamMeta, now time.Time) error {
	sb, err := root.CreateBucket(StreamBucketName(s.Table, s.Label))
	if err != nil {
		return err
	}
	log := &StreamLog{B: sb, Meta: s}
	if log.Shards, err = sb.CreateBucket(bucketShards); err != nil {
		return err
	}
	if log.Records, err = sb.CreateBucket(BucketRecords); err != nil {
		return err
	}
	if err := log.SaveMeta(); err != nil {
		return err
	}
	return log.openShard("", now)
}

// OpenStreamLog returns the stream stored in bucket sb, with its meta.
func OpenStreamLog(sb *bolt.Bucket) (*StreamLog, error) {
	log, err := StreamBuckets(sb)
	if err != nil {
		return nil, err
	}
	if log.Meta, err = LoadStreamMeta(sb); err != nil {
		return nil, err
	}
	return log, nil
}

// SaveMeta stores the stream's meta.
func (l *StreamLog) SaveMeta() error {
	raw, err := json.Marshal(l.Meta)
	if err != nil {
		return err
	}
	return l.B.Put(keyStreamMeta, raw)
}

// lastShard returns the newest shard and its key.
func (l *StreamLog) lastShard() (*ShardMeta, []byte, error) {
	k, v := l.Shards.Cursor().Last()
	if k == nil {
		return nil, nil, fmt.Errorf("ddb: stream %s/%s has no shard", l.Meta.Table, l.Meta.Label)
	}
	var s ShardMeta
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, nil, fmt.Errorf("ddb: corrupt shard: %w", err)
	}
	return &s, k, nil
}

// AllShards returns every shard, oldest first.
func (l *StreamLog) AllShards() ([]ShardMeta, error) {
	var out []ShardMeta
	err := l.Shards.ForEach(func(_, v []byte) error {
		var s ShardMeta
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("ddb: corrupt shard: %w", err)
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// Shard returns the shard named id, or nil. It looks from the newest, as
// readers mostly read the open shard, and decodes only the shards whose
// JSON holds id: every GetRecords looks its shard up.
func (l *StreamLog) Shard(id string) (*ShardMeta, error) {
	c := l.Shards.Cursor()
	idBytes := []byte(id)
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		if !bytes.Contains(v, idBytes) {
			continue
		}
		var s ShardMeta
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("ddb: corrupt shard: %w", err)
		}
		if s.ID == id {
			return &s, nil
		}
	}
	return nil, nil
}

// openShard appends a new open shard, child of parent, whose first record
// will be the next one written.
func (l *StreamLog) openShard(parent string, now time.Time) error {
	var random [4]byte
	_, _ = rand.Read(random[:])
	s := ShardMeta{
		ID:      fmt.Sprintf("shardId-%020d-%s", now.UnixMilli(), hex.EncodeToString(random[:])),
		Parent:  parent,
		Start:   l.Records.Sequence() + 1,
		Created: UnixSeconds(now),
	}
	n, err := l.Shards.NextSequence()
	if err != nil {
		return err
	}
	if err := l.putShard(SeqKey(n), &s); err != nil {
		return err
	}
	open := binary.BigEndian.AppendUint64(nil, s.Start)
	return l.B.Put(KeyOpenShard, binary.BigEndian.AppendUint64(open, uint64(now.UnixMilli())))
}

// putShard stores shard s under key k.
func (l *StreamLog) putShard(k []byte, s *ShardMeta) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return l.Shards.Put(k, raw)
}

// CloseShard closes the open shard, if any, after the last record written.
func (l *StreamLog) CloseShard() error {
	s, k, err := l.lastShard()
	if err != nil || s.Closed {
		return err
	}
	s.Closed = true
	if last := l.Records.Sequence(); last >= s.Start {
		s.End = last
	}
	if err := l.B.Delete(KeyOpenShard); err != nil {
		return err
	}
	return l.putShard(k, s)
}

// append writes the next record: record appends its stored form
// (streamrecord.go) given its sequence number. A shard open for shardAge or longer is first closed and followed
// by its child, as DynamoDB rolls its shards over.
func (l *StreamLog) append(now time.Time, shardAge time.Duration, record func(dst []byte, seq uint64) []byte) error {
	open := l.B.Get(KeyOpenShard)
	if len(open) != 16 {
		return errors.New("ddb: a stream without an open shard is written")
	}
	start, created := binary.BigEndian.Uint64(open), int64(binary.BigEndian.Uint64(open[8:]))
	if l.Records.Sequence() >= start && now.Sub(time.UnixMilli(created)) >= shardAge {
		s, _, err := l.lastShard()
		if err != nil {
			return err
		}
		if err := l.CloseShard(); err != nil {
			return err
		}
		if err := l.openShard(s.ID, now); err != nil {
			return err
		}
	}
	seq, err := l.Records.NextSequence()
	if err != nil {
		return err
	}
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 1024), uint64(now.UnixMilli()))
	return l.Records.Put(SeqKey(seq), record(v, seq))
}

// SeqKey is the 8-byte big-endian key of sequence number n.
func SeqKey(n uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, n)
}

// FormatSequenceNumber renders a sequence number as DynamoDB Streams does:
// a decimal string, here of fixed width (21 digits, as DynamoDB Local's) so
// that its string order is its numeric order.
func FormatSequenceNumber(n uint64) string { return string(AppendSequenceNumber(nil, n)) }

// AppendSequenceNumber appends formatSequenceNumber(n).
func AppendSequenceNumber(dst []byte, n uint64) []byte {
	var digits [21]byte
	for i := len(digits) - 1; i >= 0; i-- {
		digits[i] = byte('0' + n%10)
		n /= 10
	}
	return append(dst, digits[:]...)
}

// itemChange is one item write as the stream records it: the item before
// (old, nil when there was none) and after (new, nil when deleted), the
// stored encoding of new, and both sizes (attr.Size), which the write
// computed already.
type itemChange struct {
	old, new         attr.Item
	newRaw           []byte
	oldSize, newSize int
}

// recordChange appends to the table's stream, if it has one, the record of
// change c. A write that changes nothing leaves no record, as in DynamoDB.
// It runs in the write's transaction, so the record commits with the write
// or not at all.
func (t *TableTx) recordChange(c itemChange) error {
	spec := t.M.Stream
	if spec == nil {
		return nil
	}
	withNew := c.new != nil && (spec.ViewType == ViewNewImage || spec.ViewType == ViewNewAndOldImages)
	withOld := c.old != nil && (spec.ViewType == ViewOldImage || spec.ViewType == ViewNewAndOldImages)
	var oldRaw []byte
	// Encoding the old item is needed only for its image, or to tell an
	// overwrite with the same content, which must have the same size.
	if withOld || c.old != nil && c.new != nil && c.oldSize == c.newSize {
		oldRaw = t.M.encodeStored(c.old, c.oldSize)
		if c.new != nil && bytes.Equal(oldRaw, c.newRaw) {
			return nil
		}
	}
	log, err := t.streamLog()
	if err != nil {
		return err
	}
	keySource, event := c.new, "MODIFY"
	switch {
	case c.old == nil:
		event = "INSERT"
	case c.new == nil:
		keySource, event = c.old, "REMOVE"
	}
	keys := make(attr.Item, 2)
	for _, name := range t.M.KeyNames() {
		keys[name] = keySource[name]
	}
	r := streamRecord{event: event, view: spec.ViewType, byService: t.ByService, keys: keys, size: attr.Size(keys)}
	if withNew {
		r.newImage = c.newRaw
		r.size += c.newSize
	}
	if withOld {
		r.oldImage = oldRaw
		r.size += c.oldSize
	}
	return log.append(t.s.Now(), t.s.opts.StreamShardDuration, func(dst []byte, _ uint64) []byte {
		return appendStreamRecord(dst, &r)
	})
}

// streamLog returns the table's current stream in this transaction,
// opening it once per transaction.
func (t *TableTx) streamLog() (*StreamLog, error) {
	if t.stream != nil {
		return t.stream, nil
	}
	sb := t.tx.Bucket(BucketStreams).Bucket(StreamBucketName(t.M.Name, t.M.Stream.Label))
	if sb == nil {
		return nil, fmt.Errorf("ddb: stream %s of table %s has no bucket", t.M.Stream.Label, t.M.Name)
	}
	log, err := StreamBuckets(sb)
	if err != nil {
		return nil, err
	}
	t.stream = log
	return log, nil
}
