package floor

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/loadtest"
	"github.com/quickphotos/quickphotos/sample"
)

func TestMain(m *testing.M) { os.Exit(apitest.Main(m)) }

// sampleUsers is the size of the sample the test server holds.
const sampleUsers = 30

// recorded starts a server holding the sample, records its answers to the mix's requests and
// serves them as a floor; it returns the server's endpoint, the floor and the floor's URL.
func recorded(t *testing.T) (string, *Floor, string) {
	srv := apitest.NewServer(t)
	srv.WriteRaw(t, *sample.Generate(sample.Config{Users: sampleUsers, Seed: 1}))
	reqs, err := loadtest.Requests(sampleUsers, 1)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Record(t.Context(), http.DefaultClient, srv.URL+api.Endpoint, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Len() != len(reqs) {
		t.Fatalf("recorded %d answers to %d requests", rec.Len(), len(reqs))
	}
	f := newFloor(t, rec)
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)
	return srv.URL + api.Endpoint, f, hs.URL + api.Endpoint
}

func newFloor(t *testing.T, rec *Recording) *Floor {
	f, err := New(rec, filepath.Join(t.TempDir(), "floor.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// postBody posts body to url and returns the answer's status, content type and body; a
// transport failure fails the test (it may run on any goroutine: it reports with Errorf).
func postBody(t *testing.T, url string, body []byte) (int, string, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, "", nil
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(resp.Body); err != nil {
		t.Error(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), got.Bytes()
}

// The floor answers every read of the mix byte for byte as the server answers it, and each
// mutation with the server's answer to its document.
func TestFloor_AnswersWhatTheServerAnswers(t *testing.T) {
	server, _, floor := recorded(t)
	reqs, err := loadtest.Requests(sampleUsers, 1)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]int{}
	var g errgroup.Group
	g.SetLimit(8)
	for _, req := range reqs {
		ops[req.Op]++
		g.Go(func() error {
			status, ctype, got := postBody(t, floor, req.Body)
			if status != http.StatusOK || ctype != "application/json" {
				t.Errorf("%s %s: HTTP %d, %s: %s", req.Op, req.Body, status, ctype, got)
				return nil
			}
			if req.Write {
				if !bytes.HasPrefix(got, []byte(`{"data":{"`)) {
					t.Errorf("%s %s: %s", req.Op, req.Body, got)
				}
				return nil
			}
			// The recording's mutations were undone: the server answers reads as before them.
			if _, _, want := postBody(t, server, req.Body); !bytes.Equal(got, want) {
				t.Errorf("%s %s:\nfloor  %s\nserver %s", req.Op, req.Body, got, want)
			}
			return nil
		})
	}
	_ = g.Wait()
	for _, op := range loadtest.FloorOperations {
		if ops[op] == 0 {
			t.Errorf("no request of %s", op)
		}
	}
}

// A request the recording does not hold, read or mutation, is refused with HTTP 400 and
// FLOOR_NO_ANSWER, and counted.
func TestFloor_RefusesAnUnknownRequest(t *testing.T) {
	_, f, floor := recorded(t)
	for _, body := range []string{
		`{"query":"query Profile($u: ID!) { user(username: $u) { username name status interests pinnedImage followerCount followingCount } }","variables":{"u":"nobody"}}`,
		`{"query":"mutation Upload($i: UploadPhotoInput!) { uploadPhoto(input: $i) { username timestamp } }","variables":{"i":{}}}`,
		`{"variables":{"u":"nobody"},"query":"{ user(username: $u) { name } }"}`,
		`not json`,
	} {
		status, _, got := postBody(t, floor, []byte(body))
		var r struct {
			Errors []struct {
				Message    string
				Extensions struct{ Code string }
			}
		}
		if err := json.Unmarshal(got, &r); err != nil || status != http.StatusBadRequest || len(r.Errors) != 1 || r.Errors[0].Extensions.Code != "FLOOR_NO_ANSWER" {
			t.Errorf("%s: HTTP %d %s", body, status, got)
		}
	}
	if n := f.Missed(); n != 4 {
		t.Errorf("%d requests counted as refused, want 4", n)
	}
}

// A mutation is answered only once its request is in the log and the log is synced: while the
// fdatasync is held, no answer comes; the file already holds the request when it begins.
func TestFloor_AnswersAMutationOnlyOnceItsRecordIsSynced(t *testing.T) {
	const follow = `{"query":"mutation Follow($i: FriendshipInput!) { followUser(input: $i) { timestamp } }","variables":{"i":{"followed":"b","follower":"a"}}}`
	key, _ := documentKey([]byte(follow))
	answer := Answer{ContentType: "application/json", Body: []byte(`{"data":{"followUser":{"timestamp":"2026-01-01T00:00:00Z"}}}`)}
	f := newFloor(t, &Recording{reads: map[string]Answer{}, writes: map[string]Answer{string(key): answer}})
	h := holdSyncs(t, f.log)
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)

	answered := make(chan []byte, 1)
	go func() {
		_, _, got := postBody(t, hs.URL, []byte(follow))
		answered <- got
	}()
	if file := <-h.started; !bytes.Contains(file, []byte(follow+"\n")) {
		t.Errorf("the log does not hold the request when it is synced: %q", bytes.TrimRight(file, "\x00"))
	}
	select {
	case got := <-answered:
		t.Fatalf("answered before the log was synced: %s", got)
	case <-time.After(200 * time.Millisecond):
	}
	h.release <- struct{}{}
	select {
	case got := <-answered:
		if !bytes.Equal(got, answer.Body) {
			t.Errorf("answered %s, want %s", got, answer.Body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer after the sync")
	}
}

// The standard mix, each operation alone after it, against the floor: nothing fails and
// nothing is refused, so Requests lists every request the mix sends.
func TestFloor_ServesTheWholeMix(t *testing.T) {
	_, f, floor := recorded(t)
	m, err := loadtest.ParseMix("standard")
	if err != nil {
		t.Fatal(err)
	}
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{floor}, Mix: m, Clients: 4, Rounds: 1, Duration: time.Minute, MaxOps: 1000,
		SampleUsers: sampleUsers, Seed: 1, Alone: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	report.Write(&out)
	t.Log(out.String())
	if got := report.Targets[0]; got.Total() != 1000 || got.Failed() != 0 {
		t.Errorf("the mix: %d answered, %d failed", got.Total(), got.Failed())
	}
	if len(report.Alone) != len(loadtest.FloorOperations) {
		t.Fatalf("%d operations alone, want %d", len(report.Alone), len(loadtest.FloorOperations))
	}
	for _, a := range report.Alone {
		if got := a.Targets[0]; got.Total() != 1000 || got.Failed() != 0 {
			t.Errorf("%s alone: %d answered, %d failed", a.Mix, got.Total(), got.Failed())
		}
	}
	if n := f.Missed(); n != 0 {
		t.Errorf("%d requests refused", n)
	}
}

func TestDocumentKey(t *testing.T) {
	for _, tc := range []struct{ body, key string }{
		{`{"query":"mutation A { a }","variables":{}}`, `{"query":"mutation A { a }"`},
		{`{"query":"{ a(s: \"x\") }","variables":{}}`, `{"query":"{ a(s: \"x\") }"`},
		{`{"query":"a\\","variables":{}}`, `{"query":"a\\"`},
		{`{"query":"unterminated`, ""},
		{`{"variables":{},"query":"{ a }"}`, ""},
	} {
		key, ok := documentKey([]byte(tc.body))
		if string(key) != tc.key || ok != (tc.key != "") {
			t.Errorf("documentKey(%s) = %s, %v; want %s", tc.body, key, ok, tc.key)
		}
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		target string
		ok     bool
	}{
		{"http://127.0.0.1:8080/graphql", true},
		{"http://[::1]:8080/graphql", true},
		{"http://localhost:8080/graphql", true},
		{"http://192.0.2.1:8080/graphql", false},
		{"http://example.com/graphql", false},
		{"https://127.0.0.1/graphql", false},
	} {
		if err := loopbackOnly(tc.target); (err == nil) != tc.ok {
			t.Errorf("loopbackOnly(%s) = %v", tc.target, err)
		}
	}
	if _, err := Record(t.Context(), http.DefaultClient, "http://192.0.2.1/graphql", nil); err == nil {
		t.Error("Record from a non-loopback address")
	}
	if _, err := Listen("0.0.0.0:0"); err == nil {
		t.Error("Listen on every address")
	}
}
