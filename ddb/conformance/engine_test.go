package conformance

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quickphotos/quickphotos/ddb"
)

// This file is the only one that knows the engine's API: ddb.Open, Close,
// the engine serving the DynamoDB JSON 1.0 protocol as an http.Handler, and
// its in-process APIs (Engine.API, Engine.StreamsAPI) for
// TestInProcessConformance. While
// package ddb does not compile, leave this file out of the build with an
// overlay and run the cases against DynamoDB Local alone:
//
//	printf '{"Replace":{"%s":""}}' "$PWD/ddb/conformance/engine_test.go" >/tmp/no-engine.json
//	go test -overlay=/tmp/no-engine.json ./ddb/conformance/ -conformance.engine=false

func init() {
	newEngineTarget = func(tb testing.TB) *target {
		tb.Helper()
		eng := openEngine(tb)
		h, ok := any(eng).(http.Handler)
		if !ok {
			tb.Fatal("*ddb.Engine does not implement http.Handler (ServeHTTP) yet")
		}
		srv := httptest.NewServer(h)
		tb.Cleanup(srv.Close)
		return &target{name: "engine", endpoint: srv.URL, client: srv.Client()}
	}
	newInProcessTarget = func(tb testing.TB, counts *inProcessCounts) *target {
		tb.Helper()
		eng := openEngine(tb)
		tr := &inProcessTransport{api: eng.API(), streams: eng.StreamsAPI(), handler: eng, counts: counts}
		return &target{name: "engine in-process API", endpoint: "http://in-process.invalid", client: &http.Client{Transport: tr}}
	}
}

// openEngine opens an engine for one case, closed when it ends.
func openEngine(tb testing.TB) *ddb.Engine {
	tb.Helper()
	// The TTL sweeper runs often, as DynamoDB Local's does, so that
	// expired items are deleted (not only hidden) within the bounded
	// wait of the ttl-expiry case.
	eng, err := ddb.Open(tb.TempDir(), &ddb.Options{NoSync: true, TTLSweepInterval: ttlSweepInterval})
	if err != nil {
		tb.Fatalf("ddb.Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := eng.Close(); err != nil {
			tb.Errorf("ddb.Engine.Close: %v", err)
		}
	})
	return eng
}
