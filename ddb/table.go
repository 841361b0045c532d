package ddb

import (
	"fmt"
	"strings"
)

// Key types and projection types of the DynamoDB API.
const (
	keyTypeHash  = "HASH"
	keyTypeRange = "RANGE"

	projectionAll      = "ALL"
	projectionKeysOnly = "KEYS_ONLY"
	projectionInclude  = "INCLUDE"

	billingProvisioned   = "PROVISIONED"
	billingPayPerRequest = "PAY_PER_REQUEST"
)

// keySchemaElement is one element of a KeySchema.
type keySchemaElement struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// attributeDefinition declares the scalar type of a key attribute.
type attributeDefinition struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// projection is an index's Projection.
type projection struct {
	ProjectionType   string   `json:"ProjectionType,omitempty"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// throughput is a ProvisionedThroughput in requests.
type throughput struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

// indexMeta is the stored definition of a secondary index.
type indexMeta struct {
	Name       string             `json:"IndexName"`
	KeySchema  []keySchemaElement `json:"KeySchema"`
	Projection projection         `json:"Projection"`
	Throughput *throughput        `json:"ProvisionedThroughput,omitempty"`
	Global     bool               `json:"Global"`
	// Online is set for a GSI created by UpdateTable; DynamoDB Local
	// describes only those with OnDemandThroughput.
	Online bool `json:"Online,omitempty"`
}

// ttlSpec is a table's time-to-live setting.
type ttlSpec struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// tableMeta is the stored definition of a table, kept as JSON in the tables
// bucket.
type tableMeta struct {
	Name                 string                `json:"TableName"`
	ID                   string                `json:"TableId"`
	KeySchema            []keySchemaElement    `json:"KeySchema"`
	AttributeDefinitions []attributeDefinition `json:"AttributeDefinitions"`
	BillingMode          string                `json:"BillingMode"`
	Throughput           *throughput           `json:"ProvisionedThroughput,omitempty"`
	Indexes              []indexMeta           `json:"Indexes,omitempty"`
	Created              float64               `json:"CreationDateTime"`
	TTL                  *ttlSpec              `json:"TimeToLive,omitempty"`
	DeletionProtection   bool                  `json:"DeletionProtectionEnabled,omitempty"`
	// Stream is the stream the table writes to, nil while none is on;
	// LatestStreamLabel names the newest it has had (stream.go).
	Stream            *tableStream `json:"Stream,omitempty"`
	LatestStreamLabel string       `json:"LatestStreamLabel,omitempty"`
	// Tags are the table's tags, ordered by key (tags.go).
	Tags []storedTag `json:"Tags,omitempty"`

	// keys is keyNames, worked out once for the metadata every request
	// shares (loadTableShared); nil in other copies.
	keys []string
	// keyParts is tableKeyParts, likewise: every read and write of an item
	// decodes its key with them.
	keyParts []keyPart
}

// hashKey returns the name of the HASH attribute of a key schema.
func hashKey(ks []keySchemaElement) string {
	for _, k := range ks {
		if k.KeyType == keyTypeHash {
			return k.AttributeName
		}
	}
	return ""
}

// rangeKey returns the name of the RANGE attribute of a key schema, or "".
func rangeKey(ks []keySchemaElement) string {
	for _, k := range ks {
		if k.KeyType == keyTypeRange {
			return k.AttributeName
		}
	}
	return ""
}

// attrType returns the declared type ("S", "N" or "B") of a key attribute.
func (m *tableMeta) attrType(name string) string {
	for _, d := range m.AttributeDefinitions {
		if d.AttributeName == name {
			return d.AttributeType
		}
	}
	return ""
}

// index returns the named index, or nil.
func (m *tableMeta) index(name string) *indexMeta {
	for i := range m.Indexes {
		if m.Indexes[i].Name == name {
			return &m.Indexes[i]
		}
	}
	return nil
}

// keyNames returns the table's key attribute names (hash, then range if any).
// The slice has no spare capacity, so a caller that appends to the names
// shared through the table cache gets a copy.
func (m *tableMeta) keyNames() []string {
	if m.keys != nil {
		return m.keys
	}
	names := []string{hashKey(m.KeySchema)}
	if r := rangeKey(m.KeySchema); r != "" {
		names = append(names, r)
	}
	return names
}

// arn returns the table's ARN.
func (e *Engine) tableARN(name string) string {
	return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", e.opts.Region, e.opts.AccountID, name)
}

// validTableName checks a table or index name (at path field) against
// DynamoDB's naming rule (shape.go's tableNameRule): 3 to 255 characters of
// a-z, A-Z, 0-9, '_', '-' and '.'.
func validTableName(field, name string) *Error {
	var v violations
	v.tableNameRule(field, name)
	return v.err()
}

// validKeySchema checks the shape of a key schema: a HASH element, then an
// optional RANGE element, each defined in defs with a scalar type.
func validKeySchema(ks []keySchemaElement, defs map[string]string) *Error {
	if len(ks) == 0 || len(ks) > 2 {
		elems := make([]string, len(ks))
		for i, k := range ks {
			elems[i] = fmt.Sprintf("KeySchemaElement(attributeName=%s, keyType=%s)", k.AttributeName, k.KeyType)
		}
		return validationf("1 validation error detected: Value '[%s]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2", strings.Join(elems, ", "))
	}
	for i, k := range ks {
		if k.KeyType != keyTypeHash && k.KeyType != keyTypeRange {
			return validationf("1 validation error detected: Value '%s' at 'keySchema.%d.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]", k.KeyType, i+1)
		}
	}
	if ks[0].KeyType != keyTypeHash {
		return invalidParamf("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	if len(ks) == 2 {
		if ks[1].KeyType != keyTypeRange {
			return invalidParamf("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
		}
		if ks[0].AttributeName == ks[1].AttributeName {
			// DynamoDB's words for one attribute named twice.
			return validationf("Invalid KeySchema: Some index key attribute have no definition")
		}
	}
	var missing []string
	for _, k := range ks {
		if k.AttributeName == "" {
			return validationf("1 validation error detected: Value '' at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
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
func validProjection(p *projection) *Error {
	switch p.ProjectionType {
	case "":
		return invalidParamf("Unknown ProjectionType: null")
	case projectionAll, projectionKeysOnly:
		if len(p.NonKeyAttributes) > 0 {
			return invalidParamf("ProjectionType is %s, but NonKeyAttributes is specified", p.ProjectionType)
		}
	case projectionInclude:
		if len(p.NonKeyAttributes) == 0 {
			return invalidParamf("ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
		}
		if len(p.NonKeyAttributes) > 100 {
			return invalidParamf("The number of NonKeyAttributes must not exceed 100")
		}
	default:
		return validationf("1 validation error detected: Value '%s' at 'projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]", p.ProjectionType)
	}
	return nil
}

// tableNameInput is the request of operations naming only a table.
type tableNameInput struct {
	TableName string `json:"TableName"`
	// tableNameAbsent is whether the request left TableName out (shape.go).
	tableNameAbsent bool
}

// decodeTableNameInput decodes the request of an operation naming only a
// table.
func decodeTableNameInput(body []byte) (*tableNameInput, error) {
	var in tableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.tableNameAbsent = absentTableName(in.TableName, body)
	return &in, nil
}

// tableNameFromSDK builds a tableNameInput from an SDK input's TableName.
func tableNameFromSDK(name *string) *tableNameInput {
	return &tableNameInput{TableName: deref(name), tableNameAbsent: name == nil}
}

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

// maxKeyNameBytes is the longest name DynamoDB accepts for a key attribute
// (of the table or of an index) and for an attribute projected into an
// index; other attribute names may have up to attr.MaxNameBytes.
const maxKeyNameBytes = 255

// errKeyName is DynamoDB's answer to a key or projected attribute name that
// is empty or longer than maxKeyNameBytes.
var errKeyName = validationf("Names of key attributes and attributes projected into an index must be between 1 and %d characters, inclusive", maxKeyNameBytes)

// validKeyName reports whether name may name a key attribute or an
// attribute projected into an index.
func validKeyName(name string) bool { return name != "" && len(name) <= maxKeyNameBytes }

// checkKeyNames checks the attribute names a table or index definition
// gives: the AttributeDefinitions (which define only key attributes), the
// key schemas and the attributes projected into the indexes. DynamoDB
// checks them before the definition's structure.
func checkKeyNames(defs []attributeDefinition, schema []keySchemaElement, indexes ...[]indexInput) *Error {
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
