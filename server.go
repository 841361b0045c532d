package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/dynamo"
)

// serveConfig is the configuration of `quickphotos serve`.
type serveConfig struct {
	store          storeConfig
	addr           string
	sample         bool
	users          int
	dynamodbListen string
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	f := newFlags("serve", stderr)
	cfg.store.register(f)
	f.String(&cfg.addr, "addr", "127.0.0.1:8080", "the address to listen on (port 0 picks a free port)")
	f.Bool(&cfg.sample, "sample", false, "load the sample dataset when the table is empty")
	f.Int(&cfg.users, "sample-users", 200, "with --sample: how many users the sample dataset has")
	f.Bool(&cfg.store.createTable, "create-table", false, "with --store dynamodb: create the table and index when they are missing")
	f.String(&cfg.dynamodbListen, "dynamodb-listen", "", "with the embedded store: also serve its DynamoDB API on this address, for the AWS CLI, SDKs or NoSQL Workbench")
	if err := f.parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	opened, err := cfg.store.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	store := dynamo.New(opened.client, cfg.store.table)
	if err := cfg.store.prepareTable(ctx, store); err != nil {
		return err
	}
	if cfg.sample {
		if err := loadSampleIfEmpty(ctx, opened, store, cfg.users, stderr); err != nil {
			return err
		}
	}

	if cfg.dynamodbListen != "" {
		if opened.engine == nil {
			return errors.New("--dynamodb-listen needs the embedded store")
		}
		dln, err := net.Listen("tcp", cfg.dynamodbListen)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "quickphotos: DynamoDB API of the embedded store at http://%s\n", dln.Addr())
		engineCtx, stopEngine := context.WithCancel(ctx)
		engineDone := make(chan error, 1)
		go func() { engineDone <- serveEngine(engineCtx, opened.engine, dln) }()
		defer func() { stopEngine(); <-engineDone }() // before the store closes

	}

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           api.New(api.Config{Store: store, Logger: log}),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "quickphotos: GraphiQL at %s/ — GraphQL API at %s%s (store: %s, table: %s)\n",
		base, base, api.Endpoint, cfg.store.kind, cfg.store.table)
	if err := api.Serve(ctx, srv, ln); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "quickphotos: stopped")
	return nil
}
