package storage

// Key types and projection types of the DynamoDB API.
const (
	KeyTypeHash  = "HASH"
	KeyTypeRange = "RANGE"

	ProjectionAll      = "ALL"
	ProjectionKeysOnly = "KEYS_ONLY"
	ProjectionInclude  = "INCLUDE"

	BillingProvisioned   = "PROVISIONED"
	BillingPayPerRequest = "PAY_PER_REQUEST"
)

// KeySchemaElement is one element of a KeySchema.
type KeySchemaElement struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// AttributeDefinition declares the scalar type of a key attribute.
type AttributeDefinition struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// Projection is an index's Projection.
type Projection struct {
	ProjectionType   string   `json:"ProjectionType,omitempty"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// Throughput is a ProvisionedThroughput in requests.
type Throughput struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

// IndexMeta is the stored definition of a secondary index.
type IndexMeta struct {
	Name       string             `json:"IndexName"`
	KeySchema  []KeySchemaElement `json:"KeySchema"`
	Projection Projection         `json:"Projection"`
	Throughput *Throughput        `json:"ProvisionedThroughput,omitempty"`
	Global     bool               `json:"Global"`
	// Online is set for a GSI created by UpdateTable; DynamoDB Local
	// describes only those with OnDemandThroughput.
	Online bool `json:"Online,omitempty"`
}

// TTLSpec is a table's time-to-live setting.
type TTLSpec struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// TableMeta is the stored definition of a table, kept as JSON in the tables
// bucket.
type TableMeta struct {
	Name                 string                `json:"TableName"`
	ID                   string                `json:"TableId"`
	KeySchema            []KeySchemaElement    `json:"KeySchema"`
	AttributeDefinitions []AttributeDefinition `json:"AttributeDefinitions"`
	BillingMode          string                `json:"BillingMode"`
	Throughput           *Throughput           `json:"ProvisionedThroughput,omitempty"`
	Indexes              []IndexMeta           `json:"Indexes,omitempty"`
	Created              float64               `json:"CreationDateTime"`
	TTL                  *TTLSpec              `json:"TimeToLive,omitempty"`
	DeletionProtection   bool                  `json:"DeletionProtectionEnabled,omitempty"`
	// Stream is the stream the table writes to, nil while none is on;
	// LatestStreamLabel names the newest it has had (engine/stream.go).
	Stream            *TableStream `json:"Stream,omitempty"`
	LatestStreamLabel string       `json:"LatestStreamLabel,omitempty"`
	// Tags are the table's tags, ordered by key (tags.go).
	Tags []StoredTag `json:"Tags,omitempty"`

	// keys is KeyNames, worked out once for the metadata every request
	// shares (LoadTableShared); nil in other copies.
	keys []string
	// keyParts is TableKeyParts, likewise: every read and write of an item
	// decodes its key with them.
	keyParts []KeyPart
}

// HashKey returns the name of the HASH attribute of a key schema.
func HashKey(ks []KeySchemaElement) string {
	for _, k := range ks {
		if k.KeyType == KeyTypeHash {
			return k.AttributeName
		}
	}
	return ""
}

// RangeKey returns the name of the RANGE attribute of a key schema, or "".
func RangeKey(ks []KeySchemaElement) string {
	for _, k := range ks {
		if k.KeyType == KeyTypeRange {
			return k.AttributeName
		}
	}
	return ""
}

// AttrType returns the declared type ("S", "N" or "B") of a key attribute.
func (m *TableMeta) AttrType(name string) string {
	for _, d := range m.AttributeDefinitions {
		if d.AttributeName == name {
			return d.AttributeType
		}
	}
	return ""
}

// Index returns the named index, or nil.
func (m *TableMeta) Index(name string) *IndexMeta {
	for i := range m.Indexes {
		if m.Indexes[i].Name == name {
			return &m.Indexes[i]
		}
	}
	return nil
}

// KeyNames returns the table's key attribute names (hash, then range if any).
// The slice has no spare capacity, so a caller that appends to the names
// shared through the table cache gets a copy.
func (m *TableMeta) KeyNames() []string {
	if m.keys != nil {
		return m.keys
	}
	names := []string{HashKey(m.KeySchema)}
	if r := RangeKey(m.KeySchema); r != "" {
		names = append(names, r)
	}
	return names
}
