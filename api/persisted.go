package api

import (
	"context"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// DefaultPersistedQueryBytes bounds the automatic persisted query cache. Anyone may register
// any string (the hash is checked, not the query), so the cache is bounded by the bytes it
// holds rather than by a number of entries that could each be a megabyte.
const DefaultPersistedQueryBytes = 8 << 20

// persistedQueries is the cache behind automatic persisted queries (Apollo's protocol): a
// least-recently-used map from a query's SHA-256 to its text, holding at most max bytes.
type persistedQueries struct {
	mu    sync.Mutex
	lru   *simplelru.LRU[string, string]
	bytes int
	max   int
}

func newPersistedQueries(maxBytes int) *persistedQueries {
	c := &persistedQueries{max: maxBytes}
	// The entry count is bounded by bytes; the LRU's own limit only has to be out of the way.
	c.lru, _ = simplelru.NewLRU(maxBytes/64+1, func(hash, query string) { c.bytes -= len(hash) + len(query) })
	return c
}

// Get returns the query whose hash is hash.
func (c *persistedQueries) Get(_ context.Context, hash string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(hash)
}

// Add remembers query under hash, evicting the least recently used queries to stay within
// the byte budget. A query larger than the whole budget is not kept.
func (c *persistedQueries) Add(_ context.Context, hash, query string) {
	size := len(hash) + len(query)
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(hash)
	for c.bytes+size > c.max {
		c.lru.RemoveOldest()
	}
	c.lru.Add(hash, query)
	c.bytes += size
}
