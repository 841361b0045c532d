package domain

import (
	"regexp"
	"strings"
	"time"
)

// A photo is identified by its owner and its timestamp, and the timestamp is part of the photo's
// DynamoDB key, so one instant must have exactly one spelling: otherwise 2018-01-01T00:00:00 and
// 2018-01-01T00:00:00Z would be two photos at the same instant, and a lookup by one spelling
// would miss the photo stored under the other.
//
// The canonical form is TimestampLayout: UTC, whole seconds, a trailing Z, always 20 bytes
// (years are limited to four digits), so that the lexical order of keys is their time order.
// It is the form the server has always written, so keys already stored keep working.
//
// Clients may send any RFC 3339 date-time with an explicit zone (Z or ±hh:mm) and an optional
// fraction of zeros (JavaScript's toISOString writes .000); CanonicalTimestamp turns it into the
// canonical form. A timestamp without a zone is refused rather than guessed to be UTC, and so is
// a fraction of a second that is not zero, since the canonical form has no room for it.

// TimestampLayout is the canonical form of a timestamp, as the server writes and stores it.
const TimestampLayout = "2006-01-02T15:04:05Z"

// The range of timestamps the server accepts, in canonical form: wide enough for photos taken
// long before they were uploaded, narrow enough that every year has four digits.
const (
	MinTimestamp = "1900-01-01T00:00:00Z"
	MaxTimestamp = "2100-12-31T23:59:59Z"
)

// timestampForm is what error messages tell clients to send.
const timestampForm = "RFC 3339 with a zone (Z or ±hh:mm), like 2019-03-03T18:20:10Z"

var (
	// timestampPattern: date and time, an optional fraction, an optional zone. The zone is
	// optional here only so that its absence gets an error message of its own.
	timestampPattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$`)
	minTime, _       = time.Parse(TimestampLayout, MinTimestamp)
	maxTime, _       = time.Parse(TimestampLayout, MaxTimestamp)
)

// Timestamp formats t in the canonical form.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// CanonicalTimestamp returns ts in the canonical form (see TimestampLayout), or an Invalid
// error naming field when ts is not an RFC 3339 date-time with a zone, has a fraction of a
// second that is not zero, or lies outside MinTimestamp through MaxTimestamp.
func CanonicalTimestamp(field, ts string) (string, error) {
	m := timestampPattern.FindStringSubmatch(ts)
	switch {
	case m == nil:
		return "", Errorf(Invalid, "%s: %q is not a timestamp: send %s", field, ts, timestampForm)
	case m[3] == "":
		return "", Errorf(Invalid, "%s: %q has no time zone: send %s", field, ts, timestampForm)
	case strings.Trim(m[2], ".0") != "":
		return "", Errorf(Invalid, "%s: %q has a fraction of a second: timestamps are whole seconds, %s", field, ts, timestampForm)
	}
	if zone := m[3]; zone != "Z" && (zone[1:3] > "23" || zone[4:6] > "59") {
		return "", Errorf(Invalid, "%s: %q has a zone offset out of range: send %s", field, ts, timestampForm)
	}
	t, err := time.Parse(time.RFC3339, m[1]+m[3])
	if err != nil {
		return "", Errorf(Invalid, "%s: %q is not a real date and time: send %s", field, ts, timestampForm)
	}
	if t.Before(minTime) || t.After(maxTime) {
		return "", Errorf(Invalid, "%s: %q is outside %s through %s", field, ts, MinTimestamp, MaxTimestamp)
	}
	return Timestamp(t), nil
}

// ValidateTimestamp checks that ts is a timestamp in the canonical form itself; use
// CanonicalTimestamp for what clients send, which may be spelt otherwise.
func ValidateTimestamp(field, ts string) error {
	c, err := CanonicalTimestamp(field, ts)
	if err != nil {
		return err
	}
	if c != ts {
		return Errorf(Invalid, "%s: %q is not in the canonical form %s", field, ts, c)
	}
	return nil
}
