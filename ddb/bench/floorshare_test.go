package bench_test

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// floorShareRounds is how many times BenchmarkFloorShare alternates the
// engine and its floor.
const floorShareRounds = 8

// BenchmarkFloorShare measures the share of its storage floor's throughput
// the durable engine reaches on the writes of BenchmarkConcurrent, with the
// two alternating within one run. The machine's speed moves over seconds
// here, so two targets measured one after the other, as BenchmarkConcurrent
// measures them, run on different machines; alternating in rounds, both
// see the same ones. Each round sends b.N/16 requests from 16 clients to
// engine-http and as many to storage-floor, the order swapped every round.
// share is the floor's wall time over the engine's, over all rounds;
// share-min and share-median are the rounds' own.
//
//	go test -c -o /tmp/bench.test ./ddb/bench/
//	/tmp/bench.test -test.run '^$' -test.bench FloorShare -test.benchtime 16000x
func BenchmarkFloorShare(b *testing.B) {
	for _, op := range []struct {
		name string
		do   func(c *dynamodb.Client, i int) error
	}{
		{"UpdateItem", updateCounter},
		{"TransactWriteItems3", transactCounters},
	} {
		b.Run(op.name, func(b *testing.B) {
			engine, floor := targetNamed(b, "engine-http").get(b), targetNamed(b, "storage-floor").get(b)
			n := max(b.N/(2*floorShareRounds), 1)
			var seq atomic.Int64
			var engineTime, floorTime time.Duration
			shares := make([]float64, floorShareRounds)
			b.ResetTimer()
			for r := range floorShareRounds {
				var te, tf time.Duration
				if r%2 == 0 {
					te = sendConcurrently(b, engine, op.do, n, &seq)
					tf = sendConcurrently(b, floor, op.do, n, &seq)
				} else {
					tf = sendConcurrently(b, floor, op.do, n, &seq)
					te = sendConcurrently(b, engine, op.do, n, &seq)
				}
				engineTime += te
				floorTime += tf
				shares[r] = tf.Seconds() / te.Seconds()
			}
			b.StopTimer()
			slices.Sort(shares)
			b.ReportMetric(floorTime.Seconds()/engineTime.Seconds(), "share")
			b.ReportMetric(shares[0], "share-min")
			b.ReportMetric((shares[floorShareRounds/2-1]+shares[floorShareRounds/2])/2, "share-median")
		})
	}
}

// sendConcurrently sends n requests with do from concurrentClients clients
// sharing c, numbered from seq, and returns the wall time they took.
func sendConcurrently(b *testing.B, c *dynamodb.Client, do func(*dynamodb.Client, int) error, n int, seq *atomic.Int64) time.Duration {
	var left atomic.Int64
	left.Store(int64(n))
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrentClients {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				if err := do(c, int(seq.Add(1))); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// targetNamed is the target of that name.
func targetNamed(b *testing.B, name string) *target {
	for _, t := range slices.Concat(targets, storageFloorTargets) {
		if t.name == name {
			return t
		}
	}
	b.Fatalf("no target %s", name)
	return nil
}
