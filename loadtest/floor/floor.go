// Package floor is the GraphQL floor: an HTTP server that answers each request of the load
// tool's standard mix with quickphotos's own recorded answer for it, doing nothing else but
// what any server must do for it. It is the limit no GraphQL server on the same machine can
// beat, so a server's share of the floor's throughput, operation by operation, says how much of
// the distance left is the server's own.
//
// A read's answer is found by the request's body alone (a map lookup; the load tool sends each
// request with the same bytes every time), so nothing is parsed. A mutation's is found by its
// document, read up to the end of the body's first string, and answered only once the request
// is appended to a log and the disk holds it, in an fdatasync shared by the writes in flight,
// as the engine's group commit shares it (the engine's own floor, ddb/bench, does the same
// below the engine). A request the recording does not hold is refused with HTTP 400 and the
// code FLOOR_NO_ANSWER, and counted: a measured round that met one is not a floor's.
//
// The answers are recorded from a running quickphotos (Record), with the requests
// loadtest.Requests lists for the sample the servers hold: every distinct read the mix sends,
// and one answer of each mutation, whose real answers differ each time only in their values.
// The floor listens, and records, on loopback addresses only.
package floor

import (
	"bytes"
	"net/http"
	"sync"
	"sync/atomic"
)

// maxBody bounds a request's body: the mix's requests are a few hundred bytes.
const maxBody = 64 << 10

// noAnswer is the refusal of a request the recording does not hold.
var noAnswer = []byte(`{"errors":[{"message":"the floor holds no recorded answer for this request","extensions":{"code":"FLOOR_NO_ANSWER"}}]}`)

// Floor answers the recorded requests; it is an http.Handler.
type Floor struct {
	rec *Recording
	log *writeLog
	// missed counts the requests it refused.
	missed atomic.Int64
	bodies sync.Pool
}

// New serves rec, logging mutations to a log file it creates at logPath.
func New(rec *Recording, logPath string) (*Floor, error) {
	l, err := openLog(logPath)
	if err != nil {
		return nil, err
	}
	return &Floor{rec: rec, log: l, bodies: sync.Pool{New: func() any { return new(bytes.Buffer) }}}, nil
}

// Missed is how many requests the floor refused for want of a recorded answer.
func (f *Floor) Missed() int64 { return f.missed.Load() }

// Close closes the log file.
func (f *Floor) Close() error { return f.log.close() }

func (f *Floor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "the floor answers POST requests", http.StatusMethodNotAllowed)
		return
	}
	buf := f.bodies.Get().(*bytes.Buffer)
	defer f.bodies.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBody)); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body := buf.Bytes()
	if a, ok := f.rec.reads[string(body)]; ok {
		write(w, a)
		return
	}
	if key, ok := documentKey(body); ok {
		if a, ok := f.rec.writes[string(key)]; ok {
			// The buffer is not reused before append returns: the log holds the request by then.
			if err := f.log.append(body); err != nil {
				http.Error(w, "the floor's log: "+err.Error(), http.StatusInternalServerError)
				return
			}
			write(w, a)
			return
		}
	}
	f.missed.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(noAnswer)
}

// write sends a recorded answer.
func write(w http.ResponseWriter, a Answer) {
	w.Header().Set("Content-Type", a.ContentType)
	_, _ = w.Write(a.Body)
}

// queryPrefix starts every body the load tool sends: its encoder puts "query" first.
var queryPrefix = []byte(`{"query":"`)

// documentKey is the start of body up to the end of its query's string, the document: the key
// of a mutation's answer, read without decoding the body. ok is false when the body does not
// start with a query string.
func documentKey(body []byte) (key []byte, ok bool) {
	if !bytes.HasPrefix(body, queryPrefix) {
		return nil, false
	}
	for i := len(queryPrefix); i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++ // an escaped character, perhaps a quote
		case '"':
			return body[:i+1], true
		}
	}
	return nil, false
}
