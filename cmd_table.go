package main

import (
	"context"
	"fmt"
	"io"

	"github.com/quickphotos/quickphotos/dynamo"
)

func tableCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg storeConfig
	f := newFlags("table create", stderr)
	cfg.register(f)
	if err := f.parse(args); err != nil {
		return err
	}
	opened, err := cfg.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	if err := dynamo.New(opened.client, cfg.table).CreateTable(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "table %s and index %s are ready\n", cfg.table, dynamo.InvertedIndexName)
	return nil
}
