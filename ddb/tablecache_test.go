package ddb

import (
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TestSharedKeyNamesAreNotOverwritten: the key names of the metadata every
// request shares are worked out once; a caller that appends to them (an
// index Query's LastEvaluatedKey names) must get a copy, so they have no
// spare capacity (keyNames builds them so).
func TestSharedKeyNamesAreNotOverwritten(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("keyn", true)
	var m *storage.TableMeta
	if err := env.e.core.View(func(tx *bolt.Tx) error {
		var err error
		m, err = env.e.core.LoadTableShared(tx, "keyn")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	names := m.KeyNames()
	_ = append(names, "GSI_PK")
	if got := m.KeyNames(); len(got) != 2 || cap(got) != 2 || got[0] != "PK" || got[1] != "SK" {
		t.Fatalf("shared key names %v (cap %d), want [PK SK]", got, cap(got))
	}
}
