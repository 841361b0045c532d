package ddb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/sdkapi"
)

// streamsAPI is what both Engine.StreamsClient and Engine.StreamsAPI serve.
type streamsAPI interface {
	ListStreams(context.Context, *dynamodbstreams.ListStreamsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error)
	DescribeStream(context.Context, *dynamodbstreams.DescribeStreamInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(context.Context, *dynamodbstreams.GetShardIteratorInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(context.Context, *dynamodbstreams.GetRecordsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

var (
	_ streamsAPI = (*dynamodbstreams.Client)(nil)
	_ streamsAPI = (*sdkapi.StreamsAPI)(nil)
)

// streamsPair runs each call through the SDK client (over HTTP, in memory)
// and through the in-process Streams API on the same engine, whose clock
// stands still, and checks that outputs and errors are the same: the
// Streams calls change nothing, so both see the same state, and iterators
// issued at the same time are the same strings.
type streamsPair struct {
	t                 *testing.T
	ctx               context.Context
	client, inProcess streamsAPI
}

// compare runs call on both paths, reports where they differ, and returns
// the SDK client's output and error.
func compare[O any](p *streamsPair, name string, call func(c streamsAPI) (O, error)) (O, error) {
	p.t.Helper()
	want, wantErr := call(p.client)
	got, gotErr := call(p.inProcess)
	var invalid smithy.InvalidParamsError
	if errors.As(wantErr, &invalid) {
		// The SDK refuses the input before sending it; the in-process API, which
		// runs none of the SDK's client-side checks, has the engine answer it.
		if code, _ := apiError(gotErr); code != engine.TypeValidation {
			p.t.Errorf("%s: error = %v, want a ValidationException from the engine", name, gotErr)
		}
		return want, wantErr
	}
	if msg := sameError(gotErr, wantErr); msg != "" {
		p.t.Errorf("%s: %s", name, msg)
		return want, wantErr
	}
	if wantErr == nil && !reflect.DeepEqual(withoutMetadata(got), withoutMetadata(want)) {
		p.t.Errorf("%s: output differs:\n got %s\nwant %s", name, show(got), show(want))
	}
	return want, wantErr
}

// same is compare for a call that may fail: it returns the SDK client's
// output.
func same[O any](p *streamsPair, name string, call func(c streamsAPI) (O, error)) O {
	p.t.Helper()
	out, _ := compare(p, name, call)
	return out
}

// succeeds is compare for a call that must succeed: it stops the test when
// the SDK client's call fails.
func succeeds[O any](p *streamsPair, name string, call func(c streamsAPI) (O, error)) O {
	p.t.Helper()
	out, err := compare(p, name, call)
	if err != nil {
		p.t.Fatalf("%s: %v", name, err)
	}
	return out
}

// readShard reads a shard from iterator typ to its end (a closed shard) or
// to an empty page (the open one), Limit records a page, comparing every
// page; it returns the records read.
func (p *streamsPair) readShard(arn string, shard stypes.Shard, limit int32) []stypes.Record {
	p.t.Helper()
	name := fmt.Sprintf("%s %s", arn[strings.LastIndex(arn, "/")+1:], aws.ToString(shard.ShardId))
	it := succeeds(p, name+" iterator", func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return c.GetShardIterator(p.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	})
	var records []stypes.Record
	for iter, page := it.ShardIterator, 0; iter != nil; page++ {
		out := succeeds(p, fmt.Sprintf("%s page %d", name, page), func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) {
			return c.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(limit)})
		})
		records = append(records, out.Records...)
		if len(out.Records) == 0 && shard.SequenceNumberRange.EndingSequenceNumber == nil {
			break
		}
		iter = out.NextShardIterator
	}
	return records
}

// TestStreamsAPIMatchesClient compares the in-process Streams API with
// the SDK client on records of every view type holding every attribute
// type, paging by Limit and by the 1 MB limit, closed shards (rolled over
// and switched off), service writes, and the errors.
// ddb/conformance compares the two paths on every conformance step of the
// Streams cases; this is the quick check beside the code.
func TestStreamsAPIMatchesClient(t *testing.T) {
	env := mustOpen(t)
	p := &streamsPair{t: t, ctx: env.ctx, client: env.e.StreamsClient(), inProcess: env.e.StreamsAPI()}
	t0 := *env.clock
	every := item("PK", s("a"), "s", s("x <&> \u2028 é"), "n", n("-1.50e3"), "b", &types.AttributeValueMemberB{Value: []byte{0, 1, 0xff}},
		"ss", &types.AttributeValueMemberSS{Value: []string{"p", "q"}}, "ns", &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"bs", &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
		"m", &types.AttributeValueMemberM{Value: item("deep", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("y"), n("2"), &types.AttributeValueMemberM{Value: item()}}})},
		"l", &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}}},
		"z", &types.AttributeValueMemberNULL{Value: true}, "t", &types.AttributeValueMemberBOOL{Value: true})
	views := []types.StreamViewType{types.StreamViewTypeKeysOnly, types.StreamViewTypeNewImage, types.StreamViewTypeOldImage, types.StreamViewTypeNewAndOldImages}
	arns := map[types.StreamViewType]string{}
	for _, view := range views {
		tbl := "t-" + strings.ToLower(string(view))
		arns[view] = env.createStreamTable(tbl, view)
		env.Put(tbl, every) // INSERT
		changed := item("PK", s("a"), "s", s("y"), "bs", &types.AttributeValueMemberBS{Value: [][]byte{{9}}})
		env.Put(tbl, changed) // MODIFY
		env.Put(tbl, item("PK", s("b"), "v", n("1")))
		env.must(env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(tbl), Key: item("PK", s("a"))})) // REMOVE
		// A TTL deletion: the service's write.
		env.setTTL(tbl, true)
		env.Put(tbl, item("PK", s("c"), "exp", n(fmt.Sprint(env.clock.Unix()-1))))
		if deleted, err := env.e.SweepExpired(); err != nil || deleted != 1 {
			t.Fatalf("SweepExpired = %d, %v; want 1", deleted, err)
		}
		// The shard rolls over at the next write: the first shard is closed.
		*env.clock = env.clock.Add(engine.DefaultStreamShardDuration)
		env.Put(tbl, item("PK", s("d"), "m", &types.AttributeValueMemberM{Value: item("k", s("v"))}))
	}
	// Switched off: its last shard closed, read to its end without a next
	// iterator; switched on again: a second stream of the table.
	off := "t-" + strings.ToLower(string(types.StreamViewTypeNewImage))
	env.must(env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String(off), StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}))
	*env.clock = env.clock.Add(time.Millisecond)
	env.must(env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String(off),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}))
	env.Put(off, item("PK", s("e")))

	// Listing: all, paged, one table's, none.
	all := succeeds(p, "list", func(c streamsAPI) (*dynamodbstreams.ListStreamsOutput, error) {
		return c.ListStreams(p.ctx, &dynamodbstreams.ListStreamsInput{})
	})
	if len(all.Streams) != 5 {
		t.Fatalf("ListStreams: %d streams, want 5", len(all.Streams))
	}
	var start *string
	for page := 0; page == 0 || start != nil; page++ {
		out := succeeds(p, fmt.Sprintf("list page %d", page), func(c streamsAPI) (*dynamodbstreams.ListStreamsOutput, error) {
			return c.ListStreams(p.ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(2), ExclusiveStartStreamArn: start})
		})
		start = out.LastEvaluatedStreamArn
	}
	same(p, "list table", func(c streamsAPI) (*dynamodbstreams.ListStreamsOutput, error) {
		return c.ListStreams(p.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String(off)})
	})
	same(p, "list none", func(c streamsAPI) (*dynamodbstreams.ListStreamsOutput, error) {
		return c.ListStreams(p.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("nope")})
	})

	// Every stream described (also a shard at a time) and read to its end,
	// two records a page.
	for _, s := range all.Streams {
		arn := aws.ToString(s.StreamArn)
		desc := succeeds(p, "describe "+arn, func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) {
			return c.DescribeStream(p.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: s.StreamArn})
		})
		var start *string
		for page := 0; page == 0 || start != nil; page++ {
			out := succeeds(p, fmt.Sprintf("describe %s page %d", arn, page), func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) {
				return c.DescribeStream(p.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: s.StreamArn, Limit: aws.Int32(1), ExclusiveStartShardId: start})
			})
			start = out.StreamDescription.LastEvaluatedShardId
		}
		for _, shard := range desc.StreamDescription.Shards {
			p.readShard(arn, shard, 2)
		}
	}

	// Each view's records hold what it says, every attribute type included.
	for _, view := range views {
		desc := succeeds(p, "describe "+string(view), func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) {
			return c.DescribeStream(p.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arns[view])})
		})
		records := p.readShard(arns[view], desc.StreamDescription.Shards[0], 1000)
		if len(records) != 6 {
			t.Fatalf("%s: %d records in the first shard, want 6", view, len(records))
		}
		withNew := view == types.StreamViewTypeNewImage || view == types.StreamViewTypeNewAndOldImages
		if got := len(records[0].Dynamodb.NewImage); withNew && got != len(every) || !withNew && got != 0 {
			t.Errorf("%s: INSERT's NewImage has %d attributes", view, got)
		}
		if records[5].UserIdentity == nil {
			t.Errorf("%s: the TTL deletion has no userIdentity", view)
		}
	}

	// Iterators of each type, at and after a sequence number.
	desc := succeeds(p, "describe keys", func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) {
		return c.DescribeStream(p.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly])})
	})
	shard := desc.StreamDescription.Shards[0]
	seq := shard.SequenceNumberRange.StartingSequenceNumber
	iterators := []dynamodbstreams.GetShardIteratorInput{
		{ShardIteratorType: stypes.ShardIteratorTypeLatest},
		{ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: seq},
		{ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber, SequenceNumber: seq},
		// Errors.
		{ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber},
		{ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon, SequenceNumber: seq},
		{ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber, SequenceNumber: aws.String("12")},
		{ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber, SequenceNumber: aws.String("999999999999999999999")},
		{ShardIteratorType: "FIRST"},
		{ShardIteratorType: stypes.ShardIteratorTypeLatest, ShardId: aws.String("shardId-00000000000000000000-00000000")},
		{ShardIteratorType: stypes.ShardIteratorTypeLatest, ShardId: aws.String("")},
		{ShardIteratorType: stypes.ShardIteratorTypeLatest, StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly] + "x")},
		{ShardIteratorType: stypes.ShardIteratorTypeLatest, StreamArn: aws.String("")},
	}
	for i, in := range iterators {
		if in.StreamArn == nil {
			in.StreamArn = aws.String(arns[types.StreamViewTypeKeysOnly])
		}
		if in.ShardId == nil {
			in.ShardId = shard.ShardId
		}
		out := same(p, fmt.Sprintf("iterator %d %s", i, in.ShardIteratorType), func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
			return c.GetShardIterator(p.ctx, &in)
		})
		if out != nil {
			same(p, fmt.Sprintf("iterator %d %s records", i, in.ShardIteratorType), func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) {
				return c.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: out.ShardIterator})
			})
		}
	}

	// Other errors.
	missing := "arn:aws:dynamodb:ddblocal:000000000000:table/none/stream/2026-01-01T00:00:00.000"
	for i, in := range []dynamodbstreams.DescribeStreamInput{{StreamArn: aws.String(missing)}, {StreamArn: aws.String("garbage")}, {},
		{StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly]), Limit: aws.Int32(0)}, {StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly]), Limit: aws.Int32(101)}} {
		same(p, fmt.Sprintf("describe error %d", i), func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) { return c.DescribeStream(p.ctx, &in) })
	}
	for i, in := range []dynamodbstreams.ListStreamsInput{{Limit: aws.Int32(0)}, {Limit: aws.Int32(101)}} {
		same(p, fmt.Sprintf("list error %d", i), func(c streamsAPI) (*dynamodbstreams.ListStreamsOutput, error) { return c.ListStreams(p.ctx, &in) })
	}
	latest := succeeds(p, "latest", func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return c.GetShardIterator(p.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly]), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	})
	for i, in := range []dynamodbstreams.GetRecordsInput{{ShardIterator: aws.String("garbage")}, {}, {ShardIterator: latest.ShardIterator, Limit: aws.Int32(0)},
		{ShardIterator: latest.ShardIterator, Limit: aws.Int32(1001)}} {
		same(p, fmt.Sprintf("records error %d", i), func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) { return c.GetRecords(p.ctx, &in) })
	}
	*env.clock = env.clock.Add(engine.ShardIteratorLifetime + time.Second)
	same(p, "expired iterator", func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) {
		return c.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: latest.ShardIterator})
	})
	// Trimmed under an iterator issued before: TrimmedDataAccessException.
	// The keys-only stream's second shard, the newest (it stays), holds one
	// record, written DefaultStreamShardDuration after the start.
	second := desc.StreamDescription.Shards[1]
	*env.clock = t0.Add(engine.DefaultStreamShardDuration + engine.StreamRetention - time.Minute)
	fresh := succeeds(p, "fresh", func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return c.GetShardIterator(p.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly]), ShardId: second.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	})
	*env.clock = env.clock.Add(2 * time.Minute)
	if _, err := env.e.TrimStreams(); err != nil {
		t.Fatal(err)
	}
	_, err := p.client.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: fresh.ShardIterator})
	var trimmed *stypes.TrimmedDataAccessException
	if !errors.As(err, &trimmed) {
		t.Fatalf("GetRecords after the trim: %v, want a TrimmedDataAccessException", err)
	}
	same(p, "trimmed", func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) {
		return c.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: fresh.ShardIterator})
	})
	same(p, "trimmed at", func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return c.GetShardIterator(p.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arns[types.StreamViewTypeKeysOnly]),
			ShardId: second.ShardId, ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: second.SequenceNumberRange.StartingSequenceNumber})
	})
	// A context already ended: the SDK's error for a request not sent.
	ended, cancel := context.WithCancel(p.ctx)
	cancel()
	_, wantErr := p.client.ListStreams(ended, &dynamodbstreams.ListStreamsInput{})
	_, gotErr := p.inProcess.ListStreams(ended, &dynamodbstreams.ListStreamsInput{})
	if !errors.Is(gotErr, context.Canceled) || !errors.Is(wantErr, context.Canceled) {
		t.Errorf("ended context: error = %v, want %v", gotErr, wantErr)
	}
}

// TestStreamsAPIPagesByMegabyte: a page of GetRecords holds at most 1 MB
// of records by their SizeBytes, not by the length of their JSON, the same
// on both paths. The images are binary, which base64 makes a third longer
// in JSON, so the two counts page differently.
func TestStreamsAPIPagesByMegabyte(t *testing.T) {
	env := mustOpen(t)
	p := &streamsPair{t: t, ctx: env.ctx, client: env.e.StreamsClient(), inProcess: env.e.StreamsAPI()}
	arn := env.createStreamTable("big", types.StreamViewTypeNewAndOldImages)
	body := make([]byte, 300_000)
	// Four INSERTs of 300 kB (a new image only), then two MODIFYs of 600 kB
	// (both images): 400 kB and 800 kB each as JSON.
	for i, pk := range []string{"a", "b", "c", "d", "a", "a"} {
		body[0] = byte(i)
		env.Put("big", item("PK", s(pk), "v", &types.AttributeValueMemberB{Value: bytes.Clone(body)}))
	}
	desc := succeeds(p, "describe", func(c streamsAPI) (*dynamodbstreams.DescribeStreamOutput, error) {
		return c.DescribeStream(p.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	})
	it := succeeds(p, "iterator", func(c streamsAPI) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return c.GetShardIterator(p.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	})
	var pages []int
	for iter := it.ShardIterator; ; {
		out := succeeds(p, fmt.Sprintf("page %d", len(pages)), func(c streamsAPI) (*dynamodbstreams.GetRecordsOutput, error) {
			return c.GetRecords(p.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
		})
		if len(out.Records) == 0 {
			break
		}
		pages = append(pages, len(out.Records))
		iter = out.NextShardIterator
	}
	// By SizeBytes: three INSERTs (900 kB), the fourth and a MODIFY (900 kB),
	// the last MODIFY. By JSON length it would be 2, 2, 1, 1.
	if want := []int{3, 2, 1}; !reflect.DeepEqual(pages, want) {
		t.Errorf("pages of %v records, want %v", pages, want)
	}
}
