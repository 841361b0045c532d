package storage

import (
	"fmt"
	"slices"
	"time"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// TTLHorizon is how far in the past a TTL value may be and still expire.
const TTLHorizon = 5 * 365 * 24 * time.Hour

// Expired reports whether it is expired under the table's TTL setting.
func (t *TableTx) Expired(it attr.Item) bool {
	if t.M.TTL == nil || !t.M.TTL.Enabled {
		return false
	}
	return IsExpired(it, t.M.TTL.AttributeName, t.s.Now())
}

// IsExpired applies the TTL rule to one item.
func IsExpired(it attr.Item, name string, now time.Time) bool {
	v, ok := it[name]
	return ok && isExpiredValue(v, now)
}

// StoredLive reports whether the stored item k, v has not expired, reading
// only its TTL attribute: every read of a table with TTL asks, and most
// reads answer the stored item without decoding it.
func (t *TableTx) StoredLive(k, v []byte) (bool, error) {
	if !t.TTLEnabled() {
		return true, nil
	}
	name := t.M.TTL.AttributeName
	if slices.Contains(t.M.KeyNames(), name) {
		// Left out of the stored value: the key holds it.
		it, err := t.M.DecodeStored(k, v)
		return err == nil && !t.Expired(it), err
	}
	val, found, err := attr.BinaryAttribute(v, name)
	if err != nil {
		return false, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return !found || !isExpiredValue(val, t.s.Now()), nil
}

// isExpiredValue applies the TTL rule to a TTL attribute's value.
func isExpiredValue(v attr.Value, now time.Time) bool {
	if v.Type != attr.TypeN {
		return false
	}
	d := v.Decimal()
	if d.Cmp(attr.DecimalFromInt(now.Unix())) > 0 {
		return false
	}
	return d.Cmp(attr.DecimalFromInt(now.Add(-TTLHorizon).Unix())) >= 0
}

// TTLEnabled reports whether the table has TTL enabled.
func (t *TableTx) TTLEnabled() bool { return t.M.TTL != nil && t.M.TTL.Enabled }
