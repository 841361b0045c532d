package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// GsiUpdate is one element of GlobalSecondaryIndexUpdates.
type GsiUpdate struct {
	Create *IndexInput          `json:"Create"`
	Delete *GsiDelete           `json:"Delete"`
	Update *GsiThroughputUpdate `json:"Update"`
}

// GsiDelete is the Delete of a gsiUpdate.
type GsiDelete struct {
	IndexName string `json:"IndexName"`
}

// GsiThroughputUpdate is the Update of a gsiUpdate.
type GsiThroughputUpdate struct {
	IndexName             string              `json:"IndexName"`
	ProvisionedThroughput *storage.Throughput `json:"ProvisionedThroughput"`
}

// UpdateTableInput is the UpdateTable request.
type UpdateTableInput struct {
	TableName                   string                        `json:"TableName"`
	AttributeDefinitions        []storage.AttributeDefinition `json:"AttributeDefinitions"`
	BillingMode                 string                        `json:"BillingMode"`
	ProvisionedThroughput       *storage.Throughput           `json:"ProvisionedThroughput"`
	GlobalSecondaryIndexUpdates []GsiUpdate                   `json:"GlobalSecondaryIndexUpdates"`
	DeletionProtectionEnabled   *bool                         `json:"DeletionProtectionEnabled"`
	StreamSpecification         *StreamSpecInput              `json:"StreamSpecification"`
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// UpdateTable changes billing mode and throughput, and creates (backfilled
// from existing items in the same transaction, so the index is ACTIVE on
// return) or deletes global secondary indexes.
func (e *Engine) UpdateTable(_ context.Context, in *UpdateTableInput) (*TableChangeOutput, error) {
	if err := controlTableName(in.TableName, in.TableNameAbsent); err != nil {
		return nil, err
	}
	var creates []IndexInput
	for _, u := range in.GlobalSecondaryIndexUpdates {
		if u.Create != nil {
			creates = append(creates, *u.Create)
		}
	}
	if err := checkKeyNames(in.AttributeDefinitions, nil, creates); err != nil {
		return nil, err
	}
	var out *TableChangeOutput
	err := e.Update(func(tx *bolt.Tx) error {
		var deleted []storage.IndexMeta
		m, err := storage.LoadTable(tx, in.TableName)
		if err != nil {
			return err
		}
		if m == nil {
			return tableNotFound(in.TableName)
		}
		t, err := e.OpenTable(tx, in.TableName)
		if err != nil {
			return err
		}
		t.M = m // a private copy: the one openTable returns is shared
		if in.nothingToUpdate() {
			return Validationf("Nothing to update")
		}
		if in.BillingMode != "" || in.ProvisionedThroughput != nil {
			mode := in.BillingMode
			if mode == "" {
				mode = m.BillingMode
			}
			// Provisioned throughput set to what it is changes nothing, which
			// DynamoDB refuses; switching to on-demand when on-demand is a no-op
			// it accepts.
			if mode == storage.BillingProvisioned && m.BillingMode == storage.BillingProvisioned && in.ProvisionedThroughput != nil &&
				m.Throughput != nil && *in.ProvisionedThroughput == *m.Throughput {
				return Validationf("The requested throughput value equals the current value")
			}
			if err := setBilling(m, mode, in.ProvisionedThroughput); err != nil {
				return err
			}
		}
		if in.DeletionProtectionEnabled != nil {
			m.DeletionProtection = *in.DeletionProtectionEnabled
		}
		if spec := in.StreamSpecification; spec != nil {
			if err := spec.Check(); err != nil {
				return err
			}
			if err := e.applyStreamSpec(tx, m, spec); err != nil {
				return err
			}
		}
		if len(in.GlobalSecondaryIndexUpdates) > 1 {
			return Validationf("Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
		}
		defs := map[string]string{}
		for _, d := range m.AttributeDefinitions {
			defs[d.AttributeName] = d.AttributeType
		}
		for _, d := range in.AttributeDefinitions {
			if t, ok := defs[d.AttributeName]; ok && t != d.AttributeType {
				return invalidParamf("Cannot change the type of attribute %s", d.AttributeName)
			}
			if _, ok := defs[d.AttributeName]; !ok {
				defs[d.AttributeName] = d.AttributeType
				m.AttributeDefinitions = append(m.AttributeDefinitions, d)
			}
		}
		for _, u := range in.GlobalSecondaryIndexUpdates {
			switch {
			case u.Create != nil:
				if m.Index(u.Create.IndexName) != nil {
					return invalidParamf("Index %s already exists", u.Create.IndexName)
				}
				if countGlobal(m) >= maxGSIs {
					return &Error{Type: TypeLimitExceeded, Message: "Subscriber limit exceeded: too many global secondary indexes"}
				}
				ix, err := newIndexMeta(m, u.Create, true, defs)
				if err != nil {
					return err
				}
				ix.Online = true
				m.Indexes = append(m.Indexes, *ix)
				if err := t.Backfill(&m.Indexes[len(m.Indexes)-1]); err != nil {
					return err
				}
			case u.Delete != nil:
				ix := m.Index(u.Delete.IndexName)
				if ix == nil || !ix.Global {
					return &Error{Type: TypeResourceNotFound, Message: "Requested resource not found: Index: " + u.Delete.IndexName + " not found"}
				}
				deleted = append(deleted, *ix)
				if err := t.B.DeleteBucket(storage.IndexBucketName(ix.Name)); err != nil {
					return err
				}
				delete(t.Stats.Indexes, ix.Name)
				t.Dirty = true
				kept := m.Indexes[:0]
				for _, x := range m.Indexes {
					if x.Name != u.Delete.IndexName {
						kept = append(kept, x)
					}
				}
				m.Indexes = kept
			case u.Update != nil:
				ix := m.Index(u.Update.IndexName)
				if ix == nil || !ix.Global {
					return &Error{Type: TypeResourceNotFound, Message: "Requested resource not found: Index: " + u.Update.IndexName + " not found"}
				}
				ix.Throughput = u.Update.ProvisionedThroughput
			}
		}
		m.AttributeDefinitions = usedDefinitions(m)
		if err := storage.SaveTable(tx, m); err != nil {
			return err
		}
		if err := t.Flush(); err != nil {
			return err
		}
		// While an index is created or deleted, DynamoDB describes the
		// table as UPDATING; the engine's change is done on return, so only
		// this answer says so (DescribeTable then answers ACTIVE).
		status := "ACTIVE"
		if len(in.GlobalSecondaryIndexUpdates) > 0 && (in.GlobalSecondaryIndexUpdates[0].Create != nil || in.GlobalSecondaryIndexUpdates[0].Delete != nil) {
			status = "UPDATING"
		}
		d := e.describe(m, t.Stats, status)
		markIndexChanges(d, in.GlobalSecondaryIndexUpdates, deleted)
		out = &TableChangeOutput{TableDescription: d}
		return nil
	})
	return out, err
}

// nothingToUpdate reports whether the request asks for no change at all,
// which DynamoDB refuses.
func (in *UpdateTableInput) nothingToUpdate() bool {
	return in.BillingMode == "" && in.ProvisionedThroughput == nil && len(in.GlobalSecondaryIndexUpdates) == 0 &&
		in.DeletionProtectionEnabled == nil && in.StreamSpecification == nil
}

// countGlobal counts a table's global secondary indexes.
func countGlobal(m *storage.TableMeta) int {
	n := 0
	for _, ix := range m.Indexes {
		if ix.Global {
			n++
		}
	}
	return n
}

// usedDefinitions keeps only the attribute definitions some key schema uses,
// as DynamoDB does after an index is deleted.
func usedDefinitions(m *storage.TableMeta) []storage.AttributeDefinition {
	used := map[string]bool{}
	for _, k := range m.KeySchema {
		used[k.AttributeName] = true
	}
	for _, ix := range m.Indexes {
		for _, k := range ix.KeySchema {
			used[k.AttributeName] = true
		}
	}
	var out []storage.AttributeDefinition
	for _, d := range m.AttributeDefinitions {
		if used[d.AttributeName] {
			out = append(out, d)
		}
	}
	return out
}

// markIndexChanges makes an UpdateTable response look like DynamoDB's: an
// index just created is reported CREATING (not backfilling), one just
// deleted is still listed, DELETING. DescribeTable reports them ACTIVE and
// gone right away.
func markIndexChanges(d *TableDescription, updates []GsiUpdate, deleted []storage.IndexMeta) {
	for _, u := range updates {
		if u.Create == nil {
			continue
		}
		for _, x := range d.GlobalSecondaryIndexes {
			if x.IndexName == u.Create.IndexName {
				backfilling := false
				x.IndexStatus = "CREATING"
				x.Backfilling = &backfilling
				x.IndexSizeBytes, x.ItemCount = nil, nil
			}
		}
	}
	for _, ix := range deleted {
		x := &indexDescription{IndexName: ix.Name, IndexStatus: "DELETING", KeySchema: ix.KeySchema, Projection: ix.Projection}
		if ix.Throughput != nil {
			x.ProvisionedThroughput = describeThroughput(ix.Throughput)
		} else if ix.Online {
			x.OnDemandThroughput = &unlimitedOnDemand
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, x)
	}
}
