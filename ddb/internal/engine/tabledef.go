package engine

import (
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TableARN returns the table's ARN.
func (e *Engine) TableARN(name string) string {
	return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", e.Opts.Region, e.Opts.AccountID, name)
}

// validTableName checks a table or index name (at path field) against
// DynamoDB's naming rule (shape.go's tableNameRule): 3 to 255 characters of
// a-z, A-Z, 0-9, '_', '-' and '.'.
func validTableName(field, name string) *Error {
	var v Violations
	v.tableNameRule(field, name)
	return v.Err()
}

// validKeySchema checks the shape of a key schema: a HASH element, then an
// optional RANGE element, each defined in defs with a scalar type.
func validKeySchema(ks []storage.KeySchemaElement, defs map[string]string) *Error {
	if len(ks) == 0 || len(ks) > 2 {
		elems := make([]string, len(ks))
		for i, k := range ks {
			elems[i] = fmt.Sprintf("KeySchemaElement(attributeName=%s, keyType=%s)", k.AttributeName, k.KeyType)
		}
		return Validationf("1 validation error detected: Value '[%s]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2", strings.Join(elems, ", "))
	}
	for i, k := range ks {
		if k.KeyType != storage.KeyTypeHash && k.KeyType != storage.KeyTypeRange {
			return Validationf("1 validation error detected: Value '%s' at 'keySchema.%d.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]", k.KeyType, i+1)
		}
	}
	if ks[0].KeyType != storage.KeyTypeHash {
		return invalidParamf("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	if len(ks) == 2 {
		if ks[1].KeyType != storage.KeyTypeRange {
			return invalidParamf("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
		}
		if ks[0].AttributeName == ks[1].AttributeName {
			// DynamoDB's words for one attribute named twice.
			return Validationf("Invalid KeySchema: Some index key attribute have no definition")
		}
	}
	var missing []string
	for _, k := range ks {
		if k.AttributeName == "" {
			return Validationf("1 validation error detected: Value '' at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
		}
		if _, ok := defs[k.AttributeName]; !ok {
			missing = append(missing, k.AttributeName)
		}
	}
	if len(missing) > 0 {
		names := make([]string, 0, len(defs))
		for n := range defs {
			names = append(names, n)
		}
		return invalidParamf("Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	return nil
}

// validProjection checks an index projection.
func validProjection(p *storage.Projection) *Error {
	switch p.ProjectionType {
	case "":
		return invalidParamf("Unknown ProjectionType: null")
	case storage.ProjectionAll, storage.ProjectionKeysOnly:
		if len(p.NonKeyAttributes) > 0 {
			return invalidParamf("ProjectionType is %s, but NonKeyAttributes is specified", p.ProjectionType)
		}
	case storage.ProjectionInclude:
		if len(p.NonKeyAttributes) == 0 {
			return invalidParamf("ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
		}
		if len(p.NonKeyAttributes) > 100 {
			return invalidParamf("The number of NonKeyAttributes must not exceed 100")
		}
	default:
		return Validationf("1 validation error detected: Value '%s' at 'projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]", p.ProjectionType)
	}
	return nil
}

// TableNameInput is the request of operations naming only a table.
type TableNameInput struct {
	TableName string `json:"TableName"`
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// TableNameFromSDK builds a tableNameInput from an SDK input's TableName.
func TableNameFromSDK(name *string) *TableNameInput {
	return &TableNameInput{TableName: Deref(name), TableNameAbsent: name == nil}
}

// Limits on secondary indexes per table.
const (
	maxGSIs = 20
	maxLSIs = 5
)

// IndexInput is a GlobalSecondaryIndex or LocalSecondaryIndex in a request.
type IndexInput struct {
	IndexName             string                     `json:"IndexName"`
	KeySchema             []storage.KeySchemaElement `json:"KeySchema"`
	Projection            *storage.Projection        `json:"Projection"`
	ProvisionedThroughput *storage.Throughput        `json:"ProvisionedThroughput"`
}

// setBilling applies a BillingMode and ProvisionedThroughput to m,
// PROVISIONED being DynamoDB's default.
func setBilling(m *storage.TableMeta, mode string, tp *storage.Throughput) *Error {
	switch mode {
	case "", storage.BillingProvisioned:
		if tp == nil {
			return invalidParamf("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
		}
		if tp.ReadCapacityUnits < 1 || tp.WriteCapacityUnits < 1 {
			return Validationf("One or more parameter values were invalid: Provisioned throughput must be positive")
		}
		m.BillingMode, m.Throughput = storage.BillingProvisioned, tp
	case storage.BillingPayPerRequest:
		if tp != nil {
			return invalidParamf("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		m.BillingMode, m.Throughput = storage.BillingPayPerRequest, nil
	default:
		return Validationf("1 validation error detected: Value '%s' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]", mode)
	}
	return nil
}

// maxKeyNameBytes is the longest name DynamoDB accepts for a key attribute
// (of the table or of an index) and for an attribute projected into an
// index; other attribute names may have up to attr.MaxNameBytes.
const maxKeyNameBytes = 255

// errKeyName is DynamoDB's answer to a key or projected attribute name that
// is empty or longer than maxKeyNameBytes.
var errKeyName = Validationf("Names of key attributes and attributes projected into an index must be between 1 and %d characters, inclusive", maxKeyNameBytes)

// validKeyName reports whether name may name a key attribute or an
// attribute projected into an index.
func validKeyName(name string) bool { return name != "" && len(name) <= maxKeyNameBytes }

// checkKeyNames checks the attribute names a table or index definition
// gives: the AttributeDefinitions (which define only key attributes), the
// key schemas and the attributes projected into the indexes. DynamoDB
// checks them before the definition's structure.
func checkKeyNames(defs []storage.AttributeDefinition, schema []storage.KeySchemaElement, indexes ...[]IndexInput) *Error {
	for _, d := range defs {
		if !validKeyName(d.AttributeName) {
			return errKeyName
		}
	}
	for _, k := range schema {
		if !validKeyName(k.AttributeName) {
			return errKeyName
		}
	}
	for _, list := range indexes {
		for _, ix := range list {
			for _, k := range ix.KeySchema {
				if !validKeyName(k.AttributeName) {
					return errKeyName
				}
			}
			if ix.Projection == nil {
				continue
			}
			for _, a := range ix.Projection.NonKeyAttributes {
				if !validKeyName(a) {
					return errKeyName
				}
			}
		}
	}
	return nil
}

// newIndexMeta validates one secondary index definition of table m.
func newIndexMeta(m *storage.TableMeta, in *IndexInput, global bool, defs map[string]string) (*storage.IndexMeta, error) {
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
	ix := &storage.IndexMeta{Name: in.IndexName, KeySchema: in.KeySchema, Projection: *in.Projection, Global: global}
	if !global {
		if storage.HashKey(in.KeySchema) != storage.HashKey(m.KeySchema) {
			return nil, invalidParamf("Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", in.IndexName, storage.HashKey(in.KeySchema), storage.HashKey(m.KeySchema))
		}
		if storage.RangeKey(in.KeySchema) == "" {
			return nil, invalidParamf("Index KeySchema does not have a range key for index: %s", in.IndexName)
		}
		return ix, nil
	}
	switch {
	case m.BillingMode == storage.BillingProvisioned && in.ProvisionedThroughput == nil:
		return nil, invalidParamf("ProvisionedThroughput is not specified for index: %s", in.IndexName)
	case m.BillingMode == storage.BillingPayPerRequest && in.ProvisionedThroughput != nil:
		return nil, invalidParamf("ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", in.IndexName)
	}
	ix.Throughput = in.ProvisionedThroughput
	if ix.Projection.ProjectionType == storage.ProjectionInclude {
		for _, a := range ix.Projection.NonKeyAttributes {
			if strings.TrimSpace(a) == "" {
				return nil, invalidParamf("NonKeyAttributes must not be empty")
			}
		}
	}
	return ix, nil
}

// OpenTable returns the named table in tx, or the ValidationException of a
// missing name or the ResourceNotFoundException of an unknown table.
func (e *Engine) OpenTable(tx *bolt.Tx, name string) (*storage.TableTx, error) {
	if name == "" {
		return nil, Validationf("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null")
	}
	t, err := e.OpenTableTx(tx, name)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, ResourceNotFound()
	}
	return t, nil
}

// tableAndStats loads a table's metadata and counters, or returns the
// ResourceNotFoundException naming it.
func tableAndStats(tx *bolt.Tx, name string) (*storage.TableMeta, storage.TableStats, error) {
	m, st, err := storage.LoadTableAndStats(tx, name)
	if err == nil && m == nil {
		err = tableNotFound(name)
	}
	return m, st, err
}

// Deref is *s, or "" when s is nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
