package storage

import (
	"testing"
	"time"
)

// TestStoreOptions_Defaults: a store opened with zero options has the
// defaults its options document (a clock, the shard duration, the lock
// timeout), whoever opens it, not only the engine.
func TestStoreOptions_Defaults(t *testing.T) {
	open := map[string]func(StoreOptions) (*Store, error){
		"file":   func(o StoreOptions) (*Store, error) { return OpenStore(t.TempDir(), o) },
		"memory": OpenMemoryStore,
	}
	for name, openStore := range open {
		t.Run(name, func(t *testing.T) {
			s, err := openStore(StoreOptions{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if now := s.Now(); time.Since(now).Abs() > time.Minute {
				t.Errorf("Now() = %v", now)
			}
			if s.opts.StreamShardDuration != DefaultStreamShardDuration || s.opts.OpenTimeout != defaultOpenTimeout {
				t.Errorf("shard duration %v, open timeout %v", s.opts.StreamShardDuration, s.opts.OpenTimeout)
			}
		})
	}
}
