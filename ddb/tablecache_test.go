package ddb

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestSharedKeyNamesAreNotOverwritten: the key names of the metadata every
// request shares are worked out once; a caller that appends to them (an
// index Query's LastEvaluatedKey names) must get a copy, so they have no
// spare capacity (keyNames builds them so).
func TestSharedKeyNamesAreNotOverwritten(t *testing.T) {
	env := mustOpen(t)
	env.createTable("keyn", true)
	var m *tableMeta
	if err := env.e.view(func(tx *bolt.Tx) error {
		var err error
		m, err = env.e.loadTableShared(tx, "keyn")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	names := m.keyNames()
	_ = append(names, "GSI_PK")
	if got := m.keyNames(); len(got) != 2 || cap(got) != 2 || got[0] != "PK" || got[1] != "SK" {
		t.Fatalf("shared key names %v (cap %d), want [PK SK]", got, cap(got))
	}
}
