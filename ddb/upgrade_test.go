package ddb

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TestMigrateToV4_LargeFile upgrades a format 3 file of 10,000 items of
// about 1 KB, with an index and a stream record each, in batches of 256
// KiB, and checks that the live heap never grows by more than a bound
// that depends on the batch size and is far below the converted data
// (which the upgrade of one transaction held in memory whole), that the
// file shrinks, and that the tables answer as before.
func TestMigrateToV4_LargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a file of tens of MB")
	}
	const (
		items      = 10_000
		batchBytes = 256 << 10
		// heapBound is what the live heap may grow by during the upgrade:
		// a batch's entries, bbolt's nodes for them, a page buffer at
		// commit, with room to spare.
		heapBound = 16 * batchBytes
	)
	env := mustOpen(t)
	env.CreateTable("photos", true, gsi("Inverted", "SK", "PK"))
	_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("photos"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("a photo's caption, tags and metadata; ", 27) // ~1 KB
	batch := make([]attr.Item, 0, 1000)
	for i := range items {
		batch = append(batch, attr.Item{
			"PK":   attr.S(fmt.Sprintf("USER#%05d", i%997)),
			"SK":   attr.S(fmt.Sprintf("PHOTO#%08d", i)),
			"body": attr.S(body),
			"n":    attr.Int(int64(i)),
		})
		if len(batch) == cap(batch) {
			loadItems(t, env.e, "photos", batch)
			batch = batch[:0]
		}
	}
	digest := func() string {
		h := sha256.New()
		for _, req := range []string{`{"TableName":"photos"`, `{"TableName":"photos","IndexName":"Inverted"`} {
			start := ""
			for {
				page := env.call("Scan", req+`,"Limit":2000`+start+`}`)
				h.Write([]byte(page))
				_, last, ok := strings.Cut(page, `"LastEvaluatedKey":`)
				if !ok {
					break
				}
				start = `,"ExclusiveStartKey":` + last[:strings.LastIndexByte(last, '}')]
			}
		}
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	before := digest()
	if err := env.e.Close(); err != nil {
		t.Fatal(err)
	}
	batch = nil
	env.e, env.client = nil, nil // a closed engine still holds memory
	rewriteFile(t, env.dir, func(tx *bolt.Tx) error {
		if err := downgradeToV3(tx); err != nil {
			return err
		}
		return tx.Bucket(storage.BucketMeta).Put(storage.KeyFormat, []byte(storage.FormatV3))
	})
	file := filepath.Join(env.dir, FileName)
	oldSize := mustFileSize(t, file)

	var ms runtime.MemStats
	runtime.GC()
	runtime.GC() // what sync.Pools held goes in the second
	runtime.ReadMemStats(&ms)
	base, peak, batches := ms.HeapInuse, uint64(0), 0
	e, err := Open(env.dir, &Options{NoSync: true, TTLSweepInterval: -1, Now: func() time.Time { return *env.clock },
		upgradeBatchBytes: batchBytes,
		upgradeHook: func(stage storage.UpgradeStage, n int) error {
			if stage == storage.UpgradeBatch {
				// Just before a commit: the batch and its dirty pages are live.
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak, batches = max(peak, ms.HeapInuse), n+1
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	env.e, env.client = e, dynamodbClient(e)
	newSize := mustFileSize(t, file)
	growth := int64(peak) - int64(base)
	t.Logf("%d batches; live heap grew by %.1f MiB at most (bound %.1f); file %.1f -> %.1f MiB",
		batches, float64(growth)/(1<<20), float64(heapBound)/(1<<20), float64(oldSize)/(1<<20), float64(newSize)/(1<<20))
	if growth > heapBound {
		t.Errorf("live heap grew by %d bytes during the upgrade, over %d", growth, heapBound)
	}
	// Holding the converted data (as large as the new file's data) would
	// have been over the bound: the check means something.
	if newSize < 3*heapBound {
		t.Errorf("the upgraded file (%d bytes) is too small for the heap bound (%d) to tell", newSize, heapBound)
	}
	if newSize*2 > oldSize {
		t.Errorf("file %d bytes after the upgrade, %d before: want less than half", newSize, oldSize)
	}
	if got := digest(); got != before {
		t.Errorf("table and index answer otherwise after the upgrade")
	}
}

// mustFileSize returns the size of file name.
func mustFileSize(t *testing.T, name string) int64 {
	t.Helper()
	n, err := storage.FileSize(name)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOpenDuringUpgrade: an Open that waits for the lock of a file being
// upgraded by another engine must not get the old file once the upgrade
// renamed the new one over it (and upgrade it a second time, over the
// first engine's): it must wait for the new file.
func TestOpenDuringUpgrade(t *testing.T) {
	f := newV3Fixture(t, func(uint64) string { return "local" })
	dir := t.TempDir()
	if err := copyDir(f.env.dir, dir, nil); err != nil {
		t.Fatal(err)
	}
	second := make(chan *Engine, 1)
	secondErr := make(chan error, 1)
	// The second engine's attempts, each once it has its file open: the
	// first attempt opens the old file, replaced before it gets the lock.
	opened := make(chan int, 3)
	waitOpened := func(want int) {
		t.Helper()
		select {
		case got := <-opened:
			if got != want {
				t.Fatalf("the second Open's attempt %d opened its file, want %d", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("the second Open's attempt %d opened no file", want)
		}
	}
	first, err := Open(dir, &Options{NoSync: true, TTLSweepInterval: -1,
		upgradeHook: func(stage storage.UpgradeStage, _ int) error {
			if stage != storage.UpgradeSynced {
				return nil
			}
			go func() {
				e, err := Open(dir, &Options{NoSync: true, TTLSweepInterval: -1, OpenTimeout: 20 * time.Second,
					openedHook: func(attempt int) { opened <- attempt },
					upgradeHook: func(storage.UpgradeStage, int) error {
						t.Error("the second engine upgraded the file again")
						return nil
					}})
				second <- e
				secondErr <- err
			}()
			waitOpened(0) // the old file, which the first engine replaces now
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	waitOpened(1) // the retry, on the upgraded file, whose lock the first engine holds
	time.Sleep(100 * time.Millisecond)
	select {
	case e := <-second:
		e.Close()
		t.Fatalf("second Open returned while the first engine is open: %v", <-secondErr)
	default:
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	e := <-second
	if err := <-secondErr; err != nil {
		t.Fatal(err)
	}
	env := &testEnv{t: t, dir: dir, clock: f.env.clock, ctx: f.env.ctx, e: e, client: dynamodbClient(e)}
	// Answers as before, and no format 3 file reopened. The engine's clock
	// is not the fixture's, which its answers do not read.
	f.Check(env)
	if err := checkInvariants(e); err != nil {
		t.Error(err)
	}
	if err := e.Close(); err != nil {
		t.Error(err)
	}
	f.env.open() // for mustOpen's cleanup
	if _, err := os.Stat(filepath.Join(dir, FileName+storage.UpgradeSuffix)); err == nil {
		t.Error("upgrade file left")
	}
}
