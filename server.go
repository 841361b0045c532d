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
	store  storeConfig
	addr   string
	sample bool
	users  int
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	f := newFlags("serve", stderr)
	cfg.store.register(f)
	f.String(&cfg.addr, "addr", "127.0.0.1:8080", "the address to listen on (port 0 picks a free port)")
	f.Bool(&cfg.sample, "sample", false, "load the sample dataset when the table is empty")
	f.Int(&cfg.users, "sample-users", 200, "with --sample: how many users the sample dataset has")
	f.Bool(&cfg.store.createTable, "create-table", false, "with --store dynamodb: create the table and index when they are missing")
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
	if err := cfg.store.prepareTable(ctx, store, stderr); err != nil {
		return err
	}
	if cfg.sample {
		if err := loadSampleIfEmpty(ctx, opened, store, cfg.users, stderr); err != nil {
			return err
		}
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
	if err := api.Serve(ctx, srv, func() error { return srv.Serve(ln) }); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "quickphotos: stopped")
	return nil
}
