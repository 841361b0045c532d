package storage

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// The stored form of a stream record (format 4). A record's value in the
// records bucket is the write's time (8 bytes, Unix milliseconds, which the
// trimmer reads) and then
//
//	flags eventID(16 bytes) uvarint(SizeBytes) keys [new image] [old image]
//
// flags holds the event (bits 0–1: INSERT, MODIFY, REMOVE), the stream view
// type (bits 2–3, index in recordViews), whether the new and old images
// follow (bits 4 and 5) and whether the service made the write (bit 6, TTL
// deletions). keys is uvarint(length) and the key attributes in attr's
// binary codec; each image is uvarint(length) and the item as the items
// bucket stores it, without its key attributes, which keys holds.
// GetRecords reads records in this form (storedRecord) and each path
// renders them from it, as JSON or as the SDK's types: in storage, a third
// of the bytes the JSON would take. The record holds no awsRegion: records
// are written in the engine's region (Options.Region), and those upgraded
// from format 3 in the regions their stream's meta keeps
// (streamMeta.Regions), which costs a record nothing.

// recordEvents and recordViews are the values the flags index.
var (
	recordEvents = [...]string{1: "INSERT", 2: "MODIFY", 3: "REMOVE"}
	recordViews  = [...]string{ViewKeysOnly, ViewNewImage, ViewOldImage, ViewNewAndOldImages}
)

// Fields every record has the same, which both renderings write.
const (
	RecordEventSource  = "aws:dynamodb"
	RecordEventVersion = "1.1"
	// The userIdentity of a record of the service's own write (a TTL
	// deletion).
	ServicePrincipal    = "dynamodb.amazonaws.com"
	ServiceIdentityType = "Service"
)

// Flag bits of a stored record.
const (
	recordNewImage  = 1 << 4
	recordOldImage  = 1 << 5
	recordByService = 1 << 6
)

// ErrBadRecord is a stored stream record that is not in the format above.
var ErrBadRecord = errors.New("ddb: corrupt stream record")

// streamRecord is one record to store.
type streamRecord struct {
	event     string // INSERT, MODIFY or REMOVE
	view      string // the stream's view type
	byService bool
	keys      attr.Item
	size      int    // SizeBytes
	id        []byte // the eventID (16 bytes); nil for a new random one
	newImage  []byte // stored forms of the images it carries, nil if none
	oldImage  []byte
}

// appendStreamRecord appends the stored form of r (after the time).
func appendStreamRecord(dst []byte, r *streamRecord) []byte {
	flags := byte(slices.Index(recordEvents[:], r.event)) | byte(slices.Index(recordViews[:], r.view))<<2
	if r.newImage != nil {
		flags |= recordNewImage
	}
	if r.oldImage != nil {
		flags |= recordOldImage
	}
	if r.byService {
		flags |= recordByService
	}
	dst = append(dst, flags)
	if r.id != nil {
		dst = append(dst, r.id...)
	} else {
		var id [16]byte
		_, _ = rand.Read(id[:])
		dst = append(dst, id[:]...)
	}
	dst = binary.AppendUvarint(dst, uint64(r.size))
	keys := attr.AppendBinary(nil, r.keys, attr.Size(r.keys))
	dst = appendLengthPrefixed(dst, keys)
	if r.newImage != nil {
		dst = appendLengthPrefixed(dst, r.newImage)
	}
	if r.oldImage != nil {
		dst = appendLengthPrefixed(dst, r.oldImage)
	}
	return dst
}

// appendLengthPrefixed appends uvarint(len(b)) b.
func appendLengthPrefixed(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// readLengthPrefixed reads uvarint(length) and that many bytes from b.
func readLengthPrefixed(b []byte) (field, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return nil, nil, ErrBadRecord
	}
	return b[w : w+int(n)], b[w+int(n):], nil
}

// StoredRecord is a record as the records bucket stores it, cut into its
// fields: what GetRecords reads in its transaction and each path renders
// afterwards, the HTTP path as JSON (appendJSON), the in-process Streams
// API as the SDK's types (recordToSDK), neither through the other's form.
// Its byte fields alias the value it was parsed from, so GetRecords parses
// a copy of the stored value, never the transaction's bytes.
type StoredRecord struct {
	Seq    uint64 // its sequence number (the key it is stored under)
	Region string // the engine's region, which records name
	Millis int64  // the write's time, Unix milliseconds
	flags  byte
	ID     []byte // the eventID, 16 bytes
	Size   uint64 // SizeBytes
	Keys   []byte // the key attributes, binary (attr.AppendBinary)
	// NewImage and oldImage are the stored forms of the images the record
	// carries (the item without its key attributes), nil when absent.
	NewImage, OldImage []byte
}

// ParseStoredRecord cuts the record stored as v (time included) under
// sequence number seq into its fields, checking its framing; the
// attribute values are checked when rendered.
func ParseStoredRecord(seq uint64, v []byte, region string) (*StoredRecord, error) {
	if len(v) < 8+1+16 {
		return nil, ErrBadRecord
	}
	r := &StoredRecord{Seq: seq, Region: region, Millis: int64(binary.BigEndian.Uint64(v)), flags: v[8], ID: v[9:25]}
	if r.flags&3 == 0 {
		return nil, ErrBadRecord
	}
	rest := v[25:]
	size, w := binary.Uvarint(rest)
	if w <= 0 {
		return nil, ErrBadRecord
	}
	r.Size = size
	var err error
	if r.Keys, rest, err = readLengthPrefixed(rest[w:]); err != nil {
		return nil, err
	}
	if r.flags&recordNewImage != 0 {
		if r.NewImage, rest, err = readLengthPrefixed(rest); err != nil {
			return nil, err
		}
	}
	if r.flags&recordOldImage != 0 {
		if r.OldImage, rest, err = readLengthPrefixed(rest); err != nil {
			return nil, err
		}
	}
	if len(rest) != 0 {
		return nil, ErrBadRecord
	}
	return r, nil
}

// Event is the record's eventName.
func (r *StoredRecord) Event() string { return recordEvents[r.flags&3] }

// ViewType is the StreamViewType of the stream that wrote the record.
func (r *StoredRecord) ViewType() string { return recordViews[r.flags>>2&3] }

// ByService reports whether the service made the write (TTL deletions),
// which the record's userIdentity says.
func (r *StoredRecord) ByService() bool { return r.flags&recordByService != 0 }

// Corrupt is err, met rendering the record, naming its sequence number.
func (r *StoredRecord) Corrupt(err error) error { return CorruptRecord(err, r.Seq) }

// CorruptRecord is err, met reading record seq, naming it.
func CorruptRecord(err error, seq uint64) error { return fmt.Errorf("%w %d", err, seq) }
