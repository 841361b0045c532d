package storage

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Stream view types: what each record of a stream carries besides the keys.
const (
	ViewKeysOnly        = "KEYS_ONLY"
	ViewNewImage        = "NEW_IMAGE"
	ViewOldImage        = "OLD_IMAGE"
	ViewNewAndOldImages = "NEW_AND_OLD_IMAGES"
)

// TableStream is the stream a table currently writes to, kept in the table
// metadata; Label names it among the table's streams (StreamMeta).
type TableStream struct {
	Label    string `json:"Label"`
	ViewType string `json:"ViewType"`
}

// StreamMeta is the stored description of one stream, kept in its bucket
// (streamlog.go) so that it outlives its table for StreamRetention.
type StreamMeta struct {
	Table     string             `json:"Table"`
	Label     string             `json:"Label"`
	ViewType  string             `json:"ViewType"`
	KeySchema []KeySchemaElement `json:"KeySchema"`
	// Created and Disabled are Unix times in seconds; Disabled is zero
	// while the table writes to the stream.
	Created  float64 `json:"Created"`
	Disabled float64 `json:"Disabled,omitempty"`
	// Regions are the regions the records of a stream upgraded from format
	// 3 were written in (formatv4.go), as runs of records: format 3 stored
	// each record's awsRegion, format 4 records do not, so that a record
	// upgraded keeps its own. Any other record reads as written in the
	// engine's region (Options.Region). An engine that predates the field
	// ignores it.
	Regions []recordRegion `json:"Regions,omitempty"`
}

// recordRegion says that the records numbered First to Last were written
// in Region.
type recordRegion struct {
	First  uint64 `json:"First"`
	Last   uint64 `json:"Last"`
	Region string `json:"Region"`
}

// UnixSeconds is t as fractional Unix seconds, to the millisecond, the way
// DynamoDB's JSON protocol writes timestamps.
func UnixSeconds(t time.Time) float64 {
	return math.Round(float64(t.UnixNano())/1e6) / 1e3
}

// LoadStreamMeta reads the meta of stream bucket sb.
func LoadStreamMeta(sb *bolt.Bucket) (*StreamMeta, error) {
	var s StreamMeta
	if err := json.Unmarshal(sb.Get(keyStreamMeta), &s); err != nil {
		return nil, fmt.Errorf("ddb: corrupt stream metadata: %w", err)
	}
	return &s, nil
}

// BytesToSeq reads an 8-byte sequence number key.
func BytesToSeq(k []byte) uint64 {
	var n uint64
	for _, b := range k {
		n = n<<8 | uint64(b)
	}
	return n
}
