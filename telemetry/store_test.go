package telemetry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/telemetry"
)

func TestStore_RequestsCapacityAndCancellations(t *testing.T) {
	f := newFixture(t)
	store := openStore(t, f.tel.Store())
	ctx, cost := dynamo.WithCost(context.Background())
	ctx, parent := f.tp.Tracer("test").Start(ctx, "mutation follow")

	for _, u := range []string{"ann", "bob"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	k := domain.FriendshipKey{Follower: "ann", Followed: "bob"}
	if _, err := store.Follow(ctx, k); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Follow(ctx, k); domain.ErrorCode(err) != domain.Conflict {
		t.Fatalf("second Follow: %v, want a conflict", err)
	}
	parent.End()

	requests := "quickphotos_dynamodb_requests_total"
	for _, tc := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"operation": "PutItem", "table": table, "outcome": "ok"}, 2},
		{map[string]string{"operation": "TransactWriteItems", "table": table, "outcome": "ok"}, 1},
		{map[string]string{"operation": "TransactWriteItems", "table": table, "outcome": "cancelled"}, 1},
		{map[string]string{"operation": "TransactWriteItems", "table": table, "outcome": "error"}, 0},
	} {
		if got := metric(t, f.reg, requests, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", requests, tc.labels, got, tc.want)
		}
	}
	if got := metric(t, f.reg, "quickphotos_dynamodb_request_duration_seconds",
		map[string]string{"operation": "TransactWriteItems", "table": table}); got != 2 {
		t.Errorf("TransactWriteItems durations observed = %v, want 2", got)
	}
	if got := metric(t, f.reg, "quickphotos_dynamodb_transaction_cancellations_total",
		map[string]string{"reason": "ConditionalCheckFailed"}); got != 1 {
		t.Errorf("ConditionalCheckFailed cancellations = %v, want 1", got)
	}
	if n := testutil.CollectAndCount(f.reg, "quickphotos_dynamodb_transaction_cancellations_total"); n != 1 {
		t.Errorf("%d cancellation reasons counted, want 1 (None is not a reason)", n)
	}

	// The capacity counted is the capacity the store accounted to the operation.
	var read, write float64
	for _, op := range []string{"PutItem", "TransactWriteItems"} {
		read += metric(t, f.reg, "quickphotos_dynamodb_consumed_capacity_total", map[string]string{"operation": op, "table": table, "kind": "read"})
		write += metric(t, f.reg, "quickphotos_dynamodb_consumed_capacity_total", map[string]string{"operation": op, "table": table, "kind": "write"})
	}
	snap := cost.Snapshot()
	if write == 0 || write != snap.WriteCapacityUnits || read != snap.ReadCapacityUnits {
		t.Errorf("capacity counted read %v write %v, store accounted read %v write %v",
			read, write, snap.ReadCapacityUnits, snap.WriteCapacityUnits)
	}

	// Each request is a client span under the span that was current when it was sent.
	var transacts int
	for _, s := range f.spans.Ended() {
		if s.SpanContext().SpanID() == parent.SpanContext().SpanID() {
			continue
		}
		if s.Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("span %s has parent %s, want the operation's span", s.Name(), s.Parent().SpanID())
		}
		if got := attr(s, "db.system.name"); got != "aws.dynamodb" {
			t.Errorf("span %s db.system.name = %q", s.Name(), got)
		}
		if got := attr(s, "aws.dynamodb.table_names"); got != `["photos"]` {
			t.Errorf("span %s aws.dynamodb.table_names = %q", s.Name(), got)
		}
		if s.Name() != "DynamoDB."+attr(s, "rpc.method") {
			t.Errorf("span %s has rpc.method %q", s.Name(), attr(s, "rpc.method"))
		}
		if s.Name() == "DynamoDB.TransactWriteItems" {
			transacts++
		}
	}
	if transacts != 2 {
		t.Errorf("%d TransactWriteItems spans, want 2", transacts)
	}
	var failed int
	for _, s := range f.spans.Ended() {
		if s.Status().Code == codes.Error {
			failed++
			if s.Name() != "DynamoDB.TransactWriteItems" || attr(s, "aws.dynamodb.cancellation_reasons") != `["ConditionalCheckFailed"]` {
				t.Errorf("failed span %s, reasons %q", s.Name(), attr(s, "aws.dynamodb.cancellation_reasons"))
			}
		}
	}
	if failed != 1 {
		t.Errorf("%d spans with error status, want 1 (the cancelled transaction)", failed)
	}
}

func TestStore_AbortedRequest(t *testing.T) {
	f := newFixture(t)
	store := openStore(t, f.tel.Store())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := store.CreateUser(ctx, "ann", domain.Profile{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("CreateUser with a cancelled context: %v", err)
	}
	if got := metric(t, f.reg, "quickphotos_dynamodb_requests_total",
		map[string]string{"operation": "PutItem", "table": table, "outcome": "aborted"}); got != 1 {
		t.Errorf("aborted PutItem requests = %v, want 1", got)
	}
}

func TestLoaders_BatchSize(t *testing.T) {
	f := newFixture(t)
	obs := f.tel.Loaders()
	for _, n := range []int{1, 3, 100} {
		obs.ObserveBatch("users", n)
	}
	if got := metric(t, f.reg, "quickphotos_dataloader_batch_size", map[string]string{"loader": "users"}); got != 3 {
		t.Errorf("batches observed = %v, want 3", got)
	}
}

// BenchmarkStoreObserver is the telemetry of one DynamoDB request, with the global
// TracerProvider (none installed: spans dropped) and with a noop.TracerProvider, serve's when
// no exporter is configured (no span built at all).
func BenchmarkStoreObserver(b *testing.B) {
	for name, tp := range map[string]trace.TracerProvider{"global": nil, "noop": noop.NewTracerProvider()} {
		b.Run(name, func(b *testing.B) {
			obs := telemetry.New(telemetry.Options{Registry: prometheus.NewRegistry(), TracerProvider: tp}).Store()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				_, done := obs.BeginRequest(ctx, "GetItem", table)
				done(dynamo.RequestOutcome{Capacity: []dynamo.Capacity{{Table: table, ReadUnits: 0.5}}})
			}
		})
	}
}
