package ddb

import (
	"context"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Limits on secondary indexes per table.
const (
	maxGSIs = 20
	maxLSIs = 5
)

// indexInput is a GlobalSecondaryIndex or LocalSecondaryIndex in a request.
type indexInput struct {
	IndexName             string             `json:"IndexName"`
	KeySchema             []keySchemaElement `json:"KeySchema"`
	Projection            *projection        `json:"Projection"`
	ProvisionedThroughput *throughput        `json:"ProvisionedThroughput"`
}

// createTableInput is the CreateTable request. SSE and table class are
// accepted and ignored.
type createTableInput struct {
	TableName              string                `json:"TableName"`
	KeySchema              []keySchemaElement    `json:"KeySchema"`
	AttributeDefinitions   []attributeDefinition `json:"AttributeDefinitions"`
	BillingMode            string                `json:"BillingMode"`
	ProvisionedThroughput  *throughput           `json:"ProvisionedThroughput"`
	GlobalSecondaryIndexes []indexInput          `json:"GlobalSecondaryIndexes"`
	LocalSecondaryIndexes  []indexInput          `json:"LocalSecondaryIndexes"`
	DeletionProtection     bool                  `json:"DeletionProtectionEnabled"`
	StreamSpecification    *streamSpecInput      `json:"StreamSpecification"`
	Tags                   []tag                 `json:"Tags"`
}

// opCreateTable creates a table; it is ACTIVE as soon as the call returns.
func opCreateTable(e *Engine, _ context.Context, body []byte) (any, error) {
	var in createTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.TableName == "" && !hasTopLevelKey(body, "TableName") {
		// CreateTable words a missing name its own way (an empty one breaks
		// the length constraint).
		return nil, validationf("The parameter 'TableName' is required but was not present in the request")
	}
	m, err := e.newTableMeta(&in)
	if err != nil {
		return nil, err
	}
	var out any
	err = e.update(func(tx *bolt.Tx) error {
		if old, err := loadTable(tx, m.Name); err != nil {
			return err
		} else if old != nil {
			return &Error{Type: typeResourceInUse, Message: "Table already exists: " + m.Name}
		}
		tb, err := tx.CreateBucket(tableBucketName(m.Name))
		if err != nil {
			return err
		}
		if _, err := tb.CreateBucket(bucketItems); err != nil {
			return err
		}
		for _, ix := range m.Indexes {
			if _, err := tb.CreateBucket(indexBucketName(ix.Name)); err != nil {
				return err
			}
		}
		if err := saveStats(tb, tableStats{}); err != nil {
			return err
		}
		if spec := in.StreamSpecification; spec != nil && *spec.StreamEnabled {
			if err := e.enableStream(tx, m, spec.StreamViewType); err != nil {
				return err
			}
		}
		if err := saveTable(tx, m); err != nil {
			return err
		}
		out = map[string]any{"TableDescription": e.describe(m, tableStats{}, "ACTIVE")}
		return nil
	})
	return out, err
}

// newTableMeta validates a CreateTable request and builds the table
// definition.
func (e *Engine) newTableMeta(in *createTableInput) (*tableMeta, error) {
	if err := validTableName("tableName", in.TableName); err != nil {
		return nil, err
	}
	defs := map[string]string{}
	for i, d := range in.AttributeDefinitions {
		switch d.AttributeType {
		case "S", "N", "B":
		default:
			return nil, validationf("1 validation error detected: Value '%s' at 'attributeDefinitions.%d.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]", d.AttributeType, i+1)
		}
		if _, dup := defs[d.AttributeName]; dup {
			return nil, invalidParamf("Cannot have two attributes with the same name")
		}
		defs[d.AttributeName] = d.AttributeType
	}
	if err := validKeySchema(in.KeySchema, defs); err != nil {
		return nil, err
	}
	m := &tableMeta{
		Name:                 in.TableName,
		ID:                   newID(),
		KeySchema:            in.KeySchema,
		AttributeDefinitions: in.AttributeDefinitions,
		Created:              float64(e.now().UnixMilli()) / 1000,
		DeletionProtection:   in.DeletionProtection,
	}
	if err := setBilling(m, in.BillingMode, in.ProvisionedThroughput); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, k := range in.KeySchema {
		used[k.AttributeName] = true
	}
	if len(in.GlobalSecondaryIndexes) > maxGSIs {
		return nil, validationf("GlobalSecondaryIndex count exceeds the per-table limit of %d", maxGSIs)
	}
	if len(in.LocalSecondaryIndexes) > maxLSIs {
		return nil, invalidParamf("Number of LocalSecondaryIndexes exceeds per-table limit of %d", maxLSIs)
	}
	if len(in.LocalSecondaryIndexes) > 0 && rangeKey(in.KeySchema) == "" {
		return nil, invalidParamf("Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
	}
	for _, list := range []struct {
		global bool
		ixs    []indexInput
	}{{true, in.GlobalSecondaryIndexes}, {false, in.LocalSecondaryIndexes}} {
		for i := range list.ixs {
			ix, err := newIndexMeta(m, &list.ixs[i], list.global, defs)
			if err != nil {
				return nil, err
			}
			if m.index(ix.Name) != nil {
				return nil, invalidParamf("Duplicate index name: %s", ix.Name)
			}
			for _, k := range ix.KeySchema {
				used[k.AttributeName] = true
			}
			m.Indexes = append(m.Indexes, *ix)
		}
	}
	if len(used) != len(defs) {
		return nil, invalidParamf("Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")
	}
	if in.StreamSpecification != nil {
		if err := in.StreamSpecification.check(); err != nil {
			return nil, err
		}
	}
	tags, err := checkTags("tags", in.Tags)
	if err != nil {
		return nil, err
	}
	m.Tags = tags
	if len(m.Tags) > maxTagsPerResource {
		return nil, errTooManyTags(len(m.Tags))
	}
	return m, nil
}

// setBilling applies a BillingMode and ProvisionedThroughput to m,
// PROVISIONED being DynamoDB's default.
func setBilling(m *tableMeta, mode string, tp *throughput) *Error {
	switch mode {
	case "", billingProvisioned:
		if tp == nil {
			return invalidParamf("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
		}
		if tp.ReadCapacityUnits < 1 || tp.WriteCapacityUnits < 1 {
			return validationf("One or more parameter values were invalid: Provisioned throughput must be positive")
		}
		m.BillingMode, m.Throughput = billingProvisioned, tp
	case billingPayPerRequest:
		if tp != nil {
			return invalidParamf("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		m.BillingMode, m.Throughput = billingPayPerRequest, nil
	default:
		return validationf("1 validation error detected: Value '%s' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]", mode)
	}
	return nil
}

// newIndexMeta validates one secondary index definition of table m.
func newIndexMeta(m *tableMeta, in *indexInput, global bool, defs map[string]string) (*indexMeta, error) {
	if err := validTableName("indexName", in.IndexName); err != nil {
		return nil, err
	}
	if err := validKeySchema(in.KeySchema, defs); err != nil {
		return nil, err
	}
	if in.Projection == nil {
		return nil, invalidParamf("Projection must be specified for index: %s", in.IndexName)
	}
	if err := validProjection(in.Projection); err != nil {
		return nil, err
	}
	ix := &indexMeta{Name: in.IndexName, KeySchema: in.KeySchema, Projection: *in.Projection, Global: global}
	if !global {
		if hashKey(in.KeySchema) != hashKey(m.KeySchema) {
			return nil, invalidParamf("Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", in.IndexName, hashKey(in.KeySchema), hashKey(m.KeySchema))
		}
		if rangeKey(in.KeySchema) == "" {
			return nil, invalidParamf("Index KeySchema does not have a range key for index: %s", in.IndexName)
		}
		return ix, nil
	}
	switch {
	case m.BillingMode == billingProvisioned && in.ProvisionedThroughput == nil:
		return nil, invalidParamf("ProvisionedThroughput is not specified for index: %s", in.IndexName)
	case m.BillingMode == billingPayPerRequest && in.ProvisionedThroughput != nil:
		return nil, invalidParamf("ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", in.IndexName)
	}
	ix.Throughput = in.ProvisionedThroughput
	if ix.Projection.ProjectionType == projectionInclude {
		for _, a := range ix.Projection.NonKeyAttributes {
			if strings.TrimSpace(a) == "" {
				return nil, invalidParamf("NonKeyAttributes must not be empty")
			}
		}
	}
	return ix, nil
}
