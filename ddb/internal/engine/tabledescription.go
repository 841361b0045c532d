package engine

import (
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TableDescription is the TableDescription of every table operation,
// typed. Its fields are in the order json.Marshal sorts a map's keys, so
// encoding/json writes it as DynamoDB's JSON protocol does; the typed SDK
// API converts it field by field (sdkapi/sdktable.go).
type TableDescription struct {
	AttributeDefinitions      []storage.AttributeDefinition `json:"AttributeDefinitions"`
	BillingModeSummary        *billingModeSummary           `json:"BillingModeSummary,omitempty"`
	CreationDateTime          float64                       `json:"CreationDateTime"`
	DeletionProtectionEnabled bool                          `json:"DeletionProtectionEnabled"`
	GlobalSecondaryIndexes    []*indexDescription           `json:"GlobalSecondaryIndexes,omitempty"`
	ItemCount                 int64                         `json:"ItemCount"`
	KeySchema                 []storage.KeySchemaElement    `json:"KeySchema"`
	LatestStreamArn           string                        `json:"LatestStreamArn,omitempty"`
	LatestStreamLabel         string                        `json:"LatestStreamLabel,omitempty"`
	LocalSecondaryIndexes     []*indexDescription           `json:"LocalSecondaryIndexes,omitempty"`
	ProvisionedThroughput     *ThroughputDescription        `json:"ProvisionedThroughput"`
	StreamSpecification       *streamSpecDescription        `json:"StreamSpecification,omitempty"`
	TableArn                  string                        `json:"TableArn"`
	TableID                   string                        `json:"TableId"`
	TableName                 string                        `json:"TableName"`
	TableSizeBytes            int64                         `json:"TableSizeBytes"`
	TableStatus               string                        `json:"TableStatus"`
}

// billingModeSummary is a TableDescription's BillingModeSummary.
type billingModeSummary struct {
	BillingMode                       string  `json:"BillingMode"`
	LastUpdateToPayPerRequestDateTime float64 `json:"LastUpdateToPayPerRequestDateTime"`
}

// streamSpecDescription is a TableDescription's StreamSpecification.
type streamSpecDescription struct {
	StreamEnabled  bool   `json:"StreamEnabled"`
	StreamViewType string `json:"StreamViewType"`
}

// indexDescription describes a secondary index: a global one (IndexStatus
// set) or a local one. An index being created or deleted has no sizes.
type indexDescription struct {
	Backfilling           *bool                      `json:"Backfilling,omitempty"`
	IndexArn              string                     `json:"IndexArn,omitempty"`
	IndexName             string                     `json:"IndexName"`
	IndexSizeBytes        *int64                     `json:"IndexSizeBytes,omitempty"`
	IndexStatus           string                     `json:"IndexStatus,omitempty"`
	ItemCount             *int64                     `json:"ItemCount,omitempty"`
	KeySchema             []storage.KeySchemaElement `json:"KeySchema"`
	OnDemandThroughput    *onDemandThroughput        `json:"OnDemandThroughput,omitempty"`
	Projection            storage.Projection         `json:"Projection"`
	ProvisionedThroughput *ThroughputDescription     `json:"ProvisionedThroughput,omitempty"`
}

// onDemandThroughput is a GSI's OnDemandThroughput; -1 is no limit.
type onDemandThroughput struct {
	MaxReadRequestUnits  int64 `json:"MaxReadRequestUnits"`
	MaxWriteRequestUnits int64 `json:"MaxWriteRequestUnits"`
}

// unlimitedOnDemand is the OnDemandThroughput DynamoDB Local describes for
// a GSI created by UpdateTable.
var unlimitedOnDemand = onDemandThroughput{MaxReadRequestUnits: -1, MaxWriteRequestUnits: -1}

// ThroughputDescription is a ProvisionedThroughputDescription.
type ThroughputDescription struct {
	NumberOfDecreasesToday int64 `json:"NumberOfDecreasesToday"`
	ReadCapacityUnits      int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits     int64 `json:"WriteCapacityUnits"`
}

// DescribeTableOutput is DescribeTable's answer.
type DescribeTableOutput struct {
	Table *TableDescription `json:"Table"`
}

// TableChangeOutput is the answer of CreateTable, UpdateTable and
// DeleteTable.
type TableChangeOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// describe builds a TableDescription.
func (e *Engine) describe(m *storage.TableMeta, st storage.TableStats, status string) *TableDescription {
	arn := e.TableARN(m.Name)
	d := &TableDescription{
		TableName:                 m.Name,
		TableID:                   m.ID,
		TableArn:                  arn,
		TableStatus:               status,
		KeySchema:                 m.KeySchema,
		AttributeDefinitions:      m.AttributeDefinitions,
		CreationDateTime:          m.Created,
		ItemCount:                 st.ItemCount,
		TableSizeBytes:            st.SizeBytes,
		ProvisionedThroughput:     describeThroughput(m.Throughput),
		DeletionProtectionEnabled: m.DeletionProtection,
	}
	if m.BillingMode == storage.BillingPayPerRequest {
		// Like DynamoDB Local, only on-demand tables carry a summary.
		d.BillingModeSummary = &billingModeSummary{BillingMode: storage.BillingPayPerRequest, LastUpdateToPayPerRequestDateTime: m.Created}
	}
	e.describeStreamSpec(d, m)
	for _, ix := range m.Indexes {
		is := st.Indexes[ix.Name]
		x := &indexDescription{
			IndexName:      ix.Name,
			KeySchema:      ix.KeySchema,
			Projection:     ix.Projection,
			IndexSizeBytes: &is.SizeBytes,
			ItemCount:      &is.ItemCount,
			IndexArn:       arn + "/index/" + ix.Name,
		}
		if ix.Global {
			x.IndexStatus = "ACTIVE"
			if ix.Throughput != nil {
				x.ProvisionedThroughput = describeThroughput(ix.Throughput)
			} else if ix.Online {
				x.OnDemandThroughput = &unlimitedOnDemand
			}
			d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, x)
		} else {
			d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, x)
		}
	}
	return d
}

// describeThroughput builds a ProvisionedThroughputDescription; zero
// capacity for on-demand tables, as DynamoDB reports.
func describeThroughput(tp *storage.Throughput) *ThroughputDescription {
	d := &ThroughputDescription{}
	if tp != nil {
		d.ReadCapacityUnits, d.WriteCapacityUnits = tp.ReadCapacityUnits, tp.WriteCapacityUnits
	}
	return d
}
