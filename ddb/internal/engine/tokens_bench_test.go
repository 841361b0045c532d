package engine

import (
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// BenchmarkPurgeTokens measures a sweep of ClientRequestTokens (each sweep
// of the TTL sweeper makes one, in a write transaction) with a million
// tokens in force, as a sustained load of TransactWriteItems leaves (the SDK
// gives each request a token): in-force, where nothing is due, and expired,
// where the sweep drops a generation of that million.
//
//	go test ./ddb/internal/engine/ -run '^$' -bench PurgeTokens -benchtime 3x
func BenchmarkPurgeTokens(b *testing.B) {
	const tokens = 1_000_000
	clock := time.Unix(1_700_000_000, 0)
	e, err := OpenMemory(&Options{TTLSweepInterval: -1, StoreOptions: storage.StoreOptions{Now: func() time.Time { return clock }}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	fill := func(b *testing.B) {
		for i := 0; i < tokens; i += 100_000 {
			err := e.Update(func(tx *bolt.Tx) error {
				for j := i; j < i+100_000; j++ {
					tok := fmt.Sprintf("%08x-5e1f-4c2a-9d3b-%012x", j, clock.Unix())
					if err := e.saveToken(tx, tok, requestDigest{binary: make([]byte, 32)}, &TransactWriteOutput{}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("in-force", func(b *testing.B) {
		fill(b)
		for b.Loop() {
			if err := e.PurgeTokens(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("expired", func(b *testing.B) {
		// The tokens in-force left are dropped outside the timer, so that
		// every sweep timed drops one generation of a million.
		clock = clock.Add(2 * TokenTTL)
		if err := e.PurgeTokens(); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			b.StopTimer()
			fill(b)
			clock = clock.Add(2 * TokenTTL)
			b.StartTimer()
			if err := e.PurgeTokens(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
