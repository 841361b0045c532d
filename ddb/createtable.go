package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

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
	// tableNameAbsent is whether the request left TableName out (shape.go).
	tableNameAbsent bool
}

// opCreateTable decodes a CreateTable request and runs it.
func opCreateTable(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in createTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.tableNameAbsent = absentTableName(in.TableName, body)
	return e.createTable(ctx, &in)
}

// createTable creates a table; it is ACTIVE as soon as the call returns.
func (e *Engine) createTable(_ context.Context, in *createTableInput) (*tableChangeOutput, error) {
	if in.tableNameAbsent {
		// CreateTable words a missing name its own way (an empty one breaks
		// the length constraint).
		return nil, validationf("The parameter 'TableName' is required but was not present in the request")
	}
	m, err := e.newTableMeta(in)
	if err != nil {
		return nil, err
	}
	var out *tableChangeOutput
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
		out = &tableChangeOutput{TableDescription: e.describe(m, tableStats{}, "ACTIVE")}
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
	if err := checkKeyNames(in.AttributeDefinitions, in.KeySchema, in.GlobalSecondaryIndexes, in.LocalSecondaryIndexes); err != nil {
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
