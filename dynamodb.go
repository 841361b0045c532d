package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/ddb/sigv4auth"
	"github.com/quickphotos/quickphotos/internal/httpserve"
)

// serveDynamoDB runs `quickphotos dynamodb`: the embedded engine alone, speaking the DynamoDB
// API over HTTP like DynamoDB Local, so any SDK, the AWS CLI, NoSQL Workbench or dynamodb-admin
// can use it.
func serveDynamoDB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var listen string
	var diskUsage bool
	var auth dynamodbAuth
	store := storeConfig{kind: storeEmbedded}
	f := newFlags("dynamodb", stderr)
	f.String(&listen, "listen", "127.0.0.1:8000", "the address to listen on: loopback, or any other with --dynamodb-keys")
	auth.register(f)
	f.Bool(&diskUsage, "disk-usage", false, "print where the bytes of the data file go (pages, fill and stored bytes per table, index and stream; DynamoDB's billed size of each table) and exit instead of serving")
	store.registerEngine(f)
	if err := f.parse(args); err != nil {
		return err
	}
	// Whether the listener may run without keys depends on its address, so that is settled
	// before the engine opens.
	var addr *net.TCPAddr
	var say string
	if !diskUsage {
		var err error
		if addr, say, err = auth.prepare("--listen", listen); err != nil {
			return err
		}
	}
	tuneGC(os.Getenv)
	engine, err := store.openEngine()
	if err != nil {
		return fmt.Errorf("opening the engine: %w", err)
	}
	defer engine.Close()
	if diskUsage {
		u, err := engine.DiskUsage()
		if err != nil {
			return err
		}
		return u.WriteReport(stdout)
	}
	ln, err := net.ListenTCP("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "quickphotos: DynamoDB API at http://%s (%s; %s)\n", ln.Addr(), store.describe(), say)
	return serveEngine(ctx, engine, ln, auth.keys)
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

// dynamodbAuth is how the engine's DynamoDB listener authenticates its callers: by AWS
// Signature Version 4 with the access keys of --dynamodb-keys, or, on loopback only and
// without keys, not at all, as DynamoDB Local (any or no credentials are accepted).
type dynamodbAuth struct {
	keysFile string
	// keys are the loaded keys, nil without --dynamodb-keys.
	keys *sigv4auth.Keys
}

func (c *dynamodbAuth) register(f *flags) {
	f.String(&c.keysFile, "dynamodb-keys", "", "accept only DynamoDB requests signed (AWS Signature Version 4) with the access keys of this file: one a line, ACCESS_KEY_ID SECRET [read-only], secrets of 16 characters or more, the file readable by its owner (and group) only; required on an address other than loopback")
}

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
