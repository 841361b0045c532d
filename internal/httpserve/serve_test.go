package httpserve_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/httpserve"
)

// drainingServer serves, on a new loopback listener, /readyz (503 once draining is set) and
// any other path (200), until ctx ends; done receives what ServeDraining returned.
func drainingServer(t *testing.T, ctx context.Context, delay time.Duration) (base string, draining *atomic.Bool, done <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	draining = &atomic.Bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if draining.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("GET /", func(http.ResponseWriter, *http.Request) {})
	errc := make(chan error, 1)
	go func() {
		errc <- httpserve.ServeDraining(ctx, &http.Server{Handler: mux}, ln, httpserve.Drain{Delay: delay, Begin: func() { draining.Store(true) }}, time.Second)
	}()
	return "http://" + ln.Addr().String(), draining, errc
}

// TestServeDraining_ServesThroughTheDelayThenCloses: once its context ends (SIGTERM), the
// server goes on serving through the delay, on new connections too, with its readiness check
// failing and every response asking to close its connection; then the listener closes.
func TestServeDraining_ServesThroughTheDelayThenCloses(t *testing.T) {
	const delay = 500 * time.Millisecond
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	base, draining, done := drainingServer(t, ctx, delay)
	get := func(path string) (*http.Response, error) {
		// A client of its own: each request on a new connection, as a load balancer's new
		// connections come.
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Get(base + path)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	if resp, err := get("/readyz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/readyz before stopping: %v %v", resp, err)
	}

	stopped := time.Now()
	stop()
	for !draining.Load() {
		time.Sleep(time.Millisecond)
	}
	if resp, err := get("/readyz"); err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("/readyz while draining: %v %v, want 503", resp, err)
	}
	resp, err := (&http.Client{}).Get(base + "/photos")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("a request while draining: %v %v, want it served", resp, err)
	}
	resp.Body.Close()
	if !resp.Close {
		t.Error("a response while draining kept its connection open")
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeDraining: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop after its delay")
	}
	if d := time.Since(stopped); d < delay {
		t.Errorf("stopped %s after its context ended, before its delay of %s", d, delay)
	}
	if _, err := get("/"); err == nil {
		t.Error("the listener still accepts after the drain")
	}
}

// TestServeDraining_NoDelayStopsAtOnce: without a delay the listener closes as soon as the
// context ends, after Begin.
func TestServeDraining_NoDelayStopsAtOnce(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	_, draining, done := drainingServer(t, ctx, 0)
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeDraining: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the server did not stop at once")
	}
	if !draining.Load() {
		t.Error("Begin was not called")
	}
}
