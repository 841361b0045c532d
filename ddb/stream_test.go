package ddb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// streamsClient returns the engine's in-process Streams client.
func streamsClient(e *Engine) *dynamodbstreams.Client { return e.StreamsClient() }

// createStreamTable creates table name (PK string hash key) with a stream
// of the given view type, and returns the stream's ARN.
func (env *testEnv) createStreamTable(name string, view types.StreamViewType) string {
	env.t.Helper()
	out, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view},
	})
	if err != nil {
		env.t.Fatal(err)
	}
	return aws.ToString(out.TableDescription.LatestStreamArn)
}

// streamEvent is a record reduced to what the tests compare.
type streamEvent struct {
	Name     string // eventName
	PK       string // the key
	New, Old string // the images' "v" attribute, "-" when the image is absent
	Service  bool   // userIdentity is DynamoDB's service
}

// String renders e compactly for failure messages.
func (e streamEvent) String() string {
	return fmt.Sprintf("%s %s new=%s old=%s service=%v", e.Name, e.PK, e.New, e.Old, e.Service)
}

// readStream reads every record of the stream (readAllRecords).
func (env *testEnv) readStream(arn string) []stypes.Record {
	env.t.Helper()
	records, err := readAllRecords(env.ctx, env.e, arn)
	if err != nil {
		env.t.Fatal(err)
	}
	return records
}

// readAllRecords reads every record of the stream, following child
// shards, as a consumer would: each shard from TRIM_HORIZON to its end or,
// for the open shard, until a read returns nothing.
func readAllRecords(ctx context.Context, e *Engine, arn string) ([]stypes.Record, error) {
	return readAllRecordsWith(ctx, streamsClient(e), arn)
}

// readAllRecordsWith is readAllRecords through sc.
func readAllRecordsWith(ctx context.Context, sc streamsAPI, arn string) ([]stypes.Record, error) {
	desc, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		return nil, err
	}
	var out []stypes.Record
	for _, shard := range desc.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(arn), ShardId: shard.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon,
		})
		if err != nil {
			return nil, err
		}
		for iter := it.ShardIterator; iter != nil; {
			page, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(2)})
			if err != nil {
				return nil, err
			}
			out = append(out, page.Records...)
			if len(page.Records) == 0 && shard.SequenceNumberRange.EndingSequenceNumber == nil {
				break
			}
			iter = page.NextShardIterator
		}
	}
	return out, nil
}

// events reduces records to streamEvents.
func events(records []stypes.Record) []streamEvent {
	image := func(img map[string]stypes.AttributeValue) string {
		if img == nil {
			return "-"
		}
		if v, ok := img["v"].(*stypes.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	var out []streamEvent
	for _, r := range records {
		out = append(out, streamEvent{
			Name:    string(r.EventName),
			PK:      r.Dynamodb.Keys["PK"].(*stypes.AttributeValueMemberS).Value,
			New:     image(r.Dynamodb.NewImage),
			Old:     image(r.Dynamodb.OldImage),
			Service: r.UserIdentity != nil && aws.ToString(r.UserIdentity.PrincipalId) == "dynamodb.amazonaws.com",
		})
	}
	return out
}

// wantEvents checks the stream's records against want.
func (env *testEnv) wantEvents(arn string, want ...streamEvent) []stypes.Record {
	env.t.Helper()
	records := env.readStream(arn)
	if got := events(records); !slices.Equal(got, want) {
		env.t.Fatalf("stream records:\n got %v\nwant %v", got, want)
	}
	return records
}

// TestStream_EveryWritePathRecordsItsChange: each kind of write appends
// its record, in commit order; writes that change nothing, fail their
// condition or are cancelled append none.
func TestStream_EveryWritePathRecordsItsChange(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeNewAndOldImages)
	c, ctx, tbl := env.client, env.ctx, aws.String("tbl")
	key := func(pk string) map[string]types.AttributeValue { return item("PK", s(pk)) }
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustFail := func(_ any, err error) {
		t.Helper()
		if err == nil {
			t.Fatal("write succeeded, want a refusal")
		}
	}

	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: item("PK", s("a"), "v", s("1"))}))
	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: item("PK", s("a"), "v", s("1"))})) // no change
	must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: key("a"), UpdateExpression: aws.String("SET v = :v"),
		ExpressionAttributeValues: item(":v", s("2"))}))
	must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: key("a"), UpdateExpression: aws.String("SET v = :v"),
		ExpressionAttributeValues: item(":v", s("2"))})) // no change
	mustFail(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: item("PK", s("a"), "v", s("x")),
		ConditionExpression: aws.String("attribute_not_exists(PK)")}))
	must(c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tbl, Key: key("a")}))
	must(c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tbl, Key: key("a")})) // absent
	must(c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {
		{PutRequest: &types.PutRequest{Item: item("PK", s("b"), "v", s("1"))}},
		{PutRequest: &types.PutRequest{Item: item("PK", s("c"), "v", s("1"))}},
	}}}))
	must(c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: tbl, Key: key("c"), UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item(":v", s("2"))}},
		{Delete: &types.Delete{TableName: tbl, Key: key("b")}},
		{Put: &types.Put{TableName: tbl, Item: item("PK", s("d"), "v", s("1"))}},
	}}))
	mustFail(c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: tbl, Item: item("PK", s("e"), "v", s("1"))}},
		{ConditionCheck: &types.ConditionCheck{TableName: tbl, Key: key("zz"), ConditionExpression: aws.String("attribute_exists(PK)")}},
	}}))

	// PartiQL writes are item writes like the others.
	must(c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'g', 'v': '1'}`)}))
	must(c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "tbl" SET v = '2' WHERE PK = 'g'`)}))
	must(c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`DELETE FROM "tbl" WHERE PK = 'g'`)}))

	// TTL: the sweeper's deletion is attributed to the service.
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: tbl,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	must(nil, err)
	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: item("PK", s("f"), "v", s("1"), "exp", n(fmt.Sprint(env.clock.Unix()-1)))}))
	if deleted, err := env.e.SweepExpired(); err != nil || deleted != 1 {
		t.Fatalf("SweepExpired = %d, %v; want 1", deleted, err)
	}

	records := env.wantEvents(arn,
		streamEvent{"INSERT", "a", "1", "-", false},
		streamEvent{"MODIFY", "a", "2", "1", false},
		streamEvent{"REMOVE", "a", "-", "2", false},
		streamEvent{"INSERT", "b", "1", "-", false},
		streamEvent{"INSERT", "c", "1", "-", false},
		streamEvent{"MODIFY", "c", "2", "1", false},
		streamEvent{"REMOVE", "b", "-", "1", false},
		streamEvent{"INSERT", "d", "1", "-", false},
		streamEvent{"INSERT", "g", "1", "-", false},
		streamEvent{"MODIFY", "g", "2", "1", false},
		streamEvent{"REMOVE", "g", "-", "2", false},
		streamEvent{"INSERT", "f", "1", "-", false},
		streamEvent{"REMOVE", "f", "-", "1", true},
	)
	for i, r := range records {
		if i > 0 && aws.ToString(r.Dynamodb.SequenceNumber) <= aws.ToString(records[i-1].Dynamodb.SequenceNumber) {
			t.Errorf("record %d: sequence number %s not after %s", i, *r.Dynamodb.SequenceNumber, *records[i-1].Dynamodb.SequenceNumber)
		}
		if len(aws.ToString(r.EventID)) != 32 || aws.ToString(r.EventSource) != "aws:dynamodb" || aws.ToString(r.EventVersion) != "1.1" || aws.ToString(r.AwsRegion) != "local" {
			t.Errorf("record %d: eventID %q source %q version %q region %q", i, aws.ToString(r.EventID), aws.ToString(r.EventSource), aws.ToString(r.EventVersion), aws.ToString(r.AwsRegion))
		}
		if got := r.Dynamodb.ApproximateCreationDateTime; got == nil || !got.Equal(env.clock.Truncate(time.Second)) {
			t.Errorf("record %d: ApproximateCreationDateTime %v, want %v", i, got, env.clock)
		}
	}
}

// TestStream_ViewTypes: each view type carries the images it names, and
// SizeBytes counts what the record carries (the keys and images), as
// DynamoDB Local reports it.
func TestStream_ViewTypes(t *testing.T) {
	for _, c := range []struct {
		view      types.StreamViewType
		want      []streamEvent
		wantSizes []int64
	}{
		// PK "a" is 3 bytes; an image {PK: "a", v: "1"} is 5 bytes.
		{types.StreamViewTypeKeysOnly, []streamEvent{{"INSERT", "a", "-", "-", false}, {"MODIFY", "a", "-", "-", false}, {"REMOVE", "a", "-", "-", false}}, []int64{3, 3, 3}},
		{types.StreamViewTypeNewImage, []streamEvent{{"INSERT", "a", "1", "-", false}, {"MODIFY", "a", "2", "-", false}, {"REMOVE", "a", "-", "-", false}}, []int64{8, 8, 3}},
		{types.StreamViewTypeOldImage, []streamEvent{{"INSERT", "a", "-", "-", false}, {"MODIFY", "a", "-", "1", false}, {"REMOVE", "a", "-", "2", false}}, []int64{3, 8, 8}},
		{types.StreamViewTypeNewAndOldImages, []streamEvent{{"INSERT", "a", "1", "-", false}, {"MODIFY", "a", "2", "1", false}, {"REMOVE", "a", "-", "2", false}}, []int64{8, 13, 8}},
	} {
		t.Run(string(c.view), func(t *testing.T) {
			env := mustOpen(t)
			arn := env.createStreamTable("tbl", c.view)
			env.Put("tbl", item("PK", s("a"), "v", s("1")))
			env.Put("tbl", item("PK", s("a"), "v", s("2")))
			if _, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"))}); err != nil {
				t.Fatal(err)
			}
			records := env.wantEvents(arn, c.want...)
			for i, r := range records {
				if got := aws.ToInt64(r.Dynamodb.SizeBytes); got != c.wantSizes[i] {
					t.Errorf("record %d: SizeBytes %d, want %d", i, got, c.wantSizes[i])
				}
				if r.Dynamodb.StreamViewType != stypes.StreamViewType(c.view) {
					t.Errorf("record %d: StreamViewType %q", i, r.Dynamodb.StreamViewType)
				}
			}
		})
	}
}

// TestStream_Iterators: the four iterator types start where DynamoDB's do,
// a reader at the end of the open shard keeps an iterator that sees later
// writes, and iterators expire after 15 minutes.
func TestStream_Iterators(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	sc := streamsClient(env.e)
	for _, pk := range []string{"a", "b", "c"} {
		env.Put("tbl", item("PK", s(pk)))
	}
	records := env.readStream(arn)
	seq := func(i int) *string { return records[i].Dynamodb.SequenceNumber }
	desc, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shard := desc.StreamDescription.Shards[0].ShardId
	iterator := func(typ stypes.ShardIteratorType, seq *string) *string {
		t.Helper()
		out, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: typ, SequenceNumber: seq})
		if err != nil {
			t.Fatal(err)
		}
		return out.ShardIterator
	}
	keysFrom := func(it *string) (keys []string, next *string) {
		t.Helper()
		out, err := sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events(out.Records) {
			keys = append(keys, e.PK)
		}
		return keys, out.NextShardIterator
	}
	for _, c := range []struct {
		name string
		typ  stypes.ShardIteratorType
		seq  *string
		want []string
	}{
		{"TRIM_HORIZON", stypes.ShardIteratorTypeTrimHorizon, nil, []string{"a", "b", "c"}},
		{"LATEST", stypes.ShardIteratorTypeLatest, nil, nil},
		{"AT_SEQUENCE_NUMBER", stypes.ShardIteratorTypeAtSequenceNumber, seq(1), []string{"b", "c"}},
		{"AFTER_SEQUENCE_NUMBER", stypes.ShardIteratorTypeAfterSequenceNumber, seq(1), []string{"c"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, next := keysFrom(iterator(c.typ, c.seq))
			if !slices.Equal(got, c.want) {
				t.Errorf("keys %v, want %v", got, c.want)
			}
			if next == nil {
				t.Fatal("no NextShardIterator on the open shard")
			}
		})
	}

	latest := iterator(stypes.ShardIteratorTypeLatest, nil)
	env.Put("tbl", item("PK", s("d")))
	if got, _ := keysFrom(latest); !slices.Equal(got, []string{"d"}) {
		t.Errorf("LATEST after a write: %v, want [d]", got)
	}

	*env.clock = env.clock.Add(engine.ShardIteratorLifetime + time.Second)
	_, err = sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: latest})
	wantErr(t, err, "ExpiredIteratorException", "The provided iterator exceeds the maximum age allowed.")
}

// TestStream_Errors: invalid requests get DynamoDB's (or DynamoDB Local's)
// exception and message.
func TestStream_Errors(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	env.CreateTable("plain", false)
	sc := streamsClient(env.e)
	desc, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shard := desc.StreamDescription.Shards[0].ShardId
	missing := strings.Replace(arn, "table/tbl", "table/nope", 1)
	spec := func(enabled bool, view types.StreamViewType) *types.StreamSpecification {
		return &types.StreamSpecification{StreamEnabled: aws.Bool(enabled), StreamViewType: view}
	}
	for _, c := range []struct {
		name      string
		call      func() error
		code, msg string
	}{
		{"enable without a view type", func() error {
			_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("plain"), StreamSpecification: spec(true, "")})
			return err
		}, "ValidationException", "Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams."},
		{"disable with a view type", func() error {
			_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), StreamSpecification: spec(false, types.StreamViewTypeKeysOnly)})
			return err
		}, "ValidationException", "Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present."},
		{"unknown view type", func() error {
			_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("plain"), StreamSpecification: spec(true, "BOGUS")})
			return err
		}, "ValidationException", "1 validation error detected: Value 'BOGUS' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]"},
		{"enable twice", func() error {
			_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), StreamSpecification: spec(true, types.StreamViewTypeNewImage)})
			return err
		}, "ValidationException", "Table already has an enabled stream"},
		{"disable without a stream", func() error {
			_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("plain"), StreamSpecification: spec(false, "")})
			return err
		}, "ValidationException", "Table has no stream to disable"},
		{"describe a missing stream", func() error {
			_, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(missing)})
			return err
		}, "ResourceNotFoundException", "Requested resource not found: Stream: " + missing + " not found"},
		{"iterator of a missing shard", func() error {
			_, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String("shardId-00000000000000000000-00000000"), ShardIteratorType: stypes.ShardIteratorTypeLatest})
			return err
		}, "ResourceNotFoundException", "Shard does not exist"},
		{"iterator of a missing stream", func() error {
			_, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(missing), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeLatest})
			return err
		}, "ResourceNotFoundException", "Stream does not exist"},
		{"AT_SEQUENCE_NUMBER without a number", func() error {
			_, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Invalid SequenceNumber"},
		{"TRIM_HORIZON with a number", func() error {
			_, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon, SequenceNumber: aws.String(storage.FormatSequenceNumber(1))})
			return err
		}, "ValidationException", "One or more parameter values were invalid: SequenceNumber should not be passed for this iterator type"},
		{"a short sequence number", func() error {
			_, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String("1")})
			return err
		}, "ValidationException", "1 validation error detected: Value '1' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21"},
		{"an iterator not issued here", func() error {
			_, err := sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("garbage")})
			return err
		}, "ValidationException", "Invalid ShardIterator"},
		{"GetRecords over 1000", func() error {
			it, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeLatest})
			if err != nil {
				return err
			}
			_, err = sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(1001)})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Limit should be less than or equal to 1000"},
		{"ListStreams over 100", func() error {
			_, err := sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(101)})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Limit cannot be greater than the maximum allowed size: 100"},
	} {
		t.Run(c.name, func(t *testing.T) { wantErr(t, c.call(), c.code, c.msg) })
	}
}

// TestStream_SwitchOffAndOnAndDeleteTable: a stream switched off keeps its
// records, closed, and its ARN in DescribeTable; switching on again starts
// a new stream; a deleted table's stream stays readable.
func TestStream_SwitchOffAndOnAndDeleteTable(t *testing.T) {
	env := mustOpen(t)
	first := env.createStreamTable("tbl", types.StreamViewTypeNewImage)
	env.Put("tbl", item("PK", s("a"), "v", s("1")))
	off, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	if err != nil {
		t.Fatal(err)
	}
	if d := off.TableDescription; d.StreamSpecification != nil || aws.ToString(d.LatestStreamArn) != first {
		t.Fatalf("after switch-off: StreamSpecification %+v, LatestStreamArn %q", d.StreamSpecification, aws.ToString(d.LatestStreamArn))
	}
	env.Put("tbl", item("PK", s("b"), "v", s("1"))) // not recorded anywhere
	env.wantEvents(first, streamEvent{"INSERT", "a", "1", "-", false})
	sc := streamsClient(env.e)
	desc, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(first)})
	if err != nil {
		t.Fatal(err)
	}
	if sd := desc.StreamDescription; sd.StreamStatus != stypes.StreamStatusDisabled || sd.Shards[0].SequenceNumberRange.EndingSequenceNumber == nil {
		t.Fatalf("switched-off stream: status %q, shard %+v", sd.StreamStatus, sd.Shards[0].SequenceNumberRange)
	}

	*env.clock = env.clock.Add(time.Second)
	on, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	second := aws.ToString(on.TableDescription.LatestStreamArn)
	if second == first || !aws.ToBool(on.TableDescription.StreamSpecification.StreamEnabled) {
		t.Fatalf("switched on again: ARN %q (first %q), spec %+v", second, first, on.TableDescription.StreamSpecification)
	}
	env.Put("tbl", item("PK", s("c"), "v", s("1")))
	if _, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	env.wantEvents(second, streamEvent{"INSERT", "c", "1", "-", false})

	list, err := sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("tbl"), Limit: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Streams) != 1 || aws.ToString(list.Streams[0].StreamArn) != second || aws.ToString(list.LastEvaluatedStreamArn) != second {
		t.Fatalf("ListStreams page 1: %+v, last %q", list.Streams, aws.ToString(list.LastEvaluatedStreamArn))
	}
	list, err = sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("tbl"), ExclusiveStartStreamArn: list.LastEvaluatedStreamArn})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Streams) != 1 || aws.ToString(list.Streams[0].StreamArn) != first || list.LastEvaluatedStreamArn != nil {
		t.Fatalf("ListStreams page 2: %+v, last %q", list.Streams, aws.ToString(list.LastEvaluatedStreamArn))
	}
}

// TestStream_ShardsRollOverAndRecordsAreTrimmed: a shard open for
// StreamShardDuration is closed at the next write and followed by a child;
// records older than StreamRetention are trimmed, then their shards, then
// streams switched off that long ago.
func TestStream_ShardsRollOverAndRecordsAreTrimmed(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	sc := streamsClient(env.e)
	env.Put("tbl", item("PK", s("a")))
	*env.clock = env.clock.Add(engine.DefaultStreamShardDuration)
	env.Put("tbl", item("PK", s("b")))
	env.Put("tbl", item("PK", s("c")))

	desc, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shards := desc.StreamDescription.Shards
	if len(shards) != 2 || aws.ToString(shards[1].ParentShardId) != aws.ToString(shards[0].ShardId) ||
		shards[0].SequenceNumberRange.EndingSequenceNumber == nil || shards[1].SequenceNumberRange.EndingSequenceNumber != nil {
		t.Fatalf("shards after a rollover: %+v", shards)
	}
	old := env.wantEvents(arn, streamEvent{"INSERT", "a", "-", "-", false}, streamEvent{"INSERT", "b", "-", "-", false}, streamEvent{"INSERT", "c", "-", "-", false})
	atOld, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shards[1].ShardId,
		ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: old[1].Dynamodb.SequenceNumber})
	if err != nil {
		t.Fatal(err)
	}

	// A day after "a" was written, it is trimmed and so is its shard; "b"
	// and "c", written four hours later, stay.
	*env.clock = env.clock.Add(engine.StreamRetention - engine.DefaultStreamShardDuration)
	if n, err := env.e.TrimStreams(); err != nil || n != 0 {
		t.Fatalf("TrimStreams at exactly a day: %d, %v; want 0", n, err)
	}
	*env.clock = env.clock.Add(time.Millisecond)
	if n, err := env.e.TrimStreams(); err != nil || n != 1 {
		t.Fatalf("TrimStreams: %d, %v; want 1", n, err)
	}
	env.wantEvents(arn, streamEvent{"INSERT", "b", "-", "-", false}, streamEvent{"INSERT", "c", "-", "-", false})
	_, err = sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	wantErr(t, err, "ResourceNotFoundException", "Shard does not exist")

	// Four hours on, "b" and "c" are trimmed under an iterator issued
	// before: the iterator now points at trimmed data.
	*env.clock = env.clock.Add(engine.DefaultStreamShardDuration)
	if n, err := env.e.TrimStreams(); err != nil || n != 2 {
		t.Fatalf("TrimStreams: %d, %v; want 2", n, err)
	}
	_, err = sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: atOld.ShardIterator})
	if code, _ := apiError(err); code != "ExpiredIteratorException" {
		t.Fatalf("an iterator issued 4 hours ago: %v, want ExpiredIteratorException", err)
	}
	_, err = sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shards[1].ShardId,
		ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: old[1].Dynamodb.SequenceNumber})
	wantErr(t, err, "TrimmedDataAccessException", "")

	// Switched off, the stream disappears a day later.
	if _, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	*env.clock = env.clock.Add(engine.StreamRetention + time.Second)
	if _, err := env.e.TrimStreams(); err != nil {
		t.Fatal(err)
	}
	_, err = sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	wantErr(t, err, "ResourceNotFoundException", "")
}

// TestStream_TrimmedUnderAnIterator: records trimmed after an iterator was
// issued make GetRecords answer TrimmedDataAccessException, not skip them.
func TestStream_TrimmedUnderAnIterator(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	sc := streamsClient(env.e)
	env.Put("tbl", item("PK", s("a")))
	*env.clock = env.clock.Add(time.Hour) // the same shard
	env.Put("tbl", item("PK", s("b")))
	*env.clock = env.clock.Add(engine.StreamRetention - time.Hour - time.Minute)
	desc, err := sc.DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	*env.clock = env.clock.Add(2 * time.Minute)
	if n, err := env.e.TrimStreams(); err != nil || n != 1 {
		t.Fatalf("TrimStreams: %d, %v; want 1", n, err)
	}
	_, err = sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	wantErr(t, err, "TrimmedDataAccessException", "Attempted to access data beyond the trim horizon")
}

// TestStream_SurvivesReopen: records and the sequence are durable, and a
// file of format 2 (before streams) is upgraded on Open.
func TestStream_SurvivesReopen(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	env.Put("tbl", item("PK", s("a")))
	env.reopen()
	env.Put("tbl", item("PK", s("b")))
	records := env.wantEvents(arn, streamEvent{"INSERT", "a", "-", "-", false}, streamEvent{"INSERT", "b", "-", "-", false})
	if aws.ToString(records[1].Dynamodb.SequenceNumber) <= aws.ToString(records[0].Dynamodb.SequenceNumber) {
		t.Fatalf("sequence went back after reopen: %v", records)
	}

	// A format 2 file has no streams: drop the table whose stream this was.
	if _, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	env.CreateTable("plain", false)
	if err := env.e.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(env.dir+"/"+FileName, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := downgradeToV3(tx); err != nil { // items as JSON
			return err
		}
		if err := tx.DeleteBucket(storage.BucketStreams); err != nil {
			return err
		}
		return tx.Bucket(storage.BucketMeta).Put(storage.KeyFormat, []byte(storage.FormatV2))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	env.open()
	if _, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("plain"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
		t.Fatalf("enabling a stream on an upgraded format 2 file: %v", err)
	}
}
