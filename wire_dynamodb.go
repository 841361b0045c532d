package main

import (
	"context"
	"fmt"
	"net"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/ddb/sigv4auth"
	"github.com/quickphotos/quickphotos/internal/httpserve"
)

// prepare resolves addr (the value of flag) and loads the keys, refusing an address other
// hosts can reach when no keys are configured, before anything listens. say tells how callers
// are authenticated, for the start-up message.
func (c *dynamodbAuth) prepare(flag, addr string) (tcp *net.TCPAddr, say string, err error) {
	tcp, err = net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("%s %q: %w", flag, addr, err)
	}
	switch {
	case c.keysFile != "":
		if c.keys, err = sigv4auth.LoadKeys(c.keysFile); err != nil {
			return nil, "", fmt.Errorf("--dynamodb-keys: %w", err)
		}
		return tcp, fmt.Sprintf("requests signed by one of %s from %s", c.keys, c.keysFile), nil
	case isLoopback(tcp):
		return tcp, "no authentication, on loopback only: any or no credentials are accepted", nil
	default:
		return nil, "", fmt.Errorf("refusing to serve the DynamoDB API on %s (%s) without authentication: give --dynamodb-keys FILE (lines ACCESS_KEY_ID SECRET [read-only]) or listen on loopback", tcp, flag)
	}
}

// serveEngine serves the engine's DynamoDB API on ln until ctx ends, with the engine's
// default timeouts and body limits; with keys, only the requests they sign.
func serveEngine(ctx context.Context, engine *ddb.Engine, ln net.Listener, keys *sigv4auth.Keys) error {
	srv := engine.NewServer(ddb.ServerOptions{})
	if keys != nil {
		srv.Handler = sigv4auth.New(srv.Handler, keys, sigv4auth.Options{})
	}
	return httpserve.Serve(ctx, srv, ln, 0)
}
