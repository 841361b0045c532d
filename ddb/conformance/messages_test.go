package conformance

import "fmt"

// Error messages are compared, as well as error types, on every step that
// expects an error, except:
//
//   - steps in the divergence registry (their expect responses are written
//     without a message unless the step sets compare.message), and
//   - the steps in typeOnlyMessages, where DynamoDB Local's wording and the
//     engine's differ. The engine's wording is often Amazon DynamoDB's own
//     (DynamoDB Local has its own validation layer in front of the shared
//     storage code), sometimes not; each entry says which differs how. The
//     engine is edited separately: when its wording changes to match,
//     remove the entry.
//
// Table names in messages are compared after being turned back into
// {{placeholders}} (see unbind), so they do not make messages differ.

// Reasons for comparing only the error type of a step.
const (
	msgNotFound = "ResourceNotFoundException: DynamoDB Local says \"Cannot do operations on a non-existent table\"; " +
		"the engine says Amazon DynamoDB's \"Requested resource not found\" (\": Table: <name> not found\" for table operations; " +
		"see the registered divergence cart-crud/describe-missing)"
	msgKeySchema = "a Key with missing, extra or mistyped attributes: DynamoDB Local says \"The number of conditions on the keys is invalid\" " +
		"or \"One or more parameter values were invalid: Type mismatch for key\"; the engine says Amazon DynamoDB's " +
		"\"The provided key element does not match the schema\""
	msgMissingKey = "an item without a key attribute: DynamoDB Local says \"One of the required keys was not given a value\"; " +
		"the engine says Amazon DynamoDB's \"One or more parameter values were invalid: Missing the key <name> in the item\""
	msgConstraint = "a parameter constraint: the engine uses the service framework's \"1 validation error detected: Value … at '…' " +
		"failed to satisfy constraint: …\", DynamoDB Local its own sentence (or the framework's with different bounds)"
	msgTableSchema = "CreateTable/UpdateTable schema validation: DynamoDB Local has its own sentences; the engine uses " +
		"\"One or more parameter values were invalid: …\" sentences"
	msgPrecision = "a number needing more than 38 digits: DynamoDB Local says \"DynamoDB only supports precision up to 38 digits\"; " +
		"the engine says \"Attempting to store more than 38 significant digits in a Number\", as Amazon DynamoDB's PutItem does " +
		"(https://github.com/warpstreamlabs/bento/pull/909)"
	msgSegments = "Scan Segment/TotalSegments validation: DynamoDB Local and the engine word it differently"
	msgOther    = "the wordings differ (see the comment above the entry)"
)

// msgTableName is the reason for the steps naming a table no table could
// have (the names case).
const msgTableName = "a table name no table could have: DynamoDB Local says \"Invalid table/index name.  Table/index names must be between 3 and 255 characters long, …\"; " +
	"the engine says Amazon DynamoDB's \"1 validation error detected: Value '…' at 'tableName' failed to satisfy constraint: …\" " +
	"(the public conformance suite's tier3/error-messages/putItem and createTable)"

// msgPartiQLSyntax is the reason for PartiQL statements the engine refuses
// in words of its own: DynamoDB Local quotes the statement back.
const msgPartiQLSyntax = "a PartiQL statement refused: DynamoDB Local says \"Statement wasn't well formed, can't be processed: <the statement>\"; " +
	"the engine says what it expected where (ddb/partiql)"

// msgDuplicates is the reason for set-duplicate steps.
const msgDuplicates = "a set with duplicate members: DynamoDB Local says \"Input collection [a, a] contains duplicates\"; " +
	"the engine adds the period Amazon DynamoDB ends the sentence with (the public conformance suite's tier3/error-messages/putItem)"

// typeOnlyMessages lists the error steps ("case/step") whose messages are
// not compared, with the reason.
var typeOnlyMessages = map[string]string{
	"batch/get-missing-table":                   msgNotFound,
	"names/get-no-such-table":                   msgNotFound,
	"names/get-short":                           msgTableName,
	"names/put-short-chars":                     msgTableName,
	"names/update-long":                         msgTableName,
	"names/delete-chars":                        msgTableName,
	"names/query-short":                         msgTableName,
	"names/scan-short":                          msgTableName,
	"names/batch-get-short":                     msgTableName,
	"names/batch-write-chars":                   msgTableName,
	"names/transact-write-short":                msgTableName,
	"names/describe-short":                      msgTableName,
	"names/update-table-short":                  msgTableName,
	"names/delete-table-empty":                  msgTableName,
	"names/describe-ttl-short":                  msgTableName,
	"names/update-ttl-short":                    msgTableName,
	"batch/write-missing-table":                 msgNotFound,
	"items-put-get-delete/put-no-table":         msgNotFound,
	"query-key-conditions/no-table":             msgNotFound,
	"scan/missing-table":                        msgNotFound,
	"table-lifecycle/#10":                       msgNotFound,
	"table-lifecycle/#11":                       msgNotFound,
	"table-lifecycle/#12":                       msgNotFound,
	"table-lifecycle/#23":                       msgNotFound,
	"transact-get/missing-table":                msgNotFound,
	"transact-write/missing-table":              msgNotFound,
	"ttl/missing-table":                         msgNotFound,
	"update-upsert-and-conditions/#12":          msgNotFound,
	"update-upsert-and-conditions/#7":           msgConstraint,
	"partiql/no-table":                          msgNotFound,
	"partiql/syntax-error":                      msgPartiQLSyntax,
	"partiql-batch/batch-empty":                 msgConstraint,
	"partiql-batch/transaction-empty":           msgConstraint,
	"partiql-batch/batch-mixed":                 msgPartiQLSyntax,
	"batch/get-101":                             msgConstraint,
	"batch/write-26":                            msgConstraint,
	"expr-conditions/dup-set":                   msgDuplicates,
	"items-put-get-delete/put-duplicate-set":    msgDuplicates,
	"batch/get-incomplete-key":                  msgKeySchema,
	"cart-crud/#7":                              msgKeySchema,
	"items-put-get-delete/get-extra-key":        msgKeySchema,
	"items-put-get-delete/get-wrong-key-type":   msgKeySchema,
	"update-upsert-and-conditions/#8":           msgKeySchema,
	"update-upsert-and-conditions/#9":           msgKeySchema,
	"update-upsert-and-conditions/#10":          msgKeySchema,
	"batch/write-incomplete-key":                msgMissingKey,
	"items-put-get-delete/put-missing-sort-key": msgMissingKey,
	"transact-write/missing-sort-key":           msgMissingKey,
	// Local: "BatchGetItem must have some requests set"
	// engine: "1 validation error detected: Value null at 'requestItems' failed to satisfy constraint: Member must …"
	"batch/get-empty": msgConstraint,
	// Local: "The list of keys in RequestItems for BatchGetItem is required: {{a}} has empty list"
	// engine: "1 validation error detected: Value '[]' at 'requestItems.{{a}}.member.keys' failed to satisfy constr…"
	"batch/get-no-keys": msgConstraint,
	// Local: "BatchWriteItem cannot have a null or no requests set"
	// engine: "1 validation error detected: Value null at 'requestItems' failed to satisfy constraint: Member must …"
	"batch/write-empty": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must hav…"
	"create-table-validation/name-short": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy constraint: Member m…"
	"create-table-validation/name-chars": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
	"create-table-validation/name-long": msgConstraint,
	// Local: "No defined key schema.  A key schema containing at least a hash key must be defined for all tables"
	// engine: "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: Member must hav…"
	"create-table-validation/no-key-schema": msgConstraint,
	// Local: "Member must satisfy enum value set: [B, N, S]"
	// engine: "One or more parameter values were invalid: Member must satisfy enum value set: [B, N, S] for Attribu…"
	"create-table-validation/bool-key": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'g' at 'indexName' failed to satisfy constraint: Member must have…"
	"create-table-validation/gsi-duplicate-name": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'g' at 'indexName' failed to satisfy constraint: Member must have…"
	"create-table-validation/gsi-include-without-attrs": msgConstraint,
	// Local: "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may cont…"
	// engine: "1 validation error detected: Value 'g' at 'indexName' failed to satisfy constraint: Member must have…"
	"create-table-validation/gsi-keys-only-with-attrs": msgConstraint,
	// Local: "Value null at 'tableName' failed to satisfy constraint: Member must not be null"
	// engine: "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"
	"items-put-get-delete/put-no-table-name": msgConstraint,
	// Local: "Limit must be greater than or equal to 1"
	// engine: "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have val…"
	"list-tables/limit-zero": msgConstraint,
	// Local: "Limit in ListTables must be <= 100"
	// engine: "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have v…"
	"list-tables/limit-101": msgConstraint,
	// Local: "Limit must be greater than or equal to 1"
	// engine: "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have val…"
	"query-key-conditions/limit-zero": msgConstraint,
	// Local: "Select must be ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or SPECIFIC_ATTRIBUTES"
	// engine: "1 validation error detected: Value 'EVERYTHING' at 'select' failed to satisfy constraint: Member mus…"
	"query-key-conditions/bad-select": msgConstraint,
	// Local: "Limit must be greater than or equal to 1"
	// engine: "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have val…"
	"scan/limit-zero": msgConstraint,
	// Local: "Value null at 'transactItems' failed to satisfy constraint: Member must not be null"
	// engine: "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have…"
	"transact-get/empty": msgConstraint,
	// Local: "Value null at 'transactItems' failed to satisfy constraint: Member must not be null"
	// engine: "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have…"
	"transact-write/empty": msgConstraint,
	// Local: "Member must have length less than or equal to 100"
	// engine: "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have…"
	"transact-write/hundred-and-one-items": msgConstraint,
	// Local: "Too many hash keys specified.  All Dynamo DB tables must have exactly one hash key"
	// engine: "One or more parameter values were invalid: Invalid KeySchema: The second KeySchemaElement is not a R…"
	"create-table-validation/two-hash": msgTableSchema,
	// Local: "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second"
	// engine: "One or more parameter values were invalid: Invalid KeySchema: The first KeySchemaElement is not a HA…"
	"create-table-validation/range-first": msgTableSchema,
	// Local: "Hash Key not specified in Attribute Definitions.  Type unknown."
	// engine: "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDef…"
	"create-table-validation/undefined-key-attr": msgTableSchema,
	// Local: "The number of attributes in key schema must match the number of attributes defined in attribute definitions."
	// engine: "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match …"
	"create-table-validation/unused-definition": msgTableSchema,
	// Local: "No provisioned throughput specified for the table"
	// engine: "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be spe…"
	"create-table-validation/provisioned-no-throughput": msgTableSchema,
	// Local: "Table read and write throughput must be at least 1, and cannot be null"
	// engine: "One or more parameter values were invalid: Provisioned throughput must be positive"
	"create-table-validation/zero-throughput": msgTableSchema,
	// Local: "Local Secondary indices are not allowed on hash tables, only hash and range tables"
	// engine: "One or more parameter values were invalid: Table KeySchema does not have a range key, which is requi…"
	"create-table-validation/lsi-without-range": msgTableSchema,
	// Local: "Local Secondary indices must have the same hash key as the main table"
	// engine: "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key a…"
	"create-table-validation/lsi-other-hash": msgTableSchema,
	// Local: "One or more parameter values were invalid: Type mismatch for Index Key"
	// engine: "One or more parameter values were invalid: Type mismatch for Index Key L Expected: N Actual: S IndexName: lsi"
	"create-table-validation/index-key-wrong-type": msgTableSchema,
	// Local: "Attempting to create an index which already exists"
	// engine: "One or more parameter values were invalid: Index byG already exists"
	"gsi-create-backfill/create-duplicate": msgTableSchema,
	// Local: "Requested resource not found"
	// engine: "Requested resource not found: Index: nope not found"
	"gsi-create-backfill/delete-missing": msgTableSchema,
	"numbers/invalid-3":                  msgPrecision,
	"numbers/add-39-digits":              msgPrecision,
	"numbers/overflow":                   msgPrecision,
	"numbers/no-rounding-39th-digit":     msgPrecision,
	// Local: "1 validation error detected: Value '3' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 3 is not…"
	"scan/segment-out-of-range": msgSegments,
	// Local: "If segment is specified, total segment must also be specified"
	// engine: "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
	"scan/segment-without-total": msgSegments,
	// Local: "If total segments is specified, a particular segment must also be specified for this request"
	// engine: "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"
	"scan/total-without-segment": msgSegments,
	// Local: "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member…"
	// engine: "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member…"
	"scan/too-many-segments": msgSegments,
	// Local: "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes"
	// engine: "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
	"item-limits/hash-key-2049": msgOther,
	// Local: "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes"
	// engine: "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size l…"
	"item-limits/sort-key-1025": msgOther,
	// Local: "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supp…"
	// engine: "Nesting Levels have exceeded supported limits"
	"item-limits/depth-33": msgOther,
	// Local: "Query condition missed key schema element"
	// engine: "Query condition missed key schema element: PK"
	"query-key-conditions/no-hash": msgOther,
	// Local: "Query condition missed key schema element"
	// engine: "Query condition missed key schema element: SK"
	"query-key-conditions/non-key": msgOther,
	// Local: "Cannot specify the ProjectionExpression when choosing to get only the Count"
	// engine: "Cannot specify the ProjectionExpression when choosing to get COUNT"
	"query-key-conditions/count-with-projection": msgOther,
	// Local: "Exclusive Start Key must have same size as table's key schema"
	// engine: "The provided starting key is invalid: The provided key element does not match the schema"
	"query-key-conditions/start-key-incomplete": msgOther,
	// Local: "Cannot create preexisting table"
	// engine: "Table already exists: {{a}}"
	"table-lifecycle/#6": msgOther,
	// Local: ""
	// engine: "The request uses the same client token as a previous, but non-identical request."
	"transact-write/token-mismatch": msgOther,
	// Local: "TimeToLive is active on a different AttributeName"
	// engine: "TimeToLive is active on a different AttributeName: current AttributeName is expires"
	"ttl/disable-wrong-attr": msgOther,
	// Local: "1 validation error detected: Value '3' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 3 is not…"
	"scan-segments/segment-equals-total": msgSegments,
	// Local: "1 validation error detected: Value '8' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 8 is not…"
	"scan-segments/segment-above-total": msgSegments,
	// Local: "1 validation error detected: Value '1' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 1 is not…"
	"scan-segments/segment-1-of-1": msgSegments,
	// Local: "1 validation error detected: Value '0' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "1 validation error detected: Value '0' at 'totalSegments' failed to satisfy constraint: Member must …"
	"scan-segments/total-zero": msgSegments,
	// Local: "1 validation error detected: Value '0' at 'segment' failed to satisfy constraint: Member must have v…"
	// engine: "1 validation error detected: Value '-1' at 'totalSegments' failed to satisfy constraint: Member must…"
	"scan-segments/total-negative": msgSegments,
	// Local: "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member…"
	// engine: "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member…"
	"scan-segments/total-over-a-million": msgSegments,
	// Local: "1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: Member must have …"
	// engine: "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: -1 is no…"
	"scan-segments/segment-negative": msgSegments,
	// Local: "If segment is specified, total segment must also be specified"
	// engine: "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
	"scan-segments/segment-without-total": msgSegments,
	// Local: "If total segments is specified, a particular segment must also be specified for this request"
	// engine: "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"
	"scan-segments/total-without-segment": msgSegments,
	// Local: "Exclusive Start Key must have same size as table's key schema"
	// engine: "The provided starting key is invalid: The provided key element does not match the schema"
	"scan-segments/segment-with-start-key-of-other-table": msgOther,
	"scan-segments/missing-table":                         msgNotFound,
	"ttl-expiry/update-missing-table":                     msgNotFound,
	"ttl-expiry/describe-missing-table":                   msgNotFound,
	// Local: "TimeToLiveSpecification cannot be null"
	// engine: "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: M…"
	"ttl-expiry/no-specification": msgOther,
	// Local: "TimeToLive is active on a different AttributeName"
	// engine: "TimeToLive is active on a different AttributeName: current AttributeName is exp"
	"ttl-expiry/disable-other-attribute": msgOther,
}

// compareMessage reports whether a step's error messages are compared.
func compareMessage(caseName string, s Step, div Divergence) bool {
	if s.Compare.Message {
		return true
	}
	if s.Error == "" || div.valid() {
		return false
	}
	_, typeOnly := typeOnlyMessages[caseName+"/"+s.ID]
	return !typeOnly
}

// checkTypeOnlyMessages checks that every entry of typeOnlyMessages names an
// existing step that expects an error.
func checkTypeOnlyMessages(cases []Case) error {
	steps := map[string]Step{}
	for _, c := range cases {
		for _, s := range c.allSteps() {
			steps[c.Name+"/"+s.ID] = s
		}
	}
	for key := range typeOnlyMessages {
		s, ok := steps[key]
		if !ok {
			return fmt.Errorf("typeOnlyMessages: no step %s", key)
		}
		if s.Error == "" {
			return fmt.Errorf("typeOnlyMessages: step %s expects no error", key)
		}
	}
	return nil
}
