package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// postJSON is gqlgen's POST transport (transport.POST, whose requests, headers, statuses and
// errors it keeps) with the answer written by writeResponse. gqlgen writes it with json.Marshal,
// which checks and compacts the data gqlgen has just written, byte by byte through
// encoding/json's scanner: a tenth of a list read's CPU went to rereading its own answer.
type postJSON struct{}

var _ graphql.Transport = postJSON{}

func (postJSON) Supports(r *http.Request) bool { return transport.POST{}.Supports(r) }

func (postJSON) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := responseContentType(r)
	w.Header().Add("Content-Type", contentType)
	start := graphql.Now()

	body, err := requestBody(r)
	if err != nil {
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("could not read request body: %+v", err)}), nil)
		return
	}
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		gqlErr := gqlerror.Errorf("json request body could not be decoded: %+v body:%s", err, string(body))
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlErr}), nil)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}

	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		w.WriteHeader(operationErrorStatus(contentType, opErr))
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr), nil)
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	// The executed operation's answer goes out with its Content-Length. Past the 2 KB net/http
	// holds to measure a body itself, it would otherwise be sent chunked, and the last, empty
	// chunk written on its own: a syscall and a packet more for every list read. A refusal's is
	// not sized: its status and body may still be rewritten on their way out (overHTTPStatus).
	writeResponse(w, responses(ctx), w.Header())
}

const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// responseContentType is the media type of the answer, as transport.POST chooses it: the first
// of the Accept header's types it knows, application/json when Accept is missing or takes
// anything, application/graphql-response+json when Accept names neither.
func responseContentType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return mediaJSON
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", mediaJSON:
			return mediaJSON
		case mediaGraphQLResponse:
			return mediaGraphQLResponse
		}
	}
	return mediaGraphQLResponse
}

// operationErrorStatus is the status of a request whose operation could not be prepared (it did
// not parse or validate, or an extension refused it), as transport.POST gives it: a protocol
// error is 422 in application/json and 400 in application/graphql-response+json.
func operationErrorStatus(contentType string, errs gqlerror.List) int {
	if errcode.GetErrorKind(errs) != errcode.KindProtocol {
		return http.StatusOK
	}
	if contentType == mediaGraphQLResponse {
		return http.StatusBadRequest
	}
	return http.StatusUnprocessableEntity
}

// responseBuffers hold answers while they are written, so that an answer's buffer is reused by
// a later one.
var responseBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledResponse bounds the buffers kept for reuse: one large answer must not hold its
// memory for good.
const maxPooledResponse = 64 << 10

// writeResponse writes resp to w as json.Marshal would, byte for byte, without rereading its
// data through encoding/json's scanner: gqlgen's marshallers write valid, compact JSON, and
// json.Marshal's only change to it is escaping <, >, & (for HTML) and U+2028, U+2029 (for
// JavaScript), which writeEscaped does as it copies. An answer with fields of incremental
// delivery, which this transport never sends, is marshalled. header, when not nil, gets the
// answer's Content-Length before it is written.
func writeResponse(w io.Writer, resp *graphql.Response, header http.Header) {
	if resp.Label != "" || resp.Path != nil || resp.HasNext != nil {
		b, err := json.Marshal(resp)
		if err != nil {
			panic(fmt.Errorf("unable to marshal %s: %w", string(resp.Data), err))
		}
		if header != nil {
			header.Set("Content-Length", strconv.Itoa(len(b)))
		}
		_, _ = w.Write(b)
		return
	}
	buf := responseBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledResponse {
			buf.Reset()
			responseBuffers.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	buf.WriteByte('{')
	if len(resp.Errors) > 0 {
		buf.WriteString(`"errors":`)
		if err := enc.Encode(resp.Errors); err != nil {
			panic(fmt.Errorf("unable to marshal the errors of %s: %w", string(resp.Data), err))
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(',')
	}
	buf.WriteString(`"data":`)
	if resp.Data == nil {
		buf.WriteString("null")
	} else {
		writeEscaped(buf, resp.Data)
	}
	if len(resp.Extensions) > 0 {
		buf.WriteString(`,"extensions":`)
		if err := enc.Encode(resp.Extensions); err != nil {
			panic(fmt.Errorf("unable to marshal the extensions of %s: %w", string(resp.Data), err))
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	if header != nil {
		header.Set("Content-Length", strconv.Itoa(buf.Len()))
	}
	_, _ = w.Write(buf.Bytes())
}

// writeEscaped copies the JSON text data to buf with <, >, &, U+2028 and U+2029 escaped, as
// json.Marshal escapes them in a raw message. In JSON they can stand only inside strings, so
// each is replaced where it is found.
func writeEscaped(buf *bytes.Buffer, data []byte) {
	start := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '<' || c == '>' || c == '&':
			buf.Write(data[start:i])
			buf.WriteString(`\u00`)
			buf.WriteByte(hexDigits[c>>4])
			buf.WriteByte(hexDigits[c&0xF])
			start = i + 1
		case c == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && data[i+2]&^1 == 0xA8:
			buf.Write(data[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hexDigits[data[i+2]&0xF])
			i += 2
			start = i + 1
		}
	}
	buf.Write(data[start:])
}

const hexDigits = "0123456789abcdef"
