package conformance

import (
	"bytes"
	"context"

	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The engine's in-process APIs (ddb.Engine.API, and Engine.StreamsAPI for
// the Streams API) against its HTTP path: every case runs on two engines,
// one reached over HTTP as in TestConformance and one through a transport
// that turns each JSON request into the SDK input the in-process API takes
// (sdkjson_test.go), calls it, and renders its typed output or error back
// as the JSON answer. The two answers of each step are compared after
// normalisation, error messages included. Requests that have no SDK form,
// and operations the in-process APIs do not serve, go
// to the second engine over HTTP so that both engines keep the same state;
// such steps are counted, not compared in process.

// newInProcessTarget starts a fresh engine reached through its in-process APIs
// (engine_test.go sets it): requests go through an inProcessTransport calling
// api and streams, with handler (the engine over HTTP) for the rest.
var newInProcessTarget func(tb testing.TB, counts *inProcessCounts) *target

// inProcessCounts tallies what the in-process target did, over all cases.
type inProcessCounts struct {
	mu        sync.Mutex
	inProcess int            // requests answered by the in-process API
	overHTTP  map[string]int // requests sent over HTTP instead, by reason
}

// count records one request; reason is "" for one the in-process API
// answered.
func (c *inProcessCounts) count(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if reason == "" {
		c.inProcess++
		return
	}
	if c.overHTTP == nil {
		c.overHTTP = map[string]int{}
	}
	c.overHTTP[reason]++
}

// snapshot returns the totals so far.
func (c *inProcessCounts) snapshot() (inProcess, overHTTP int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.overHTTP {
		overHTTP += n
	}
	return c.inProcess, overHTTP
}

// inProcessTransport answers DynamoDB JSON requests with the in-process API
// api (a *ddb.API), and those of the Streams API with streams (a
// *ddb.StreamsAPI), whose methods are looked up by operation name.
type inProcessTransport struct {
	api, streams any
	handler      http.Handler
	counts       *inProcessCounts
}

// RoundTrip implements http.RoundTripper.
func (t *inProcessTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	target := req.Header.Get("X-Amz-Target")
	service, op, _ := strings.Cut(target, ".")
	api := t.api
	if service+"." == streamsTargetPrefix {
		api = t.streams
	}
	status, answer, reason := t.call(req.Context(), api, op, body)
	if reason != "" {
		t.counts.count(reason)
		req.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		t.handler.ServeHTTP(rec, req)
		return rec.Result(), nil
	}
	t.counts.count("")
	out := mustJSON(answer)
	return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(out)), ContentLength: int64(len(out)), Request: req}, nil
}

// call calls the method op of api, an in-process API, with body
// converted, and returns the JSON answer; reason says why the request went
// over HTTP instead.
func (t *inProcessTransport) call(ctx context.Context, api any, op string, body []byte) (status int, answer any, reason string) {
	m := reflect.ValueOf(api).MethodByName(op)
	if !m.IsValid() {
		return 0, nil, op + ": not an operation of the in-process API"
	}
	in := reflect.New(m.Type().In(1).Elem())
	if err := jsonToSDK(body, in.Interface()); err != nil {
		return 0, nil, op + ": no SDK input for the request (" + trimPath(err.Error()) + ")"
	}
	res := m.Call([]reflect.Value{reflect.ValueOf(ctx), in})
	if err, _ := res[1].Interface().(error); err != nil {
		status, answer, rerr := errorToJSON(err)
		if rerr != nil {
			return http.StatusInternalServerError, map[string]any{"__type": "NotAnAnswer", "message": rerr.Error()}, ""
		}
		return status, answer, ""
	}
	return http.StatusOK, sdkToJSON(res[0].Interface()), ""
}

// trimPath keeps what a reason says, not where: ".Item.x: a null S" is
// counted with every other null S.
func trimPath(reason string) string {
	if i := strings.LastIndex(reason, ": "); i >= 0 {
		return reason[i+2:]
	}
	return reason
}

// TestInProcessConformance compares, on every step of every case, the answer
// of the in-process API with the answer of the HTTP path.
func TestInProcessConformance(t *testing.T) {
	if newEngineTarget == nil || newInProcessTarget == nil {
		t.Skip("engine_test.go is not in the build")
	}
	cases, err := loadCases()
	if err != nil {
		t.Fatal(err)
	}
	counts := &inProcessCounts{}
	var steps, compared int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s, cmp := runInProcessCase(t, c, counts)
			steps, compared = steps+s, compared+cmp
		})
	}
	inProcess, overHTTP := counts.snapshot()
	msg := fmt.Sprintf("conformance, in-process API: %d of %d steps answered by it and compared with the HTTP path "+
		"(%d requests answered by it, %d sent over HTTP):\n  %s",
		compared, steps, inProcess, overHTTP, strings.Join(sortedReasons(counts.overHTTP), "\n  "))
	t.Log(msg)
	if !testing.Verbose() {
		fmt.Println(msg)
	}
	if compared == 0 {
		t.Fatal("no step was answered by the in-process API")
	}
}

// runInProcessCase runs one case on both engines and returns its number of
// steps and of those the in-process API answered (every request of the
// step), which are compared.
func runInProcessCase(t *testing.T, c Case, counts *inProcessCounts) (steps, compared int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	httpEng, dirEng := newEngineTarget(t), newInProcessTarget(t, counts)
	httpAnswers, dirAnswers := map[string]any{}, map[string]any{}
	for _, s := range c.allSteps() {
		steps++
		body := bind(c.Name, s.Request)
		want, err := sendStep(ctx, httpEng, c.Name, s, body, httpAnswers)
		if err != nil {
			t.Fatalf("step %s (%s) over HTTP: %v", s.ID, s.Op, err)
		}
		_, before := counts.snapshot()
		got, err := sendStep(ctx, dirEng, c.Name, s, body, dirAnswers)
		if err != nil {
			t.Fatalf("step %s (%s) on the in-process API: %v", s.ID, s.Op, err)
		}
		httpAnswers["prev"], httpAnswers[s.ID] = want.decoded, want.decoded
		dirAnswers["prev"], dirAnswers[s.ID] = got.decoded, got.decoded
		if _, after := counts.snapshot(); after != before {
			continue // (part of) the step went over HTTP: nothing of the in-process API to compare
		}
		compared++
		cmp := s.Compare
		cmp.Message = true // one engine's code on both paths: the same words
		w, werr := normalize(s.Op, response{Status: want.resp.Status, Body: unbind(c.Name, want.resp.Body)}, cmp)
		g, gerr := normalize(s.Op, response{Status: got.resp.Status, Body: unbind(c.Name, got.resp.Body)}, cmp)
		if werr != nil || gerr != nil {
			t.Errorf("step %s (%s): %v %v", s.ID, s.Op, werr, gerr)
			continue
		}
		if s.Compare.Skip {
			// Not deterministic (see Compare.Skip): success or the error's type only.
			w, g = errorType(w), errorType(g)
		}
		if d := diff(g, w, 20); len(d) > 0 {
			t.Errorf("step %s (%s): in-process API vs HTTP:\n  %s\nrequest: %s\ngot:  %s\nwant: %s",
				s.ID, s.Op, strings.Join(d, "\n  "), compactRaw(s.Request), compact(g), compact(w))
		}
	}
	return steps, compared
}
