package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/quickphotos/quickphotos/dynamo"
)

// migrate runs `quickphotos migrate timestamps`: the keys an earlier release wrote with a Z
// (PHOTO#ada#2018-05-30T15:42:38Z) rewritten in the tutorial's form, which the API names items
// by (see dynamo.Store.MigrateTimestamps).
func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "timestamps" {
		return errors.New("usage: quickphotos migrate timestamps [flags]")
	}
	var cfg storeConfig
	f := newFlags("migrate timestamps", stderr)
	cfg.register(f)
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	opened, err := cfg.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	store := dynamo.New(opened.client, cfg.table)
	progress := newProgress(stderr)
	report, err := store.MigrateTimestamps(ctx, func(r dynamo.MigrationReport) { progress.update(r.Items) })
	progress.done()
	for _, p := range report.Left {
		fmt.Fprintln(stdout, "left:", p)
	}
	fmt.Fprintf(stdout, "read %d items of %s: moved %s; left %d\n", report.Items, cfg.table, moved(report.Moved), len(report.Left))
	if err != nil {
		return fmt.Errorf("%w (run it again to carry on)", err)
	}
	if len(report.Left) > 0 {
		return errors.New("some items are left in an earlier release's form: see above, then run it again")
	}
	return nil
}

// moved says how many items of each kind a migration moved.
func moved(counts map[string]int) string {
	if len(counts) == 0 {
		return "nothing"
	}
	var parts []string
	for _, kind := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[kind], kind))
	}
	return strings.Join(parts, ", ")
}
