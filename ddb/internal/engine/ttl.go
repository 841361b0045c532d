package engine

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Time to live follows "Time to Live (TTL)" in the DynamoDB Developer Guide:
// the TTL attribute must be a Number holding Unix epoch seconds; an item
// whose TTL value is at or before the current time is expired, except that
// values more than five years in the past are ignored (DynamoDB does not
// delete such items). Items without the attribute, or with another type,
// never expire.
//
// Divergence: DynamoDB deletes expired items within a few days and may
// return them until then; this engine never returns an expired item (reads,
// queries, scans, condition checks and ReturnValues all treat it as absent)
// and a background sweeper deletes it, with its index entries, within
// about Options.TTLSweepInterval.

// SweepBatch bounds the items the sweeper deletes in one transaction, so
// that writers are not blocked for long.
const SweepBatch = 1000

// TTLSpecInput is a TimeToLiveSpecification.
type TTLSpecInput struct {
	AttributeName string `json:"AttributeName"`
	Enabled       *bool  `json:"Enabled"`
}

// UpdateTTLInput is the UpdateTimeToLive request.
type UpdateTTLInput struct {
	TableName               string        `json:"TableName"`
	TimeToLiveSpecification *TTLSpecInput `json:"TimeToLiveSpecification"`
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// UpdateTimeToLive enables or disables TTL on a table.
func (e *Engine) UpdateTimeToLive(_ context.Context, in *UpdateTTLInput) (*UpdateTTLOutput, error) {
	if err := controlTableName(in.TableName, in.TableNameAbsent); err != nil {
		return nil, err
	}
	spec := in.TimeToLiveSpecification
	if spec == nil || spec.Enabled == nil {
		return nil, Validationf("1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null")
	}
	if !validKeyName(spec.AttributeName) {
		// DynamoDB holds the TTL attribute's name to the rule of key names.
		return nil, errKeyName
	}
	err := e.Update(func(tx *bolt.Tx) error {
		m, err := storage.LoadTable(tx, in.TableName)
		if err != nil {
			return err
		}
		if m == nil {
			return tableNotFound(in.TableName)
		}
		enabled := m.TTL != nil && m.TTL.Enabled
		switch {
		case *spec.Enabled && enabled && m.TTL.AttributeName != spec.AttributeName:
			return Validationf("TimeToLive is active on a different AttributeName")
		case *spec.Enabled && enabled:
			return Validationf("TimeToLive is already enabled")
		case !*spec.Enabled && !enabled:
			return Validationf("TimeToLive is already disabled")
		case !*spec.Enabled && m.TTL.AttributeName != spec.AttributeName:
			return Validationf("TimeToLive is active on a different AttributeName: current AttributeName is %s", m.TTL.AttributeName)
		}
		m.TTL = &storage.TTLSpec{AttributeName: spec.AttributeName, Enabled: *spec.Enabled}
		if err := setExpiryIndex(tx, m); err != nil {
			return err
		}
		return storage.SaveTable(tx, m)
	})
	if err != nil {
		return nil, err
	}
	return &UpdateTTLOutput{TimeToLiveSpecification: ttlSpecDescription{AttributeName: spec.AttributeName, Enabled: *spec.Enabled}}, nil
}

// DescribeTimeToLive reports a table's TTL status: ENABLED or DISABLED
// (changes apply at once, so ENABLING and DISABLING are never reported).
func (e *Engine) DescribeTimeToLive(_ context.Context, in *TableNameInput) (*DescribeTTLOutput, error) {
	if err := controlTableName(in.TableName, in.TableNameAbsent); err != nil {
		return nil, err
	}
	var out DescribeTTLOutput
	err := e.View(func(tx *bolt.Tx) error {
		m, err := storage.LoadTable(tx, in.TableName)
		if err != nil {
			return err
		}
		if m == nil {
			return tableNotFound(in.TableName)
		}
		out.TimeToLiveDescription = ttlDescription{TimeToLiveStatus: "DISABLED"}
		if m.TTL != nil && m.TTL.Enabled {
			out.TimeToLiveDescription = ttlDescription{TimeToLiveStatus: "ENABLED", AttributeName: m.TTL.AttributeName}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// sweepLoop runs SweepExpired and TrimStreams every interval until Close.
func (e *Engine) sweepLoop(interval time.Duration) {
	defer e.wg.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-tick.C:
			_, _ = e.SweepExpired()
			_, _ = e.TrimStreams()
			_ = e.PurgeTokens()
		}
	}
}

// setExpiryIndex makes the expiry bucket of table m follow its new TTL
// setting, in the transaction that stores the setting: built from the
// stored items when enabled (so the sweeper finds items that expired
// before), deleted when disabled (writes then no longer maintain it).
func setExpiryIndex(tx *bolt.Tx, m *storage.TableMeta) error {
	tb := tx.Bucket(storage.TableBucketName(m.Name))
	if tb == nil {
		return fmt.Errorf("ddb: table %s has no bucket", m.Name)
	}
	if m.TTL != nil && m.TTL.Enabled {
		return storage.BuildExpiry(tb, m)
	}
	if tb.Bucket(storage.BucketExpiry) == nil {
		return nil
	}
	return tb.DeleteBucket(storage.BucketExpiry)
}

// SweepExpired deletes every expired item of every table with TTL enabled,
// with its index entries, and returns how many it deleted. The background
// sweeper calls it; tests may call it directly. Each table is swept in
// transactions of at most sweepBatch deletions, and a sweep reads only the
// expiry entries of items that are due (storage/expiry.go), not the whole table.
func (e *Engine) SweepExpired() (int, error) {
	var tables []string
	err := e.View(func(tx *bolt.Tx) error {
		return tx.Bucket(storage.BucketTables).ForEach(func(k, _ []byte) error {
			m, err := e.LoadTableShared(tx, string(k))
			if err == nil && m.TTL != nil && m.TTL.Enabled {
				tables = append(tables, m.Name)
			}
			return err
		})
	})
	if err != nil {
		return 0, err
	}
	total := 0
	for _, name := range tables {
		for {
			r, err := e.SweepTable(name)
			total += r.Deleted
			if err != nil {
				return total, err
			}
			if !r.More {
				break
			}
		}
	}
	return total, nil
}

// sweepResult is what one sweepTable call did.
type sweepResult struct {
	Deleted int  // items deleted
	Visited int  // expiry entries read, for tests that check the sweep is not a scan
	More    bool // a full batch was due and progress made: sweep again
}

// SweepTable deletes up to sweepBatch expired items of one table. It finds
// them in the expiry index in a read transaction, so writers are blocked
// only while the found items are deleted (each re-checked, as it may have
// changed meanwhile). Both phases use the same now, so an item found due is
// deleted unless a write changed it meanwhile.
func (e *Engine) SweepTable(name string) (sweepResult, error) {
	var r sweepResult
	now := e.Now()
	var keys [][]byte
	err := e.View(func(tx *bolt.Tx) error {
		t, err := e.OpenTable(tx, name)
		if err != nil {
			return err
		}
		if !t.TTLEnabled() {
			return nil
		}
		xb, err := t.ExpiryBucket()
		if err != nil {
			return err
		}
		keys, r.Visited, err = storage.DueKeys(xb, now, SweepBatch)
		return err
	})
	if _, ok := err.(*Error); ok {
		return sweepResult{}, nil // table deleted meanwhile
	}
	if err != nil || len(keys) == 0 {
		return r, err
	}
	err = e.Update(func(tx *bolt.Tx) error {
		r.Deleted = 0
		t, err := e.OpenTable(tx, name)
		if err != nil {
			return err
		}
		if !t.TTLEnabled() {
			return nil // disabled meanwhile: nothing expires any more
		}
		t.ByService = true
		for _, k := range keys {
			it, err := t.GetRaw(k)
			if err != nil {
				return err
			}
			if it == nil || !storage.IsExpired(it, t.M.TTL.AttributeName, now) {
				continue
			}
			if _, err := t.Remove(k, it); err != nil {
				return err
			}
			r.Deleted++
		}
		return t.Flush()
	})
	if _, ok := err.(*Error); ok {
		return sweepResult{}, nil
	}
	if err != nil {
		return sweepResult{}, err
	}
	// A full batch may hide more due items behind it; but a batch that
	// deleted nothing would only be found again, so it ends the sweep.
	r.More = len(keys) == SweepBatch && r.Deleted > 0
	return r, nil
}
