package ddb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// targetPrefix is the service prefix of the X-Amz-Target header.
const targetPrefix = "DynamoDB_20120810."

// errorNamespace prefixes the exception name in the __type of an error body.
const errorNamespace = "com.amazonaws.dynamodb.v20120810#"

// operation handles one DynamoDB operation: it decodes body and returns the
// response value to encode as JSON.
type operation func(e *Engine, ctx context.Context, body []byte) (any, error)

// operations maps X-Amz-Target operation names to handlers.
var operations map[string]operation

func init() {
	operations = map[string]operation{
		"CreateTable":           opCreateTable,
		"DescribeTable":         opDescribeTable,
		"ListTables":            opListTables,
		"DeleteTable":           opDeleteTable,
		"UpdateTable":           opUpdateTable,
		"UpdateTimeToLive":      opUpdateTimeToLive,
		"DescribeTimeToLive":    opDescribeTimeToLive,
		"GetItem":               opGetItem,
		"PutItem":               opPutItem,
		"UpdateItem":            opUpdateItem,
		"DeleteItem":            opDeleteItem,
		"Query":                 opQuery,
		"Scan":                  opScan,
		"BatchGetItem":          opBatchGetItem,
		"BatchWriteItem":        opBatchWriteItem,
		"TransactWriteItems":    opTransactWriteItems,
		"TransactGetItems":      opTransactGetItems,
		"TagResource":           opTagResource,
		"UntagResource":         opUntagResource,
		"ListTagsOfResource":    opListTagsOfResource,
		"ExecuteStatement":      opExecuteStatement,
		"BatchExecuteStatement": opBatchExecuteStatement,
		"ExecuteTransaction":    opExecuteTransaction,
	}
}

// lookupOperation returns the handler an X-Amz-Target names: a DynamoDB
// operation, or one of the Streams API (streamapi.go).
func lookupOperation(target string) (operation, bool) {
	if name, ok := strings.CutPrefix(target, targetPrefix); ok {
		op, ok := operations[name]
		return op, ok
	}
	if name, ok := strings.CutPrefix(target, streamsTargetPrefix); ok {
		op, ok := streamOperations[name]
		return op, ok
	}
	return nil, false
}

// ServeHTTP implements http.Handler with the DynamoDB JSON 1.0 protocol:
// POST with X-Amz-Target "DynamoDB_20120810.<Operation>" and a JSON body.
// Signatures are not verified; any credentials are accepted. Responses carry
// x-amzn-RequestId and X-Amz-Crc32 (the CRC32 of the body, which the AWS SDKs
// check).
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := newID()
	var (
		resp any
		err  error
	)
	target := r.Header.Get("X-Amz-Target")
	op, ok := lookupOperation(target)
	switch {
	case r.Method != http.MethodPost:
		err = &Error{Type: typeUnknownOperation, Message: "Only POST is supported"}
	case !ok:
		err = &Error{Type: typeUnknownOperation, Message: "An unknown operation was requested."}
	default:
		body, release, rerr := e.bodies.read(w, r)
		if rerr != nil {
			err = rerr
			break
		}
		// Strings are UTF-8 in DynamoDB; Amazon DynamoDB refuses a body that is not, where the
		// JSON decoders would store U+FFFD (and DynamoDB Local fails with a 500).
		if terr := attr.CheckJSONText(body); terr != nil {
			release()
			err = &Error{Type: typeSerialization, Message: "Request body is not valid JSON text: " + terr.Error()}
			break
		}
		resp, err = op(e, r.Context(), body)
		// The response may still hold slices of body; it is released once written.
		defer release()
	}
	status := http.StatusOK
	buf := getBuffer()
	defer putBuffer(buf)
	var out []byte
	if err != nil {
		de := asError(err)
		status = de.status()
		out = encodeError(de)
	} else {
		out, err = appendResponse(*buf, resp)
		if err != nil {
			status = http.StatusInternalServerError
			out = encodeError(internalError(err))
		} else {
			*buf = out // keep the grown buffer for the next response
		}
	}
	// The four values share one backing array (Header.Set makes a slice
	// each); every slice's capacity is its length, so an append to one
	// cannot reach the next. The keys are as Header.Set canonicalizes them.
	vals := [...]string{"application/x-amz-json-1.0", reqID,
		strconv.FormatUint(uint64(crc32.ChecksumIEEE(out)), 10), strconv.Itoa(len(out))}
	all := vals[:]
	h := w.Header()
	h["Content-Type"] = all[0:1:1]
	h["X-Amzn-Requestid"] = all[1:2:2]
	h["X-Amz-Crc32"] = all[2:3:3]
	h["Content-Length"] = all[3:4:4]
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// encodeError renders a protocol error body.
func encodeError(e *Error) []byte {
	namespace := errorNamespace
	if e.Type == typeRequestTooLarge {
		namespace = coralServiceNamespace
	}
	body := map[string]any{"__type": namespace + e.Type}
	if e.Type == typeTransactionCanceled {
		body["Message"] = e.Message
		if e.reasons != nil {
			body["CancellationReasons"] = e.reasons
		}
	} else {
		body["message"] = e.Message
	}
	if e.item != nil {
		body["Item"] = e.item
	}
	out, err := json.Marshal(body)
	if err != nil {
		return []byte(`{"__type":"` + errorNamespace + typeInternal + `","message":"could not encode error"}`)
	}
	return out
}

// decode unmarshals a request body into v, mapping JSON errors to the
// SerializationException DynamoDB returns for malformed requests.
//
// go-json decodes a well-formed request in about half the time of
// encoding/json (a quarter of a TransactWriteItems' server time went to
// encoding/json). Its errors read differently, so a request it refuses is
// decoded again by encoding/json, whose messages the SerializationExceptions
// have always carried. FuzzDecodeMatchesEncodingJSON checks that what
// go-json accepts, encoding/json accepts the same way.
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if gojson.Unmarshal(body, v) == nil {
		return nil
	}
	reflect.ValueOf(v).Elem().SetZero() // go-json may have filled part of it
	if err := json.Unmarshal(body, v); err != nil {
		var de *Error
		var ve *attr.ValidationError
		if errors.As(err, &de) {
			return de
		}
		if errors.As(err, &ve) {
			return internalError(ve)
		}
		return &Error{Type: typeSerialization, Message: err.Error()}
	}
	return nil
}
