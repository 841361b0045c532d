package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// tableNameInput is the request of operations naming only a table.
type tableNameInput struct {
	TableName string `json:"TableName"`
}

// opDescribeTable returns the table description with live counters.
func opDescribeTable(e *Engine, _ context.Context, body []byte) (any, error) {
	var in tableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var out any
	err := e.view(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		out = map[string]any{"Table": e.describe(m, st, "ACTIVE")}
		return nil
	})
	return out, err
}

// tableAndStats loads a table's metadata and counters, or returns the
// ResourceNotFoundException naming it.
func tableAndStats(tx *bolt.Tx, name string) (*tableMeta, tableStats, error) {
	m, err := loadTable(tx, name)
	if err != nil {
		return nil, tableStats{}, err
	}
	if m == nil {
		return nil, tableStats{}, tableNotFound(name)
	}
	st, err := loadStats(tx.Bucket(tableBucketName(name)))
	return m, st, err
}

// describe renders a TableDescription.
func (e *Engine) describe(m *tableMeta, st tableStats, status string) map[string]any {
	arn := e.tableARN(m.Name)
	d := map[string]any{
		"TableName":                 m.Name,
		"TableId":                   m.ID,
		"TableArn":                  arn,
		"TableStatus":               status,
		"KeySchema":                 m.KeySchema,
		"AttributeDefinitions":      m.AttributeDefinitions,
		"CreationDateTime":          m.Created,
		"ItemCount":                 st.ItemCount,
		"TableSizeBytes":            st.SizeBytes,
		"ProvisionedThroughput":     throughputDescription(m.Throughput),
		"DeletionProtectionEnabled": m.DeletionProtection,
	}
	if m.BillingMode == billingPayPerRequest {
		// Like DynamoDB Local, only on-demand tables carry a summary.
		d["BillingModeSummary"] = map[string]any{"BillingMode": billingPayPerRequest, "LastUpdateToPayPerRequestDateTime": m.Created}
	}
	e.describeStreamSpec(d, m)
	var gsis, lsis []map[string]any
	for _, ix := range m.Indexes {
		is := st.Indexes[ix.Name]
		x := map[string]any{
			"IndexName":      ix.Name,
			"KeySchema":      ix.KeySchema,
			"Projection":     ix.Projection,
			"IndexSizeBytes": is.SizeBytes,
			"ItemCount":      is.ItemCount,
			"IndexArn":       arn + "/index/" + ix.Name,
		}
		if ix.Global {
			x["IndexStatus"] = "ACTIVE"
			if ix.Throughput != nil {
				x["ProvisionedThroughput"] = throughputDescription(ix.Throughput)
			} else if ix.Online {
				x["OnDemandThroughput"] = map[string]any{"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": -1}
			}
			gsis = append(gsis, x)
		} else {
			lsis = append(lsis, x)
		}
	}
	if gsis != nil {
		d["GlobalSecondaryIndexes"] = gsis
	}
	if lsis != nil {
		d["LocalSecondaryIndexes"] = lsis
	}
	return d
}

// throughputDescription renders a ProvisionedThroughputDescription; zero
// capacity for on-demand tables, as DynamoDB reports.
func throughputDescription(tp *throughput) map[string]any {
	d := map[string]any{"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0}
	if tp != nil {
		d["ReadCapacityUnits"], d["WriteCapacityUnits"] = tp.ReadCapacityUnits, tp.WriteCapacityUnits
	}
	return d
}
