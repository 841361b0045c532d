package ddb

// Typed outputs. An operation that has one returns it from its run
// function, and each front-end renders it: the JSON protocol with its
// appendJSON method (responsejson.go), the typed SDK API with a toSDK
// function (sdk*.go), PartiQL by reading its fields. None goes through the
// other's form, and no map[string]any is built on the way.

import (
	"math"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// consumedCapacity is the ConsumedCapacity a response reports: the
// accounting of one table and the ReturnConsumedCapacity asked for. It
// reports nothing for NONE (or no accounting).
type consumedCapacity struct {
	c    *capacity
	mode string
}

// reported reports whether the response holds a ConsumedCapacity.
func (cc consumedCapacity) reported() bool {
	return cc.c != nil && (cc.mode == capacityTotal || cc.mode == capacityIndexes)
}

// roundUnits is n as reported: to one decimal, as DynamoDB Local does.
func roundUnits(n float64) float64 { return math.Round(n*10) / 10 }

// resultItem is an item of a response: the stored form of an unprojected
// read, or a decoded (possibly projected) item. The zero resultItem is no
// item.
type resultItem struct {
	stored  *storedItem
	decoded attr.Item
}

// present reports whether there is an item.
func (r resultItem) present() bool { return r.stored != nil || r.decoded != nil }

// readItem is the response form of a read item: the projected item when
// there is a projection, the item itself when it was read decoded (raw
// nil), else its stored form.
func readItem(p projector, it attr.Item, raw *storedItem) resultItem {
	switch {
	case p != nil:
		return resultItem{decoded: p(it)}
	case raw == nil:
		return resultItem{decoded: it}
	}
	return resultItem{stored: raw}
}

// decode returns the item decoded (PartiQL reads items so).
func (r resultItem) decode() (attr.Item, error) {
	if r.stored == nil {
		return r.decoded, nil
	}
	if r.stored.value == nil {
		return itemOf(r.stored.keys), nil
	}
	return decodeWithKeys(r.stored.keys, r.stored.value)
}

// getItemOutput is GetItem's answer.
type getItemOutput struct {
	item     resultItem // the zero resultItem when there is none
	capacity consumedCapacity
}

// collectionMetrics is the ItemCollectionMetrics of a write to an item
// collection: its key (the partition key attribute) and the range, in GB,
// its size falls in.
type collectionMetrics struct {
	key       attr.Item
	low, high float64
}

// itemWriteOutput is the answer of PutItem, UpdateItem and DeleteItem.
type itemWriteOutput struct {
	attributes attr.Item // nil when ReturnValues asks for none
	capacity   consumedCapacity
	metrics    *collectionMetrics // nil when not asked for or not kept
}

// listOutput is the answer of Query and Scan: one page.
type listOutput struct {
	items    []resultItem // nil for Select COUNT, else the items, possibly none
	count    int          // items returned (after the filter)
	scanned  int          // items read (before it)
	lastKey  attr.Item    // LastEvaluatedKey, nil when the range is exhausted
	capacity consumedCapacity
}

// capacityReport is one table's ConsumedCapacity as reported, plain data:
// the answer of TransactWriteItems holds a list of them, and a
// ClientRequestToken stores that answer as JSON (tokens.go), in these
// DynamoDB field names. The fields are in the order json.Marshal sorts a
// map's keys, so its encoding is the one a response map would have.
type capacityReport struct {
	CapacityUnits          float64                  `json:"CapacityUnits"`
	GlobalSecondaryIndexes map[string]capacityUnits `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  map[string]capacityUnits `json:"LocalSecondaryIndexes,omitempty"`
	Table                  *capacityUnits           `json:"Table,omitempty"`
	TableName              string                   `json:"TableName"`
}

// capacityUnits is the CapacityUnits of a table or an index.
type capacityUnits struct {
	CapacityUnits float64 `json:"CapacityUnits"`
}

// report is the ConsumedCapacity of c for mode (as render gives it over
// JSON).
func (c *capacity) report(mode string) capacityReport {
	r := capacityReport{TableName: c.m.Name, CapacityUnits: roundUnits(c.total())}
	if mode != capacityIndexes {
		return r
	}
	r.Table = &capacityUnits{CapacityUnits: roundUnits(c.units)}
	for name, n := range c.indexes {
		u := capacityUnits{CapacityUnits: roundUnits(n)}
		if ix := c.m.index(name); ix != nil && ix.Global {
			if r.GlobalSecondaryIndexes == nil {
				r.GlobalSecondaryIndexes = map[string]capacityUnits{}
			}
			r.GlobalSecondaryIndexes[name] = u
		} else {
			if r.LocalSecondaryIndexes == nil {
				r.LocalSecondaryIndexes = map[string]capacityUnits{}
			}
			r.LocalSecondaryIndexes[name] = u
		}
	}
	return r
}

// reportTables is the ConsumedCapacity list of a request over several
// tables, one element per table in name order, or nil when mode asks for
// none.
func reportTables(caps map[string]*capacity, mode string) []capacityReport {
	if mode != capacityTotal && mode != capacityIndexes {
		return nil
	}
	list := make([]capacityReport, 0, len(caps))
	for _, name := range sortedKeys(caps) {
		list = append(list, caps[name].report(mode))
	}
	return list
}

// transactWriteOutput is the answer of TransactWriteItems, which a
// ClientRequestToken stores (as JSON) and replays.
type transactWriteOutput struct {
	ConsumedCapacity []capacityReport `json:"ConsumedCapacity,omitempty"`
}

// batchGetOutput is the answer of BatchGetItem.
type batchGetOutput struct {
	responses   map[string][]resultItem       // by table: the items found
	unprocessed map[string]*keysAndAttributes // by table: the keys left for another call
	capacity    []capacityReport              // nil when not asked for
}

// transactGetOutput is the answer of TransactGetItems: one item per
// action (the zero resultItem where there is none).
type transactGetOutput struct {
	responses []resultItem
	capacity  []capacityReport // nil when not asked for
}

// batchWriteOutput is the answer of BatchWriteItem, which applies every
// request at once: its UnprocessedItems are always empty.
type batchWriteOutput struct {
	capacity []capacityReport // nil when not asked for
}

// updateTTLOutput is the answer of UpdateTimeToLive. Like the other plain
// outputs, its fields are in json.Marshal's key order, so encoding/json
// writes it as the JSON protocol does.
type updateTTLOutput struct {
	TimeToLiveSpecification ttlSpecDescription `json:"TimeToLiveSpecification"`
}

// ttlSpecDescription is the TimeToLiveSpecification UpdateTimeToLive
// answers.
type ttlSpecDescription struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// describeTTLOutput is the answer of DescribeTimeToLive.
type describeTTLOutput struct {
	TimeToLiveDescription ttlDescription `json:"TimeToLiveDescription"`
}

// ttlDescription is a TimeToLiveDescription: the attribute only while TTL
// is enabled.
type ttlDescription struct {
	AttributeName    string `json:"AttributeName,omitempty"`
	TimeToLiveStatus string `json:"TimeToLiveStatus"`
}

// executeStatementOutput is the answer of ExecuteStatement: the items read
// (shaped by the SELECT's projection; none for a write), the key to
// continue after, and the ConsumedCapacity.
type executeStatementOutput struct {
	items    []attr.Item
	lastKey  attr.Item // nil when the read is complete
	capacity consumedCapacity
}

// batchExecuteOutput is the answer of BatchExecuteStatement: one response
// per statement, in order.
type batchExecuteOutput struct {
	responses []batchStatementResponse
}

// batchStatementResponse is one statement's response in a batch: its
// table (nil when the statement could not be planned), the item a SELECT
// found, or the error in its place.
type batchStatementResponse struct {
	table *string
	item  attr.Item
	err   *Error
}

// executeTransactionOutput is the answer of ExecuteTransaction: for
// reads, one item per statement (nil where there is none); for writes,
// none.
type executeTransactionOutput struct {
	responses []attr.Item
	capacity  []capacityReport // nil when not asked for
}

// listTablesOutput is the answer of ListTables: one page of table names,
// in order, and the last of them when more may follow ("" when none).
type listTablesOutput struct {
	names []string
	last  string
}

// emptyOutput is the answer of an operation whose success holds nothing
// (TagResource, UntagResource).
type emptyOutput struct{}

// listTagsOutput is the answer of ListTagsOfResource: the table's tags,
// ordered by key.
type listTagsOutput struct {
	tags []storedTag
}
