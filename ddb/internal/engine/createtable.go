package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// CreateTableInput is the CreateTable request. SSE and table class are
// accepted and ignored.
type CreateTableInput struct {
	TableName              string                        `json:"TableName"`
	KeySchema              []storage.KeySchemaElement    `json:"KeySchema"`
	AttributeDefinitions   []storage.AttributeDefinition `json:"AttributeDefinitions"`
	BillingMode            string                        `json:"BillingMode"`
	ProvisionedThroughput  *storage.Throughput           `json:"ProvisionedThroughput"`
	GlobalSecondaryIndexes []IndexInput                  `json:"GlobalSecondaryIndexes"`
	LocalSecondaryIndexes  []IndexInput                  `json:"LocalSecondaryIndexes"`
	DeletionProtection     bool                          `json:"DeletionProtectionEnabled"`
	StreamSpecification    *StreamSpecInput              `json:"StreamSpecification"`
	Tags                   []Tag                         `json:"Tags"`
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// CreateTable creates a table; it is ACTIVE as soon as the call returns.
func (e *Engine) CreateTable(_ context.Context, in *CreateTableInput) (*TableChangeOutput, error) {
	if in.TableNameAbsent {
		// CreateTable words a missing name its own way (an empty one breaks
		// the length constraint).
		return nil, Validationf("The parameter 'TableName' is required but was not present in the request")
	}
	m, err := e.newTableMeta(in)
	if err != nil {
		return nil, err
	}
	var out *TableChangeOutput
	err = e.Update(func(tx *bolt.Tx) error {
		if old, err := storage.LoadTable(tx, m.Name); err != nil {
			return err
		} else if old != nil {
			return &Error{Type: TypeResourceInUse, Message: "Table already exists: " + m.Name}
		}
		tb, err := tx.CreateBucket(storage.TableBucketName(m.Name))
		if err != nil {
			return err
		}
		if _, err := tb.CreateBucket(storage.BucketItems); err != nil {
			return err
		}
		for _, ix := range m.Indexes {
			if _, err := tb.CreateBucket(storage.IndexBucketName(ix.Name)); err != nil {
				return err
			}
		}
		if err := storage.SaveStats(tb, storage.TableStats{}); err != nil {
			return err
		}
		if spec := in.StreamSpecification; spec != nil && *spec.StreamEnabled {
			if err := e.enableStream(tx, m, spec.StreamViewType); err != nil {
				return err
			}
		}
		if err := storage.SaveTable(tx, m); err != nil {
			return err
		}
		out = &TableChangeOutput{TableDescription: e.describe(m, storage.TableStats{}, "ACTIVE")}
		return nil
	})
	return out, err
}

// newTableMeta validates a CreateTable request and builds the table
// definition.
func (e *Engine) newTableMeta(in *CreateTableInput) (*storage.TableMeta, error) {
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
			return nil, Validationf("1 validation error detected: Value '%s' at 'attributeDefinitions.%d.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]", d.AttributeType, i+1)
		}
		if _, dup := defs[d.AttributeName]; dup {
			return nil, invalidParamf("Cannot have two attributes with the same name")
		}
		defs[d.AttributeName] = d.AttributeType
	}
	if err := validKeySchema(in.KeySchema, defs); err != nil {
		return nil, err
	}
	m := &storage.TableMeta{
		Name:                 in.TableName,
		ID:                   NewID(),
		KeySchema:            in.KeySchema,
		AttributeDefinitions: in.AttributeDefinitions,
		Created:              float64(e.Now().UnixMilli()) / 1000,
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
		return nil, Validationf("GlobalSecondaryIndex count exceeds the per-table limit of %d", maxGSIs)
	}
	if len(in.LocalSecondaryIndexes) > maxLSIs {
		return nil, invalidParamf("Number of LocalSecondaryIndexes exceeds per-table limit of %d", maxLSIs)
	}
	if len(in.LocalSecondaryIndexes) > 0 && storage.RangeKey(in.KeySchema) == "" {
		return nil, invalidParamf("Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
	}
	for _, list := range []struct {
		global bool
		ixs    []IndexInput
	}{{true, in.GlobalSecondaryIndexes}, {false, in.LocalSecondaryIndexes}} {
		for i := range list.ixs {
			ix, err := newIndexMeta(m, &list.ixs[i], list.global, defs)
			if err != nil {
				return nil, err
			}
			if m.Index(ix.Name) != nil {
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
		if err := in.StreamSpecification.Check(); err != nil {
			return nil, err
		}
	}
	tags, err := checkTags("tags", in.Tags)
	if err != nil {
		return nil, err
	}
	m.Tags = tags
	if len(m.Tags) > MaxTagsPerResource {
		return nil, errTooManyTags(len(m.Tags))
	}
	return m, nil
}
