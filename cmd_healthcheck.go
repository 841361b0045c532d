package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// runHealthcheck runs `quickphotos healthcheck`: GET /healthz of the server serve runs at
// --addr, exiting non-zero unless it answers 200. It is the container image's health check,
// where there is no shell or curl; it reads serve's own QUICKPHOTOS_ADDR, so the two agree on
// where the server listens.
func runHealthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var addr string
	var timeout time.Duration
	f := newFlags("healthcheck", stderr)
	f.String(&addr, "addr", "127.0.0.1:8080", "the address serve listens on (its --addr); a host that means every interface (0.0.0.0, ::, none) is reached on 127.0.0.1")
	f.Duration(&timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	if err := f.parse(args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return fmt.Errorf("healthcheck takes no arguments, got %q", f.Args())
	}
	url, err := healthURL(addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: GET %s: %s", url, resp.Status)
	}
	fmt.Fprintf(stdout, "quickphotos: healthy (%s)\n", url)
	return nil
}

// healthURL is the /healthz URL of a server listening on addr.
func healthURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: %w", addr, err)
	}
	if port == "" || port == "0" {
		return "", errors.New("--addr: give the port serve listens on")
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}
