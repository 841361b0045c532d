package engine

// Typed outputs. An operation that has one returns it from its run
// function, and each front-end renders it: the JSON protocol with its
// appendJSON method (responsejson.go), the typed SDK API with a toSDK
// function (package sdkapi), PartiQL by reading its fields. None goes through the
// other's form, and no map[string]any is built on the way.

import (
	"math"
	"sort"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// ConsumedCapacity is the ConsumedCapacity a response reports: the
// accounting of one table and the ReturnConsumedCapacity asked for. It
// reports nothing for NONE (or no accounting).
type ConsumedCapacity struct {
	C    *Capacity
	Mode string
}

// Reported reports whether the response holds a ConsumedCapacity.
func (cc ConsumedCapacity) Reported() bool {
	return cc.C != nil && (cc.Mode == capacityTotal || cc.Mode == CapacityIndexes)
}

// RoundUnits is n as reported: to one decimal, as DynamoDB Local does.
func RoundUnits(n float64) float64 { return math.Round(n*10) / 10 }

// ResultItem is an item of a response: the stored form of an unprojected
// read, or a decoded (possibly projected) item. The zero resultItem is no
// item.
type ResultItem struct {
	Stored  *storage.StoredItem
	Decoded attr.Item
}

// Present reports whether there is an item.
func (r ResultItem) Present() bool { return r.Stored != nil || r.Decoded != nil }

// readItem is the response form of a read item: the projected item when
// there is a projection, the item itself when it was read decoded (raw
// nil), else its stored form.
func readItem(p projector, it attr.Item, raw *storage.StoredItem) ResultItem {
	switch {
	case p != nil:
		return ResultItem{Decoded: p(it)}
	case raw == nil:
		return ResultItem{Decoded: it}
	}
	return ResultItem{Stored: raw}
}

// Decode returns the item decoded (PartiQL reads items so).
func (r ResultItem) Decode() (attr.Item, error) {
	if r.Stored == nil {
		return r.Decoded, nil
	}
	if r.Stored.Value == nil {
		return storage.ItemOf(r.Stored.Keys), nil
	}
	return storage.DecodeWithKeys(r.Stored.Keys, r.Stored.Value)
}

// GetItemOutput is GetItem's answer.
type GetItemOutput struct {
	Item     ResultItem // the zero resultItem when there is none
	Capacity ConsumedCapacity
}

// collectionMetrics is the ItemCollectionMetrics of a write to an item
// collection: its key (the partition key attribute) and the range, in GB,
// its size falls in.
type collectionMetrics struct {
	Key       attr.Item
	Low, High float64
}

// ItemWriteOutput is the answer of PutItem, UpdateItem and DeleteItem.
type ItemWriteOutput struct {
	Attributes attr.Item // nil when ReturnValues asks for none
	Capacity   ConsumedCapacity
	Metrics    *collectionMetrics // nil when not asked for or not kept
}

// ListOutput is the answer of Query and Scan: one page.
type ListOutput struct {
	Items    []ResultItem // nil for Select COUNT, else the items, possibly none
	Count    int          // items returned (after the filter)
	Scanned  int          // items read (before it)
	LastKey  attr.Item    // LastEvaluatedKey, nil when the range is exhausted
	Capacity ConsumedCapacity
}

// CapacityReport is one table's ConsumedCapacity as reported, plain data:
// the answer of TransactWriteItems holds a list of them, and a
// ClientRequestToken stores that answer as JSON (tokens.go), in these
// DynamoDB field names. The fields are in the order json.Marshal sorts a
// map's keys, so its encoding is the one a response map would have.
type CapacityReport struct {
	CapacityUnits          float64                  `json:"CapacityUnits"`
	GlobalSecondaryIndexes map[string]CapacityUnits `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  map[string]CapacityUnits `json:"LocalSecondaryIndexes,omitempty"`
	Table                  *CapacityUnits           `json:"Table,omitempty"`
	TableName              string                   `json:"TableName"`
}

// CapacityUnits is the CapacityUnits of a table or an index.
type CapacityUnits struct {
	CapacityUnits float64 `json:"CapacityUnits"`
}

// report is the ConsumedCapacity of c for mode (as render gives it over
// JSON).
func (c *Capacity) report(mode string) CapacityReport {
	r := CapacityReport{TableName: c.M.Name, CapacityUnits: RoundUnits(c.Total())}
	if mode != CapacityIndexes {
		return r
	}
	r.Table = &CapacityUnits{CapacityUnits: RoundUnits(c.Units)}
	for name, n := range c.Indexes {
		u := CapacityUnits{CapacityUnits: RoundUnits(n)}
		if ix := c.M.Index(name); ix != nil && ix.Global {
			if r.GlobalSecondaryIndexes == nil {
				r.GlobalSecondaryIndexes = map[string]CapacityUnits{}
			}
			r.GlobalSecondaryIndexes[name] = u
		} else {
			if r.LocalSecondaryIndexes == nil {
				r.LocalSecondaryIndexes = map[string]CapacityUnits{}
			}
			r.LocalSecondaryIndexes[name] = u
		}
	}
	return r
}

// reportTables is the ConsumedCapacity list of a request over several
// tables, one element per table in name order, or nil when mode asks for
// none.
func reportTables(caps map[string]*Capacity, mode string) []CapacityReport {
	if mode != capacityTotal && mode != CapacityIndexes {
		return nil
	}
	list := make([]CapacityReport, 0, len(caps))
	for _, name := range sortedKeys(caps) {
		list = append(list, caps[name].report(mode))
	}
	return list
}

// TransactWriteOutput is the answer of TransactWriteItems, which a
// ClientRequestToken stores (as JSON) and replays.
type TransactWriteOutput struct {
	ConsumedCapacity []CapacityReport `json:"ConsumedCapacity,omitempty"`
}

// BatchGetOutput is the answer of BatchGetItem.
type BatchGetOutput struct {
	Responses   map[string][]ResultItem       // by table: the items found
	Unprocessed map[string]*KeysAndAttributes // by table: the keys left for another call
	Capacity    []CapacityReport              // nil when not asked for
}

// TransactGetOutput is the answer of TransactGetItems: one item per
// action (the zero resultItem where there is none).
type TransactGetOutput struct {
	Responses []ResultItem
	Capacity  []CapacityReport // nil when not asked for
}

// BatchWriteOutput is the answer of BatchWriteItem, which applies every
// request at once: its UnprocessedItems are always empty.
type BatchWriteOutput struct {
	Capacity []CapacityReport // nil when not asked for
}

// UpdateTTLOutput is the answer of UpdateTimeToLive. Like the other plain
// outputs, its fields are in json.Marshal's key order, so encoding/json
// writes it as the JSON protocol does.
type UpdateTTLOutput struct {
	TimeToLiveSpecification ttlSpecDescription `json:"TimeToLiveSpecification"`
}

// ttlSpecDescription is the TimeToLiveSpecification UpdateTimeToLive
// answers.
type ttlSpecDescription struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// DescribeTTLOutput is the answer of DescribeTimeToLive.
type DescribeTTLOutput struct {
	TimeToLiveDescription ttlDescription `json:"TimeToLiveDescription"`
}

// ttlDescription is a TimeToLiveDescription: the attribute only while TTL
// is enabled.
type ttlDescription struct {
	AttributeName    string `json:"AttributeName,omitempty"`
	TimeToLiveStatus string `json:"TimeToLiveStatus"`
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ExecuteStatementOutput is the answer of ExecuteStatement: the items read
// (shaped by the SELECT's projection; none for a write), the key to
// continue after, and the ConsumedCapacity.
type ExecuteStatementOutput struct {
	Items    []attr.Item
	LastKey  attr.Item // nil when the read is complete
	Capacity ConsumedCapacity
}

// BatchExecuteOutput is the answer of BatchExecuteStatement: one response
// per statement, in order.
type BatchExecuteOutput struct {
	Responses []BatchStatementResponse
}

// BatchStatementResponse is one statement's response in a batch: its
// table (nil when the statement could not be planned), the item a SELECT
// found, or the error in its place.
type BatchStatementResponse struct {
	Table *string
	Item  attr.Item
	Err   *Error
}

// ExecuteTransactionOutput is the answer of ExecuteTransaction: for
// reads, one item per statement (nil where there is none); for writes,
// none.
type ExecuteTransactionOutput struct {
	Responses []attr.Item
	Capacity  []CapacityReport // nil when not asked for
}

// ListTablesOutput is the answer of ListTables: one page of table names,
// in order, and the last of them when more may follow ("" when none).
type ListTablesOutput struct {
	Names []string
	Last  string
}

// EmptyOutput is the answer of an operation whose success holds nothing
// (TagResource, UntagResource).
type EmptyOutput struct{}

// ListTagsOutput is the answer of ListTagsOfResource: the table's tags,
// ordered by key.
type ListTagsOutput struct {
	Tags []storage.StoredTag
}
