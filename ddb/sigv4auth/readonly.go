package sigv4auth

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/partiql"
)

// The X-Amz-Target prefixes of DynamoDB and of DynamoDB Streams.
const (
	dynamoDBTarget = "DynamoDB_20120810."
	streamsTarget  = "DynamoDBStreams_20120810."
)

// readOperations are the DynamoDB operations that never write, which a read-only key may call
// besides every Describe* and List* one. The PartiQL operations are decided by their
// statements (readStatements).
var readOperations = map[string]bool{
	"GetItem":          true,
	"BatchGetItem":     true,
	"Query":            true,
	"Scan":             true,
	"TransactGetItems": true,
}

// partiQLStatements names, for each PartiQL operation, the body's list of statements ("" for
// ExecuteStatement's single one).
var partiQLStatements = map[string]string{
	"ExecuteStatement":      "",
	"BatchExecuteStatement": "Statements",
	"ExecuteTransaction":    "TransactStatements",
}

// operationName returns the operation X-Amz-Target names, without its prefix, and whether it
// names one of DynamoDB Streams, all of which read.
func operationName(target string) (name string, streams bool) {
	if name, ok := strings.CutPrefix(target, streamsTarget); ok {
		return name, true
	}
	name, _ = strings.CutPrefix(target, dynamoDBTarget)
	return name, false
}

// readsOnly reports whether the request, of operation target with body, cannot write: a read
// operation, any of DynamoDB Streams, or a PartiQL one whose every statement is a SELECT.
func readsOnly(target string, body []byte) bool {
	name, streams := operationName(target)
	switch {
	case streams, readOperations[name], strings.HasPrefix(name, "Describe"), strings.HasPrefix(name, "List"):
		return true
	}
	list, ok := partiQLStatements[name]
	if !ok {
		return false
	}
	if list == "" {
		return selectsOnly(body)
	}
	// JSON names are matched regardless of case, as Go's decoders match them, and every
	// member of that name, repeated or not, is checked: the engine must not run a statement
	// this did not see.
	lists, ok := members(body, list)
	if !ok || len(lists) == 0 {
		return false
	}
	for _, value := range lists {
		var statements []json.RawMessage
		if json.Unmarshal(value, &statements) != nil {
			return false
		}
		for _, st := range statements {
			if !selectsOnly(st) {
				return false
			}
		}
	}
	return true
}

// selectsOnly reports whether obj, a JSON object, has a Statement (in any case; one or more)
// and each is a PartiQL SELECT. A statement that does not parse is not known to read, so it
// counts as a write.
func selectsOnly(obj []byte) bool {
	statements, ok := members(obj, "Statement")
	if !ok || len(statements) == 0 {
		return false
	}
	for _, value := range statements {
		var text string
		if json.Unmarshal(value, &text) != nil {
			return false
		}
		st, _, err := partiql.Parse(text)
		if err != nil {
			return false
		}
		if _, ok := st.(*partiql.Select); !ok {
			return false
		}
	}
	return true
}

// members returns the values of obj's members named name in any case, repeated ones
// included (a map would keep only the last); ok is false when obj is not one JSON object.
func members(obj []byte, name string) (values []json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		if strings.EqualFold(key, name) {
			values = append(values, value)
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return values, true
}
