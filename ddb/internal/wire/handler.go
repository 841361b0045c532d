package wire

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
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// TargetPrefix is the service prefix of the X-Amz-Target header.
const TargetPrefix = "DynamoDB_20120810."

// ErrorNamespace prefixes the exception name in the __type of an error body.
const ErrorNamespace = "com.amazonaws.dynamodb.v20120810#"

// Operation handles one DynamoDB operation: it decodes body and returns the
// response value to encode as JSON.
type Operation func(e *engine.Engine, ctx context.Context, body []byte) (any, error)

// Handler serves the DynamoDB JSON 1.0 protocol for one engine: it decodes
// each request into the operation's typed input, runs the operation and
// writes its answer or its error as DynamoDB does. Request bodies in flight
// share one memory budget (NewHandler).
type Handler struct {
	engine *engine.Engine
	bodies *BodyBudget
}

// NewHandler returns the protocol handler of e, whose request bodies in
// flight hold at most requestMemory bytes (zero means DefaultRequestMemory;
// a budget is raised to what one body of unknown length needs, see
// requestbody.go).
func NewHandler(e *engine.Engine, requestMemory int64) *Handler {
	return &Handler{engine: e, bodies: NewBodyBudget(requestMemory)}
}

// ServeHTTP implements http.Handler with the DynamoDB JSON 1.0 protocol:
// POST with X-Amz-Target "DynamoDB_20120810.<Operation>" and a JSON body.
// Signatures are not verified; any credentials are accepted. Responses carry
// x-amzn-RequestId and X-Amz-Crc32 (the CRC32 of the body, which the AWS SDKs
// check).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := engine.NewID()
	var (
		resp any
		err  error
	)
	target := r.Header.Get("X-Amz-Target")
	op, ok := lookupOperation(target)
	switch {
	case r.Method != http.MethodPost:
		err = &engine.Error{Type: engine.TypeUnknownOperation, Message: "Only POST is supported"}
	case !ok:
		err = &engine.Error{Type: engine.TypeUnknownOperation, Message: "An unknown operation was requested."}
	default:
		body, release, rerr := h.bodies.Read(w, r)
		if rerr != nil {
			err = rerr
			break
		}
		// Strings are UTF-8 in DynamoDB; Amazon DynamoDB refuses a body that is not, where the
		// JSON decoders would store U+FFFD (and DynamoDB Local fails with a 500).
		if terr := attr.CheckJSONText(body); terr != nil {
			release()
			err = &engine.Error{Type: engine.TypeSerialization, Message: "Request body is not valid JSON text: " + terr.Error()}
			break
		}
		resp, err = op(h.engine, r.Context(), body)
		// The response may still hold slices of body; it is released once written.
		defer release()
	}
	status := http.StatusOK
	buf := engine.GetBuffer()
	defer engine.PutBuffer(buf)
	var out []byte
	if err != nil {
		de := engine.AsError(err)
		status = de.Status()
		out = encodeError(de)
	} else {
		out, err = engine.AppendResponse(*buf, resp)
		if err != nil {
			status = http.StatusInternalServerError
			out = encodeError(engine.InternalError(err))
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
	hdr := w.Header()
	hdr["Content-Type"] = all[0:1:1]
	hdr["X-Amzn-Requestid"] = all[1:2:2]
	hdr["X-Amz-Crc32"] = all[2:3:3]
	hdr["Content-Length"] = all[3:4:4]
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// lookupOperation returns the handler an X-Amz-Target names: a DynamoDB
// operation, or one of the Streams API (engine/streamapi.go).
func lookupOperation(target string) (Operation, bool) {
	if name, ok := strings.CutPrefix(target, TargetPrefix); ok {
		op, ok := operations[name]
		return op, ok
	}
	if name, ok := strings.CutPrefix(target, engine.StreamsTargetPrefix); ok {
		op, ok := streamOperations[name]
		return op, ok
	}
	return nil, false
}

// encodeError renders a protocol error body.
func encodeError(e *engine.Error) []byte {
	namespace := ErrorNamespace
	if e.Type == engine.TypeRequestTooLarge {
		namespace = coralServiceNamespace
	}
	body := map[string]any{"__type": namespace + e.Type}
	if e.Type == engine.TypeTransactionCanceled {
		body["Message"] = e.Message
		if e.Reasons != nil {
			body["CancellationReasons"] = e.Reasons
		}
	} else {
		body["message"] = e.Message
	}
	if e.Item != nil {
		body["Item"] = e.Item
	}
	out, err := json.Marshal(body)
	if err != nil {
		return []byte(`{"__type":"` + ErrorNamespace + engine.TypeInternal + `","message":"could not encode error"}`)
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
		var de *engine.Error
		var ve *attr.ValidationError
		if errors.As(err, &de) {
			return de
		}
		if errors.As(err, &ve) {
			return engine.InternalError(ve)
		}
		return &engine.Error{Type: engine.TypeSerialization, Message: err.Error()}
	}
	return nil
}

// TryReserveBodies takes n bytes of the request-body budget if they are
// free, and reports whether it did: tests see through it that every answered
// request gave its share back.
func (h *Handler) TryReserveBodies(n int64) bool { return h.bodies.tryReserve(n) }
