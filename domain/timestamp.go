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
// The canonical form is TimestampLayout, the tutorial's own: UTC to the whole second with no
// zone, 2018-05-30T15:42:38, always 19 bytes (years are limited to four digits), so that the
// lexical order of keys is their time order. The tutorial's items.json, its scripts and every
// item they write key photos, reactions and friendships this way, so the server stores and
// answers the same form: the tutorial's data and the API name the same items. Earlier releases
// wrote a trailing Z (2018-05-30T15:42:38Z); `quickphotos migrate timestamps` rewrites those
// keys, and `quickphotos check` reports any key not in the canonical form.
//
// Clients may send the canonical form itself (read as UTC, as the tutorial records it) or any
// RFC 3339 date-time with a zone (Z or ±hh:mm), each with an optional fraction of zeros
// (JavaScript's toISOString writes .000); CanonicalTimestamp turns it into the canonical form.
// A fraction of a second that is not zero is refused, since the canonical form has no room for
// it, and so is a local time with any other meaning than UTC: there is no way to say one.

// TimestampLayout is the canonical form of a timestamp, as the server writes, stores and
// answers it: UTC, whole seconds, no zone.
const TimestampLayout = "2006-01-02T15:04:05"

// The range of timestamps the server accepts, in canonical form: wide enough for photos taken
// long before they were uploaded, narrow enough that every year has four digits.
const (
	MinTimestamp = "1900-01-01T00:00:00"
	MaxTimestamp = "2100-12-31T23:59:59"
)

// timestampForm is what error messages tell clients to send.
const timestampForm = "UTC as 2019-03-03T18:20:10, or RFC 3339 with a zone (Z or ±hh:mm) like 2019-03-03T20:20:10+02:00"

var (
	// timestampPattern: date and time, an optional fraction, an optional zone.
	timestampPattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$`)
	minTime, _       = time.Parse(TimestampLayout, MinTimestamp)
	maxTime, _       = time.Parse(TimestampLayout, MaxTimestamp)
)

// Timestamp formats t in the canonical form.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// CanonicalTimestamp returns ts in the canonical form (see TimestampLayout), or an Invalid
// error naming field when ts is neither the canonical form nor an RFC 3339 date-time with a
// zone, has a fraction of a second that is not zero, or lies outside MinTimestamp through
// MaxTimestamp. A timestamp without a zone is read as UTC.
func CanonicalTimestamp(field, ts string) (string, error) {
	t, err := ParseTimestamp(field, ts)
	if err != nil {
		return "", err
	}
	return Timestamp(t), nil
}

// ParseTimestamp returns the instant ts names, under the rules of CanonicalTimestamp.
func ParseTimestamp(field, ts string) (time.Time, error) {
	m := timestampPattern.FindStringSubmatch(ts)
	switch {
	case m == nil:
		return time.Time{}, Errorf(Invalid, "%s: %q is not a timestamp: send %s", field, ts, timestampForm)
	case strings.Trim(m[2], ".0") != "":
		return time.Time{}, Errorf(Invalid, "%s: %q has a fraction of a second: timestamps are whole seconds, %s", field, ts, timestampForm)
	}
	zone := m[3]
	switch {
	case zone == "":
		zone = "Z" // the canonical form: UTC
	case zone != "Z" && (zone[1:3] > "23" || zone[4:6] > "59"):
		return time.Time{}, Errorf(Invalid, "%s: %q has a zone offset out of range: send %s", field, ts, timestampForm)
	}
	t, err := time.Parse(time.RFC3339, m[1]+zone)
	if err != nil {
		return time.Time{}, Errorf(Invalid, "%s: %q is not a real date and time: send %s", field, ts, timestampForm)
	}
	if t.Before(minTime) || t.After(maxTime) {
		return time.Time{}, Errorf(Invalid, "%s: %q is outside %s through %s (UTC)", field, ts, MinTimestamp, MaxTimestamp)
	}
	return t, nil
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
