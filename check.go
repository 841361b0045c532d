package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/quickphotos/quickphotos/dynamo"
)

// checkTable runs `quickphotos check`: the store's consistency check, after finishing the
// photo deletions a stopped server left when asked to.
func checkTable(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg storeConfig
	var finish bool
	f := newFlags("check", stderr)
	cfg.register(f)
	f.Bool(&finish, "finish-deletions", false, "first finish every photo deletion under way (run it when no server is running, or any deletion a live server is doing is taken over)")
	if err := f.parse(args); err != nil {
		return err
	}
	opened, err := cfg.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	store := dynamo.New(opened.client, cfg.table)
	if finish {
		n, err := store.FinishDeletions(ctx, 0)
		if err != nil {
			return fmt.Errorf("finishing deletions: %w", err)
		}
		fmt.Fprintf(stdout, "finished %d photo deletions\n", n)
	}
	report, err := store.Check(ctx)
	if err != nil {
		return err
	}
	for _, k := range report.PendingDeletions {
		fmt.Fprintf(stdout, "deletion under way: %s's photo at %s\n", k.Owner, k.Timestamp)
	}
	for _, p := range report.Problems {
		fmt.Fprintln(stdout, "problem:", p)
	}
	fmt.Fprintf(stdout, "checked %d items of %s: %d problems, %d photo deletions under way\n",
		report.Items, cfg.table, len(report.Problems), len(report.PendingDeletions))
	if len(report.Problems) > 0 {
		return errors.New("the table is not consistent")
	}
	return nil
}
