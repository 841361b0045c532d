package ddb

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// TestShardIterator_IssueTime: an iterator serves reads for
// ShardIteratorLifetime from the time it was issued; one that claims a
// later issue time than now (the time is written in the iterator, so a
// caller can edit it) is one the engine never issued, refused as an invalid
// iterator, so that no iterator outlives its lifetime, on both paths.
func TestShardIterator_IssueTime(t *testing.T) {
	env := mustOpen(t)
	arn := env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	env.Put("tbl", item("PK", s("a")))
	desc, err := env.e.StreamsAPI().DescribeStream(env.ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	issued, err := env.e.StreamsAPI().GetShardIterator(env.ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	real, err := engine.ParseShardIterator(*issued.ShardIterator)
	if err != nil {
		t.Fatal(err)
	}
	now := *env.clock
	if !real.Issued.Equal(now) {
		t.Fatalf("issued at %v, want now (%v)", real.Issued, now)
	}
	const expired = "The provided iterator exceeds the maximum age allowed."
	for _, c := range []struct {
		name     string
		issued   time.Time
		code     string // "" for success
		message  string
		advanced time.Duration // how far the clock moves before the read
	}{
		{"issued now", now, "", "", 0},
		{"issued at the end of its lifetime", now.Add(-engine.ShardIteratorLifetime), "", "", 0},
		{"issued past its lifetime", now.Add(-engine.ShardIteratorLifetime - time.Millisecond), engine.TypeExpiredIterator, expired, 0},
		{"issued a moment ahead, within the clock skew", now.Add(engine.IteratorClockSkew), "", "", 0},
		{"ahead by the clock skew, expiring from its issue time", now.Add(engine.IteratorClockSkew), engine.TypeExpiredIterator, expired, engine.IteratorClockSkew + engine.ShardIteratorLifetime + time.Millisecond},
		{"issued beyond the clock skew", now.Add(engine.IteratorClockSkew + time.Millisecond), engine.TypeValidation, "Invalid ShardIterator", 0},
		{"issued a year ahead", now.AddDate(1, 0, 0), engine.TypeValidation, "Invalid ShardIterator", 0},
		{"issued a year ahead, read past the lifetime", now.AddDate(1, 0, 0), engine.TypeValidation, "Invalid ShardIterator", engine.ShardIteratorLifetime + time.Hour},
	} {
		forged := real
		forged.Issued = c.issued
		for path, sc := range map[string]streamsAPI{"http": streamsClient(env.e), "inprocess": env.e.StreamsAPI()} {
			t.Run(c.name+"/"+path, func(t *testing.T) {
				*env.clock = now.Add(c.advanced)
				defer func() { *env.clock = now }()
				out, err := sc.GetRecords(env.ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(forged.String())})
				if c.code == "" {
					if err != nil || len(out.Records) != 1 {
						t.Fatalf("GetRecords = %v, %v; want the one record", out, err)
					}
					return
				}
				wantErr(t, err, c.code, c.message)
			})
		}
	}
}
