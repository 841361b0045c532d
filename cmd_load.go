package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
)

func load(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg storeConfig
	f := newFlags("load FILE", stderr)
	cfg.register(f)
	if err := f.parse(args); err != nil {
		return err
	}
	if f.NArg() != 1 {
		return errors.New(`usage: quickphotos load [flags] FILE ("-" reads stdin)`)
	}
	in := io.Reader(os.Stdin)
	if name := f.Arg(0); name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return err
		}
		defer file.Close()
		in = file
	}
	opened, err := cfg.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	if cfg.kind == storeEmbedded {
		if err := dynamo.New(opened.client, cfg.table).CreateTable(ctx); err != nil {
			return err
		}
	}
	progress := newProgress(stderr)
	n, err := itemfile.Load(ctx, opened.client, cfg.table, itemfile.NewItemReader(in), progress.update)
	progress.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "loaded %d items into %s\n", n, cfg.table)
	return nil
}
