package ddb

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
