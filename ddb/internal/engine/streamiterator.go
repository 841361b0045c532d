package engine

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// ShardIteratorLifetime is how long a shard iterator may be used: DynamoDB
// refuses one obtained more than 15 minutes earlier (ExpiredIteratorException).
const ShardIteratorLifetime = 15 * time.Minute

// IteratorClockSkew is how far in the future an iterator's issue time may
// be, for a clock that stepped back since it was issued. The issue time is
// written in the iterator in the clear, so a caller can claim any; one
// further ahead was never issued by this engine (see checkAge).
const IteratorClockSkew = time.Minute

// Shard iterator types of GetShardIterator.
const (
	iteratorTrimHorizon         = "TRIM_HORIZON"
	iteratorLatest              = "LATEST"
	iteratorAtSequenceNumber    = "AT_SEQUENCE_NUMBER"
	iteratorAfterSequenceNumber = "AFTER_SEQUENCE_NUMBER"
)

// iteratorVersion marks the iterator layout below, so that a future layout
// can tell an old iterator from garbage.
const iteratorVersion = "001"

// ShardIterator is a position in a shard: the next record read is the
// first after sequence number After. Its string form is
// "<stream ARN>|001|<base64 of shard ID|after|issued Unix ms>", like
// DynamoDB Local's: the ARN stays readable, the rest is opaque.
type ShardIterator struct {
	StreamARN string
	ShardID   string
	After     uint64
	Issued    time.Time
}

// String encodes the iterator.
func (it ShardIterator) String() string {
	inner := fmt.Sprintf("%s|%s|%020d", it.ShardID, storage.FormatSequenceNumber(it.After), it.Issued.UnixMilli())
	return it.StreamARN + "|" + iteratorVersion + "|" + base64.StdEncoding.EncodeToString([]byte(inner))
}

// errInvalidIterator is DynamoDB's answer to an iterator it did not issue.
var errInvalidIterator = Validationf("Invalid ShardIterator")

// checkAge refuses an iterator that is past its lifetime at now, or that
// claims to have been issued later than now (beyond iteratorClockSkew).
//
// DynamoDB's iterators are opaque tokens it alone can read, so a caller
// cannot make one claim a later issue time: an iterator whose contents were
// edited is one DynamoDB did not issue, which it refuses as a
// ValidationException ("Invalid ShardIterator"), the answer to any iterator
// it cannot read. An iterator from the future is answered the same way, not
// with ExpiredIteratorException, which DynamoDB documents for an iterator
// it issued more than 15 minutes earlier: this one was never issued, and
// asking for a new one from the same position cannot be the fix. With the
// future refused, an iterator serves at most ShardIteratorLifetime plus
// iteratorClockSkew from the time it claims, whatever it claims.
func (it ShardIterator) checkAge(now time.Time) error {
	switch age := now.Sub(it.Issued); {
	case age < -IteratorClockSkew:
		return errInvalidIterator
	case age > ShardIteratorLifetime:
		return &Error{Type: TypeExpiredIterator, Message: "The provided iterator exceeds the maximum age allowed."}
	}
	return nil
}

// ParseShardIterator decodes an iterator String produced.
func ParseShardIterator(s string) (ShardIterator, error) {
	arn, rest, ok := strings.Cut(s, "|")
	if !ok {
		return ShardIterator{}, errInvalidIterator
	}
	version, encoded, ok := strings.Cut(rest, "|")
	if !ok || version != iteratorVersion {
		return ShardIterator{}, errInvalidIterator
	}
	inner, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return ShardIterator{}, errInvalidIterator
	}
	parts := strings.Split(string(inner), "|")
	if len(parts) != 3 {
		return ShardIterator{}, errInvalidIterator
	}
	after, err1 := strconv.ParseUint(parts[1], 10, 64)
	issued, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || parts[0] == "" {
		return ShardIterator{}, errInvalidIterator
	}
	return ShardIterator{StreamARN: arn, ShardID: parts[0], After: after, Issued: time.UnixMilli(issued)}, nil
}

// ParseSequenceNumber reads a SequenceNumber parameter: a decimal number
// that fits the engine's counter.
func ParseSequenceNumber(s string) (uint64, bool) {
	if s == "" || len(s) > 40 {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}
