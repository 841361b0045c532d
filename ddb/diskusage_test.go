package ddb

import (
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/sample"
)

// TestDiskPerItem loads the sample dataset into the application's table
// (its InvertedIndex, its stream) as `quickphotos load` does, and checks
// that the pages holding the table and its index take at most what
// DynamoDB bills for them: per item and per index entry, its size plus 100
// bytes, computed here from the stored items themselves. It also checks
// DiskUsage's accounting. docs/benchmarks.md ("Disk per item") has the
// numbers for the full 735,167-item dataset.
func TestDiskPerItem(t *testing.T) {
	env := mustOpen(t)
	const table = "quick-photos"
	if err := dynamo.New(env.client, table).CreateTable(env.ctx); err != nil {
		t.Fatal(err)
	}
	loaded, err := itemfile.LoadDataset(env.ctx, env.client, table, sample.Generate(sample.Config{Users: 1000, Seed: 1}), nil)
	if err != nil {
		t.Fatal(err)
	}
	var billed int64
	err = env.e.core.View(func(tx *bolt.Tx) error {
		tt, err := env.e.core.OpenTable(tx, table)
		if err != nil {
			return err
		}
		return tt.Items.ForEach(func(k, v []byte) error {
			it, err := tt.M.DecodeStored(k, v)
			if err != nil {
				return err
			}
			billed += int64(attr.Size(it)) + 100
			for i := range tt.M.Indexes {
				ix := &tt.M.Indexes[i]
				if tt.M.IndexKeyBytes(ix, it) != nil {
					billed += int64(attr.Size(tt.M.Project(ix, it))) + 100
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	u, err := env.e.DiskUsage()
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	if err := u.WriteReport(&report); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d items:\n%s", loaded, report.String())
	if len(u.Tables) != 1 || len(u.Tables[0].Indexes) != 1 || len(u.Streams) != 1 {
		t.Fatalf("usage of %d tables, %d streams", len(u.Tables), len(u.Streams))
	}
	tu := u.Tables[0]
	if tu.ItemCount != int64(loaded) || tu.Items.Entries != loaded || tu.Indexes[0].Entries != loaded || u.Streams[0].Entries != loaded {
		t.Errorf("%d items loaded; usage counts %d items, %d item entries, %d index entries, %d records",
			loaded, tu.ItemCount, tu.Items.Entries, tu.Indexes[0].Entries, u.Streams[0].Entries)
	}
	if tu.BilledBytes != billed {
		t.Errorf("usage says DynamoDB bills %d bytes, the items say %d", tu.BilledBytes, billed)
	}
	pages := tu.Items.Pages() + tu.Indexes[0].Pages()
	if stored := int64(pages) * int64(u.PageSize); stored > billed {
		t.Errorf("table and index take %d bytes (%.1f per item), more than DynamoDB bills (%d, %.1f per item)",
			stored, float64(stored)/float64(loaded), billed, float64(billed)/float64(loaded))
	}
	accounted := pages + tu.Expiry.Pages() + u.Streams[0].Pages() + u.FreePages + u.PendingPages + u.OtherPages
	if want := int(u.FileBytes / int64(u.PageSize)); accounted != want || u.OtherPages < 2 {
		t.Errorf("pages accounted for: %d (other %d), file has %d", accounted, u.OtherPages, want)
	}
}
