// Package storetest gives the tests of the packages above dynamo (loaders, feed, stream,
// telemetry) a real store: a new embedded engine in the test's temporary directory, closed
// when the test ends.
package storetest

import (
	"context"
	"testing"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/dynamo"
)

// Table is the name of the table New creates.
const Table = "quick-photos"

// Engine opens a new engine, closed when the test ends.
func Engine(t testing.TB) *ddb.Engine {
	t.Helper()
	e, err := ddb.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// New returns a store over a new engine whose table (Table, with its index, stream and TTL)
// is created, and the engine. The store reaches the engine through its in-process API, as
// serve does.
func New(t testing.TB, opts ...dynamo.Option) (*dynamo.Store, *ddb.Engine) {
	t.Helper()
	e := Engine(t)
	store := dynamo.New(e.API(), Table, opts...)
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store, e
}
