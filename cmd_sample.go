package main

import (
	"context"
	"fmt"
	"io"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/sample"
)

func writeSample(args []string, stdout, stderr io.Writer) error {
	cfg := sample.Config{}
	var seed int
	f := newFlags("sample", stderr)
	f.Int(&cfg.Users, "users", 200, "how many users")
	f.Int(&seed, "seed", 1, "the seed: the same seed and size give the same dataset")
	if err := f.parse(args); err != nil {
		return err
	}
	cfg.Seed = uint64(seed)
	return itemfile.WriteDatasetJSON(stdout, sample.Generate(cfg))
}

// loadSampleIfEmpty loads the sample dataset into an empty table; a table with data is left
// alone. Either way it says so on out, among the other start-up lines.
func loadSampleIfEmpty(ctx context.Context, opened *openedStore, store *dynamo.Store, pictures *media.Service, users int, out io.Writer) error {
	empty, err := store.Empty(ctx)
	if err != nil {
		return err
	}
	if !empty {
		fmt.Fprintf(out, "quickphotos: --sample: table %s has data already, so the sample was not loaded (start with an empty --data directory, or --in-memory, to get it)\n", store.Table())
		return nil
	}
	d := sample.Generate(sample.Config{Users: users, Seed: 1})
	if err := pictures.AttachSampleImages(ctx, d.Photos); err != nil {
		return err
	}
	n, err := itemfile.LoadDataset(ctx, opened.client, store.Table(), d, nil)
	if err != nil {
		return fmt.Errorf("loading the sample: %w", err)
	}
	fmt.Fprintf(out, "quickphotos: loaded the sample dataset: %d items\n", n)
	return nil
}
