package engine

import (
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// DynamoDB Streams. A table's stream is switched on by StreamSpecification
// (CreateTable, UpdateTable) and off by UpdateTable or DeleteTable; every
// item write to the table then appends a record to it in the write's own
// bbolt transaction (storage/streamlog.go), so a record exists exactly when its
// write committed. The Streams API (ListStreams, DescribeStream,
// GetShardIterator, GetRecords: streamapi.go) reads them over the same
// endpoint, as DynamoDB Local serves it. A stream outlives its switch-off
// and its table for StreamRetention, then is trimmed away (streamtrim.go).

// Stream statuses, as DescribeStream reports them. The engine's streams are
// enabled as soon as the table operation returns, like its tables.
const (
	streamEnabled  = "ENABLED"
	streamDisabled = "DISABLED"
)

// StreamRetention is how long DynamoDB keeps stream records (24 hours); the
// sweeper trims older ones, and drops streams switched off longer ago.
const StreamRetention = 24 * time.Hour

// DefaultStreamShardDuration is Options.StreamShardDuration's default
// (storage applies it).
const DefaultStreamShardDuration = storage.DefaultStreamShardDuration

// StreamSpecInput is a StreamSpecification in a request.
type StreamSpecInput struct {
	StreamEnabled  *bool  `json:"StreamEnabled"`
	StreamViewType string `json:"StreamViewType"`
}

// Check validates a StreamSpecification as DynamoDB does.
func (s *StreamSpecInput) Check() *Error {
	if s.StreamEnabled == nil {
		return Validationf("1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: Member must not be null")
	}
	if s.StreamViewType != "" && !validViewType(s.StreamViewType) {
		return Validationf("1 validation error detected: Value '%s' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]", s.StreamViewType)
	}
	switch {
	case *s.StreamEnabled && s.StreamViewType == "":
		return Validationf("Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.")
	case !*s.StreamEnabled && s.StreamViewType != "":
		return Validationf("Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present.")
	}
	return nil
}

// validViewType reports whether v is one of the four view types.
func validViewType(v string) bool {
	switch v {
	case storage.ViewKeysOnly, storage.ViewNewImage, storage.ViewOldImage, storage.ViewNewAndOldImages:
		return true
	}
	return false
}

// StreamRecordRegion returns the region record seq was written in: its run's,
// or engine (the engine's region) for a record no run holds. A stream has
// a run for each change of region in its format 3 records: usually one.
func StreamRecordRegion(s *storage.StreamMeta, seq uint64, engine string) string {
	for _, r := range s.Regions {
		if seq >= r.First && seq <= r.Last {
			return r.Region
		}
	}
	return engine
}

// lazyRegions answers the region of the records one GetRecords returns,
// reading the stream's meta, which only streams upgraded from format 3
// need, once and only when there is a record: an idle poll reads no meta.
type lazyRegions struct {
	engine string
	meta   *storage.StreamMeta
}

// of returns the region record seq of log was written in.
func (r *lazyRegions) of(log *storage.StreamLog, seq uint64) (string, error) {
	if r.meta == nil {
		m, err := storage.LoadStreamMeta(log.B)
		if err != nil {
			return "", err
		}
		r.meta = m
	}
	return StreamRecordRegion(r.meta, seq, r.engine), nil
}

// StreamStatus is the StreamStatus of the stream s.
func StreamStatus(s *storage.StreamMeta) string {
	if s.Disabled != 0 {
		return streamDisabled
	}
	return streamEnabled
}

// streamARN is the ARN of a table's stream with the given label.
func (e *Engine) streamARN(table, label string) string {
	return e.TableARN(table) + "/stream/" + label
}

// parseStreamARN returns the table and label a stream ARN of this engine
// names; ok is false for any other string.
func (e *Engine) parseStreamARN(arn string) (table, label string, ok bool) {
	prefix := e.TableARN("")
	rest, found := strings.CutPrefix(arn, prefix)
	if !found {
		return "", "", false
	}
	table, label, found = strings.Cut(rest, "/stream/")
	if !found || table == "" || label == "" {
		return "", "", false
	}
	return table, label, true
}

// streamLabelLayout is the form of a stream label: its creation time to
// the millisecond, as DynamoDB writes it.
const streamLabelLayout = "2006-01-02T15:04:05.000"

// enableStream creates a new stream for table m in tx, makes it the
// table's current stream and returns it. Its label is its creation time,
// moved on by a millisecond while a stream of the table already has it (a
// stream switched off and on within one millisecond).
func (e *Engine) enableStream(tx *bolt.Tx, m *storage.TableMeta, viewType string) error {
	if m.Stream != nil {
		return Validationf("Table already has an enabled stream")
	}
	root := tx.Bucket(storage.BucketStreams)
	now := e.Now().UTC().Truncate(time.Millisecond)
	label := now.Format(streamLabelLayout)
	for root.Bucket(storage.StreamBucketName(m.Name, label)) != nil {
		now = now.Add(time.Millisecond)
		label = now.Format(streamLabelLayout)
	}
	s := &storage.StreamMeta{
		Table:     m.Name,
		Label:     label,
		ViewType:  viewType,
		KeySchema: m.KeySchema,
		Created:   storage.UnixSeconds(now),
	}
	if err := storage.CreateStreamBuckets(root, s, e.Now()); err != nil {
		return err
	}
	m.Stream = &storage.TableStream{Label: label, ViewType: viewType}
	m.LatestStreamLabel = label
	return nil
}

// disableStream switches off table m's current stream in tx: its open
// shard is closed and the stream stays readable for StreamRetention.
func (e *Engine) disableStream(tx *bolt.Tx, m *storage.TableMeta) error {
	if m.Stream == nil {
		return Validationf("Table has no stream to disable")
	}
	sb := tx.Bucket(storage.BucketStreams).Bucket(storage.StreamBucketName(m.Name, m.Stream.Label))
	if sb == nil {
		return fmt.Errorf("ddb: stream %s of table %s has no bucket", m.Stream.Label, m.Name)
	}
	log, err := storage.OpenStreamLog(sb)
	if err != nil {
		return err
	}
	if err := log.CloseShard(); err != nil {
		return err
	}
	log.Meta.Disabled = storage.UnixSeconds(e.Now())
	if err := log.SaveMeta(); err != nil {
		return err
	}
	m.Stream = nil
	return nil
}

// applyStreamSpec switches table m's stream as spec asks, in tx.
func (e *Engine) applyStreamSpec(tx *bolt.Tx, m *storage.TableMeta, spec *StreamSpecInput) error {
	if *spec.StreamEnabled {
		return e.enableStream(tx, m, spec.StreamViewType)
	}
	return e.disableStream(tx, m)
}

// describeStreamSpec adds the stream fields of a TableDescription to d: the
// specification while a stream is on, and the latest stream's ARN and label
// for as long as the table has had one (also after it was switched off).
func (e *Engine) describeStreamSpec(d *TableDescription, m *storage.TableMeta) {
	if m.Stream != nil {
		d.StreamSpecification = &streamSpecDescription{StreamEnabled: true, StreamViewType: m.Stream.ViewType}
	}
	if m.LatestStreamLabel != "" {
		d.LatestStreamLabel = m.LatestStreamLabel
		d.LatestStreamArn = e.streamARN(m.Name, m.LatestStreamLabel)
	}
}
