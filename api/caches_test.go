package api

import (
	"context"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

func TestPersistedQueriesStayWithinTheirByteBudget(t *testing.T) {
	ctx := context.Background()
	c := newPersistedQueries(100)
	query := strings.Repeat("q", 40) // 40 bytes + a 1-byte hash: two fit in 100 bytes, three do not
	c.Add(ctx, "a", query)
	c.Add(ctx, "b", query)
	if _, ok := c.Get(ctx, "a"); !ok { // a is now the most recently used
		t.Fatal("a was evicted while the cache had room")
	}
	c.Add(ctx, "c", query)
	if _, ok := c.Get(ctx, "b"); ok {
		t.Error("b, the least recently used, was kept beyond the budget")
	}
	for _, hash := range []string{"a", "c"} {
		if got, ok := c.Get(ctx, hash); !ok || got != query {
			t.Errorf("Get(%q) = %q, %v; want the query", hash, got, ok)
		}
	}
	if c.bytes > c.max {
		t.Errorf("cache holds %d bytes, over its budget of %d", c.bytes, c.max)
	}
}

func TestPersistedQueriesRefuseAQueryLargerThanTheBudget(t *testing.T) {
	ctx := context.Background()
	c := newPersistedQueries(100)
	c.Add(ctx, "small", "{ a }")
	c.Add(ctx, "huge", strings.Repeat("q", 200))
	if _, ok := c.Get(ctx, "huge"); ok {
		t.Error("a query larger than the whole budget was cached")
	}
	if _, ok := c.Get(ctx, "small"); !ok {
		t.Error("a query larger than the budget evicted the others")
	}
}

func TestPersistedQueriesReAddingAHashDoesNotCountItTwice(t *testing.T) {
	ctx := context.Background()
	c := newPersistedQueries(100)
	for range 10 {
		c.Add(ctx, "a", "{ a }")
	}
	if want := len("a") + len("{ a }"); c.bytes != want {
		t.Errorf("cache counts %d bytes for one entry, want %d", c.bytes, want)
	}
}

func TestQueryCacheIsBoundedByTheDocumentsItHolds(t *testing.T) {
	// An alias-heavy document is large in memory; a budget that holds one such document
	// does not hold a second, whatever their number.
	ctx := context.Background()
	query := "{ " + strings.Repeat("a: __typename ", 100) + "}"
	c := newQueryCache(len(query) * (1 + documentBytesPerQueryByte) * 3 / 2)
	c.Add(ctx, query, &ast.QueryDocument{})
	c.Add(ctx, query+" ", &ast.QueryDocument{})
	if _, ok := c.Get(ctx, query); ok {
		t.Error("two alias-heavy documents kept in a budget for one")
	}
	if c.bytes > c.max {
		t.Errorf("cache holds %d bytes, over its budget of %d", c.bytes, c.max)
	}
	c.Add(ctx, "{ a }", &ast.QueryDocument{})
	if _, ok := c.Get(ctx, "{ a }"); !ok {
		t.Error("a small document was not cached")
	}
}
