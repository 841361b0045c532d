package ddb

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTimeToLive(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false, gsi("gsi", "G", ""))
	d, err := env.client.DescribeTimeToLive(env.ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		t.Errorf("status = %s", d.TimeToLiveDescription.TimeToLiveStatus)
	}
	spec := &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}
	if _, err := env.client.UpdateTimeToLive(env.ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: spec}); err != nil {
		t.Fatal(err)
	}
	_, err = env.client.UpdateTimeToLive(env.ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: spec})
	wantErr(t, err, "ValidationException", "TimeToLive is already enabled")
	d, _ = env.client.DescribeTimeToLive(env.ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("tbl")})
	if d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled || *d.TimeToLiveDescription.AttributeName != "exp" {
		t.Errorf("description = %+v", d.TimeToLiveDescription)
	}

	now := env.clock.Unix()
	env.Put("tbl", item("PK", s("soon"), "G", s("g"), "exp", n(fmt.Sprint(now+60))))
	env.Put("tbl", item("PK", s("never"), "G", s("g"), "exp", s("not a number")))
	env.Put("tbl", item("PK", s("ancient"), "G", s("g"), "exp", n("1"))) // more than five years ago: ignored
	env.Put("tbl", item("PK", s("past"), "G", s("g"), "exp", n(fmt.Sprint(now-1))))

	visible := func() int32 {
		out, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
		if err != nil {
			t.Fatal(err)
		}
		q, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("gsi"),
			KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: item(":g", s("g"))})
		if err != nil {
			t.Fatal(err)
		}
		if q.Count != out.Count {
			t.Errorf("index shows %d items, table %d", q.Count, out.Count)
		}
		return out.Count
	}
	if got := visible(); got != 3 {
		t.Errorf("visible = %d, want 3", got)
	}
	get, _ := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("past"))})
	if get.Item != nil {
		t.Error("expired item returned by GetItem")
	}
	// A condition sees an expired item as absent.
	if _, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("past"), "G", s("g")),
		ConditionExpression: aws.String("attribute_not_exists(PK)")}); err != nil {
		t.Fatal(err)
	}
	*env.clock = env.clock.Add(2 * time.Minute)
	if got := visible(); got != 3 {
		t.Errorf("visible after expiry = %d, want 3", got)
	}
	n, err := env.e.SweepExpired()
	if err != nil || n != 1 {
		t.Errorf("swept %d, %v", n, err)
	}
	if err := checkInvariants(env.e); err != nil {
		t.Fatal(err)
	}
	// Only the ancient item, beyond the horizon, is left in the expiry index.
	if got, _ := expiryIndex(t, env.e, "tbl"); len(got) != 1 || got[0] != "ancient:1" {
		t.Errorf("expiry index = %q", got)
	}
	off := &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(false)}
	if _, err := env.client.UpdateTimeToLive(env.ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: off}); err != nil {
		t.Fatal(err)
	}
	if _, present := expiryIndex(t, env.e, "tbl"); present {
		t.Error("expiry bucket left after TTL was disabled")
	}
}

func TestSweeperRuns(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, &Options{NoSync: true, TTLSweepInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c := dynamodbClient(e)
	ctx := t.Context()
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("x"), "exp", n(fmt.Sprint(time.Now().Unix()-10)))}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
		if err != nil {
			t.Fatal(err)
		}
		if *d.Table.ItemCount == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("sweeper did not delete the expired item")
}
