package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
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
	tuneServerGC(os.Getenv)
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
