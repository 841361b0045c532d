package api

import (
	"context"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/vektah/gqlparser/v2/ast"
)

// DefaultPersistedQueryBytes bounds the automatic persisted query cache. Anyone may register
// any string (the hash is checked, not the query), so the cache is bounded by the bytes it
// holds rather than by a number of entries that could each be a megabyte.
const DefaultPersistedQueryBytes = 8 << 20

// DefaultQueryCacheBytes bounds the cache of parsed and validated GraphQL documents.
const DefaultQueryCacheBytes = 64 << 20

// documentBytesPerQueryByte estimates the memory of a parsed document from its text: the AST
// of an alias-heavy query ({ a: __typename a: __typename … }, the worst case, and one the
// limits refuse only after gqlgen has cached it) takes about 29 bytes per byte of text,
// measured with runtime.MemStats over 100 parses of a 28 KB query; ordinary queries take less.
const documentBytesPerQueryByte = 32

// byteLRU is a least-recently-used cache bounded by the bytes its entries hold (as size
// reckons them) rather than by their number: clients choose what gets cached, and an entry
// may be a megabyte. It implements gqlgen's graphql.Cache.
type byteLRU[V any] struct {
	mu    sync.Mutex
	lru   *simplelru.LRU[string, V]
	size  func(key string, v V) int
	bytes int
	max   int
}

func newByteLRU[V any](maxBytes int, size func(key string, v V) int) *byteLRU[V] {
	c := &byteLRU[V]{max: maxBytes, size: size}
	// The entry count is bounded by bytes; the LRU's own limit only has to be out of the way.
	c.lru, _ = simplelru.NewLRU(maxBytes/64+1, func(k string, v V) { c.bytes -= size(k, v) })
	return c
}

// newPersistedQueries is the cache behind automatic persisted queries (Apollo's protocol): a
// query's SHA-256 to its text.
func newPersistedQueries(maxBytes int) *byteLRU[string] {
	return newByteLRU(maxBytes, func(hash, query string) int { return len(hash) + len(query) })
}

// newQueryCache is gqlgen's cache of parsed and validated documents, keyed by query text.
func newQueryCache(maxBytes int) *byteLRU[*ast.QueryDocument] {
	return newByteLRU(maxBytes, func(query string, _ *ast.QueryDocument) int {
		return len(query) * (1 + documentBytesPerQueryByte)
	})
}

// Get returns the value cached under key.
func (c *byteLRU[V]) Get(_ context.Context, key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(key)
}

// Add caches v under key, evicting the least recently used entries to stay within the byte
// budget. An entry larger than the whole budget is not kept.
func (c *byteLRU[V]) Add(_ context.Context, key string, v V) {
	size := c.size(key, v)
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Remove(key)
	for c.bytes+size > c.max {
		c.lru.RemoveOldest()
	}
	c.lru.Add(key, v)
	c.bytes += size
}
