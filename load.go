package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

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

// progress draws a one-line counter on a terminal, at most ten times a second; elsewhere
// (a pipe, a log file) it stays silent.
type progress struct {
	w     io.Writer
	tty   bool
	last  time.Time
	start time.Time
	drawn bool
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) update(written int) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	rate := float64(written) / time.Since(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%s %d items written (%.0f/s)", spinner[written/25%len(spinner)], written, rate)
	p.drawn = true
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
