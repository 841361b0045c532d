package wire

import (
	"net/http"
	"time"
)

// ServerOptions are the timeouts of the engine's HTTP listener (NewServer). A zero field takes
// its default from DefaultServerOptions.
type ServerOptions struct {
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included: a client that sends its body
	// slowly is cut off instead of holding a connection and its memory.
	ReadTimeout time.Duration
	// WriteTimeout bounds handling a request and writing its response.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for its next request.
	IdleTimeout time.Duration
}

// DefaultServerOptions are the GraphQL listener's header, body and idle timeouts (see serve in
// package main). 30 s for the body admits a 16 MiB one (MaxRequestBytes) at 560 KB/s, far
// below what loopback or a LAN carries, and bounds how long a client that trickles its body
// holds its connection and its share of Options.RequestMemory. The write timeout, which counts
// from the end of the headers, leaves the body's 30 s and as long again to handle the request.
var DefaultServerOptions = ServerOptions{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	WriteTimeout:      60 * time.Second,
	IdleTimeout:       2 * time.Minute,
}

// maxHeaderBytes bounds a request's headers; SigV4 headers are well under 8 KB.
const maxHeaderBytes = 64 << 10

// NewServer returns an http.Server for h, the engine's DynamoDB API, with the timeouts of opts. Request
// bodies are bounded by MaxRequestBytes each and by Options.RequestMemory together (see
// ServeHTTP). Serve it with srv.Serve(ln); bind it to loopback, as it has no authentication.
func NewServer(h http.Handler, opts ServerOptions) *http.Server {
	d := DefaultServerOptions
	or := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: or(opts.ReadHeaderTimeout, d.ReadHeaderTimeout),
		ReadTimeout:       or(opts.ReadTimeout, d.ReadTimeout),
		WriteTimeout:      or(opts.WriteTimeout, d.WriteTimeout),
		IdleTimeout:       or(opts.IdleTimeout, d.IdleTimeout),
		MaxHeaderBytes:    maxHeaderBytes,
	}
}
