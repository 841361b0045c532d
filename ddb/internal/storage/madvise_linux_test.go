package storage

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestReleaseMapped: after a read of the whole file, its pages are resident
// in the process's map of it; releaseMapped gives them back, and the values
// read again are the same bytes.
func TestReleaseMapped(t *testing.T) {
	const values, valueSize = 1024, 8 << 10 // 8 MiB of values
	db, err := bolt.Open(filepath.Join(t.TempDir(), "release.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	value := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, valueSize) }
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for i := range values {
			if err := b.Put(fmt.Appendf(nil, "%06d", i), value(i)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	readAll := func() {
		t.Helper()
		if err := db.View(func(tx *bolt.Tx) error {
			i := 0
			return tx.Bucket([]byte("b")).ForEach(func(_, v []byte) error {
				if !bytes.Equal(v, value(i)) {
					return fmt.Errorf("value %d changed", i)
				}
				i++
				return nil
			})
		}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(db.Path())
	if err != nil {
		t.Fatal(err)
	}

	readAll()
	if rss := mappedRSS(t, db); rss < values*valueSize/2 {
		t.Fatalf("%d bytes of the map resident after reading %d; the measure sees no pages", rss, values*valueSize)
	}
	releaseMapped(db, fi.Size())
	if rss := mappedRSS(t, db); rss > values*valueSize/8 {
		t.Errorf("%d bytes of the map still resident after releaseMapped", rss)
	}
	readAll()
}

// smapsHeader matches the first line of a mapping in smaps, its address range.
var smapsHeader = regexp.MustCompile(`^[0-9a-f]+-[0-9a-f]+ `)

// mappedRSS returns the resident bytes of db's memory map, from
// /proc/self/smaps: the Rss of the mapping that starts at the map's address.
func mappedRSS(t *testing.T, db *bolt.DB) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	start := strconv.FormatUint(uint64(db.Info().Data), 16) + "-"
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if smapsHeader.MatchString(line) {
			in = strings.HasPrefix(line, start)
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			if err != nil {
				t.Fatalf("smaps: %q: %v", line, err)
			}
			return kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping at %s in /proc/self/smaps", start)
	return 0
}
