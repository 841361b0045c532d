package bench_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb"
)

// The storage floors answer BenchmarkConcurrent's writes as http-floor does,
// from a recording, but only after doing the least storage work any engine
// kept in bbolt must do for them: read the items the request writes and put
// them back, in a read-write transaction whose commit is shared with the
// writers that arrive meanwhile, as the engine's group commit shares it.
// Nothing is decoded, checked or encoded. An engine on bbolt can therefore
// not beat a storage floor's throughput; its share of http-floor is the
// most the loopback target can ask of such an engine on this machine.
var storageFloorTargets = []*target{
	{name: "storage-floor", setup: func() (*dynamodb.Client, func(), error) {
		return openStorageFloor(&bolt.Options{})
	}},
	// As the in-memory engine: never synced, and no free-page list written.
	{name: "storage-floor-memory", setup: func() (*dynamodb.Client, func(), error) {
		return openStorageFloor(&bolt.Options{NoSync: true, NoFreelistSync: true})
	}},
	logFloorTarget,
}

// itemsWritten is how many items a request of each write operation of
// BenchmarkConcurrent writes.
var itemsWritten = map[string]int{
	"DynamoDB_20120810.UpdateItem":         1,
	"DynamoDB_20120810.TransactWriteItems": transactPuts,
}

// openStorageFloor serves replay backed by a storage floor: a fresh bbolt
// file opened with opts in a temporary directory and filled with the
// pre-populated photos. Replay's recordings and the table the client fills
// are an in-memory engine's, as for http-floor.
func openStorageFloor(opts *bolt.Options) (*dynamodb.Client, func(), error) {
	dir, err := os.MkdirTemp("", "ddb-storage-floor-")
	if err != nil {
		return nil, nil, err
	}
	db, err := bolt.Open(filepath.Join(dir, "floor.bolt"), 0o600, opts)
	if err == nil {
		err = fillFloor(db)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	e, err := ddb.OpenMemory(&ddb.Options{TTLSweepInterval: -1})
	if err != nil {
		_ = db.Close()
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	floor := &storageFloor{commits: boltCommits(db), keys: floorKeys()}
	c, stop := overHTTP(&replay{next: e, answers: map[string]recorded{}, work: floor.write}, e)
	return c, func() { stop(); _ = e.Close(); _ = db.Close(); _ = os.RemoveAll(dir) }, nil
}

// floorKeys are the floor keys of the pre-populated photos in the order
// BenchmarkConcurrent's writes visit them (counterUpdate): one photo of
// each user in turn. The order matters as much as the keys: consecutive
// photos of one user share a leaf page, so a floor that walked them in
// storage order would dirty a fraction of the pages the requests do and
// commit less than any engine could for the same writes.
func floorKeys() [][]byte {
	keys := make([][]byte, 0, usersN*photosPerUser)
	for i := range usersN * photosPerUser {
		keys = append(keys, floorKey(photoKey(i%usersN, (i/usersN)%photosPerUser)))
	}
	return keys
}

// storageFloor does a storage floor's work for each replayed write.
type storageFloor struct {
	commits *groupCommitter[func(*bolt.Tx) error]
	keys    [][]byte
	next    atomic.Int64 // cycles over keys
}

// floorTokens is the bucket of a storage floor's ClientRequestTokens.
var floorTokens = []byte("tokens")

// tokenRecordSize is the least a stored ClientRequestToken needs beside
// its key: the SHA-256 of its request and when it was used.
const tokenRecordSize = 32 + 8

// write reads and puts back, in one shared commit, as many existing items
// as a request of op writes; other operations need no storage work here.
// A TransactWriteItems also records its ClientRequestToken, which the SDK
// sends with every one: keyed by the token, as a retry must find it, in
// the commit that applies the request, as a retry after a crash must find
// it too. The floor's token is random like the SDK's (a UUID's 36
// characters), so tokens land on random pages of their bucket as theirs do.
func (f *storageFloor) write(op string) error {
	n := itemsWritten[op]
	if n == 0 {
		return nil
	}
	var token []byte
	if op == "DynamoDB_20120810.TransactWriteItems" {
		token = []byte(uuid.NewString())
	}
	first := int(f.next.Add(int64(n))) - n
	return f.commits.submit(func(tx *bolt.Tx) error {
		if token != nil {
			tb, err := tx.CreateBucketIfNotExists(floorTokens)
			if err != nil {
				return err
			}
			if tb.Get(token) != nil {
				return fmt.Errorf("storage floor: token %s used twice", token)
			}
			if err := tb.Put(token, make([]byte, tokenRecordSize)); err != nil {
				return err
			}
		}
		bk := tx.Bucket(floorBucket)
		for j := range n {
			k := f.keys[(first+j)%len(f.keys)]
			v := bk.Get(k)
			if v == nil {
				return fmt.Errorf("storage floor: no item %q", k)
			}
			if err := bk.Put(k, append([]byte(nil), v...)); err != nil {
				return err
			}
		}
		return nil
	})
}

// errLeadCommit tells a queued writer that it leads the next commit.
var errLeadCommit = errors.New("lead the next commit")

// groupCommitter shares commits between concurrent writers the way the
// engine's group commit does: a lone writer commits at once; writers that
// arrive during a commit queue, and the first of them commits the whole
// queue next, in one commit. Unlike the engine's, a failed write fails its
// whole group (the floors' writes do not fail). W is what one writer brings
// to a commit.
type groupCommitter[W any] struct {
	commit  func(group []W) error
	mu      sync.Mutex
	busy    bool
	pending []*groupWrite[W]
}

// groupWrite is one queued writer.
type groupWrite[W any] struct {
	work W
	done chan error
}

func (g *groupCommitter[W]) submit(work W) error {
	w := &groupWrite[W]{work: work, done: make(chan error, 1)}
	g.mu.Lock()
	if g.busy {
		g.pending = append(g.pending, w)
		g.mu.Unlock()
		if err := <-w.done; err != errLeadCommit {
			return err
		}
		g.mu.Lock()
	}
	g.busy = true
	group := append([]*groupWrite[W]{w}, g.pending...)
	g.pending = nil
	g.mu.Unlock()
	works := make([]W, len(group))
	for i, w := range group {
		works[i] = w.work
	}
	err := g.commit(works)
	g.mu.Lock()
	if len(g.pending) > 0 {
		next := g.pending[0]
		g.pending = g.pending[1:]
		next.done <- errLeadCommit
	} else {
		g.busy = false
	}
	g.mu.Unlock()
	for _, other := range group[1:] {
		other.done <- err
	}
	return err
}

// boltCommits is a groupCommitter whose writers share one bbolt Update.
func boltCommits(db *bolt.DB) *groupCommitter[func(*bolt.Tx) error] {
	return &groupCommitter[func(*bolt.Tx) error]{commit: func(group []func(*bolt.Tx) error) error {
		return db.Update(func(tx *bolt.Tx) error {
			for _, fn := range group {
				if err := fn(tx); err != nil {
					return err
				}
			}
			return nil
		})
	}}
}
