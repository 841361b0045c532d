package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/quickphotos/quickphotos/dynamo"
)

// checkTable runs `quickphotos check`: the store's consistency check, after finishing the
// photo deletions a stopped server left, and followed by repairs, when asked to.
func checkTable(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg storeConfig
	var finish, repair bool
	f := newFlags("check", stderr)
	cfg.register(f)
	f.Bool(&finish, "finish-deletions", false, "first finish every photo deletion under way (run it when no server is running, or any deletion a live server is doing is taken over)")
	f.Bool(&repair, "repair", false, "then fix what earlier releases could leave (reactions without their photo, counters that differ from their items), each fix conditional on what the check saw, and check again")
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
	if repair && len(report.Problems) > 0 {
		for _, p := range report.Problems {
			fmt.Fprintln(stdout, "found:", p)
		}
		n, err := store.Repair(ctx, report)
		if err != nil {
			return fmt.Errorf("repairing: %w", err)
		}
		fmt.Fprintf(stdout, "repaired %d of %d problems; checking again\n", n, len(report.Problems))
		if report, err = store.Check(ctx); err != nil {
			return err
		}
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
