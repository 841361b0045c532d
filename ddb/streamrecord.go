package ddb

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"

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
// GetRecords renders the record as JSON (appendRecordJSON): a third of the
// bytes the JSON would take in storage. The record holds no awsRegion:
// records are written in the engine's region (Options.Region), and those
// upgraded from format 3 in the regions their stream's meta keeps
// (streamMeta.Regions), which costs a record nothing.

// recordEvents and recordViews are the values the flags index.
var (
	recordEvents = [...]string{1: "INSERT", 2: "MODIFY", 3: "REMOVE"}
	recordViews  = [...]string{viewKeysOnly, viewNewImage, viewOldImage, viewNewAndOldImages}
)

// Flag bits of a stored record.
const (
	recordNewImage  = 1 << 4
	recordOldImage  = 1 << 5
	recordByService = 1 << 6
)

// errBadRecord is a stored stream record that is not in the format above.
var errBadRecord = errors.New("ddb: corrupt stream record")

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
		return nil, nil, errBadRecord
	}
	return b[w : w+int(n)], b[w+int(n):], nil
}

// appendRecordJSON appends the record stored as v (time included) under
// sequence number seq, written in region, as GetRecords returns it: the
// keys in the order json.Marshal sorts them, as appendResponse writes
// every response.
func appendRecordJSON(dst []byte, seq uint64, v []byte, region string) ([]byte, error) {
	if len(v) < 8+1+16 {
		return nil, errBadRecord
	}
	millis := int64(binary.BigEndian.Uint64(v))
	flags, id, rest := v[8], v[9:25], v[25:]
	event := int(flags & 3)
	if event == 0 {
		return nil, errBadRecord
	}
	size, w := binary.Uvarint(rest)
	if w <= 0 {
		return nil, errBadRecord
	}
	keysRaw, rest, err := readLengthPrefixed(rest[w:])
	if err != nil {
		return nil, err
	}
	keysItem := attr.Item{}
	if _, err := attr.DecodeBinary(keysRaw, keysItem); err != nil {
		return nil, errBadRecord
	}
	keys := make([]attr.NamedValue, 0, len(keysItem))
	for _, name := range sortedKeys(keysItem) {
		keys = append(keys, attr.NamedValue{Name: name, Value: keysItem[name]})
	}
	dst = append(dst, `{"awsRegion":`...)
	dst = appendString(dst, region)
	dst = append(dst, `,"dynamodb":{"ApproximateCreationDateTime":`...)
	// DynamoDB rounds it down to the second.
	dst = strconv.AppendInt(dst, millis/1000, 10)
	dst = append(dst, `,"Keys":`...)
	dst = appendItem(dst, keysItem)
	for _, img := range []struct {
		bit  byte
		name string
	}{{recordNewImage, `,"NewImage":`}, {recordOldImage, `,"OldImage":`}} {
		if flags&img.bit == 0 {
			continue
		}
		var image []byte
		if image, rest, err = readLengthPrefixed(rest); err != nil {
			return nil, err
		}
		dst = append(dst, img.name...)
		if dst, _, err = appendStoredJSON(dst, keys, image); err != nil {
			return nil, err
		}
	}
	if len(rest) != 0 {
		return nil, errBadRecord
	}
	dst = append(dst, `,"SequenceNumber":"`...)
	dst = appendSequenceNumber(dst, seq)
	dst = append(dst, `","SizeBytes":`...)
	dst = strconv.AppendUint(dst, size, 10)
	dst = append(dst, `,"StreamViewType":"`...)
	dst = append(dst, recordViews[flags>>2&3]...)
	dst = append(dst, `"},"eventID":"`...)
	dst = hex.AppendEncode(dst, id)
	dst = append(dst, `","eventName":"`...)
	dst = append(dst, recordEvents[event]...)
	dst = append(dst, `","eventSource":"aws:dynamodb","eventVersion":"1.1"`...)
	if flags&recordByService != 0 {
		dst = append(dst, `,"userIdentity":{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}`...)
	}
	return append(dst, '}'), nil
}
