package ddb

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Capacity accounting follows "Read/write capacity mode" and "DynamoDB item
// sizes" in the DynamoDB Developer Guide:
//
//   - GetItem, BatchGetItem: one read unit per 4 KB of each item, rounded up
//     (an absent item still costs one unit); half for eventually
//     consistent reads.
//   - Query, Scan: the sizes of all items read (before FilterExpression)
//     are summed, then rounded up to 4 KB; half for eventually consistent
//     reads. An empty result still costs one (or half a) unit.
//   - Writes: one write unit per 1 KB of the larger of the old and new item,
//     rounded up; deleting an absent item costs one unit. Each index entry
//     added or removed costs units for its projected size; an entry whose
//     key did not change costs once.
//   - Transactions: twice the above.

// Values of ReturnConsumedCapacity.
const (
	capacityNone    = "NONE"
	capacityTotal   = "TOTAL"
	capacityIndexes = "INDEXES"
)

// checkCapacityMode validates a ReturnConsumedCapacity value.
func checkCapacityMode(mode string) *Error {
	switch mode {
	case "", capacityNone, capacityTotal, capacityIndexes:
		return nil
	}
	return validationf("1 validation error detected: Value '%s' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]", mode)
}

// capacity accumulates the units one request consumes on one table.
type capacity struct {
	m       *tableMeta         // the table (names it, tells global indexes from local)
	units   float64            // on the table itself
	indexes map[string]float64 // per index
}

// newCapacity starts the accounting for table m.
func newCapacity(m *tableMeta) *capacity { return &capacity{m: m} }

// addWrite adds the units of one item write, times factor (2 in
// transactions).
func (c *capacity) addWrite(u writeUnits, factor float64) {
	c.units += u.table * factor
	for name, n := range u.indexes {
		c.addIndex(name, n*factor)
	}
}

// addIndex adds units consumed on an index.
func (c *capacity) addIndex(name string, n float64) {
	if c.indexes == nil {
		c.indexes = map[string]float64{}
	}
	c.indexes[name] += n
}

// readUnits returns the units of reading size bytes as one unit of
// accounting (one item, or one Query/Scan page).
func readUnits(size int, consistent bool) float64 {
	u := float64(attr.ReadUnits(size))
	if !consistent {
		u /= 2
	}
	return u
}

// total returns all units consumed.
func (c *capacity) total() float64 {
	t := c.units
	for _, n := range c.indexes {
		t += n
	}
	return t
}
