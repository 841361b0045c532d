package ddb

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestUpdateTable(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	for i := range 20 {
		it := item("PK", s(fmt.Sprint("p", i)), "SK", s("s"), "x", n(fmt.Sprint(i)))
		if i%2 == 0 {
			it["G"] = s("even")
		}
		if i == 3 {
			it["G"] = n("3") // wrong type for the new index: not indexed
		}
		env.Put("tbl", it)
	}
	_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("x"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
	wantErr(t, err, "ValidationException", "") // x is not defined
	out, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
	if err != nil {
		t.Fatal(err)
	}
	g := out.TableDescription.GlobalSecondaryIndexes
	if len(g) != 1 || g[0].IndexStatus != types.IndexStatusCreating || out.TableDescription.TableStatus != types.TableStatusUpdating {
		t.Fatalf("table %s, indexes = %+v; want UPDATING while the index is CREATING", out.TableDescription.TableStatus, g)
	}
	d, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	g = d.Table.GlobalSecondaryIndexes
	if len(g) != 1 || g[0].IndexStatus != types.IndexStatusActive || *g[0].ItemCount != 10 {
		t.Fatalf("indexes = %+v", g)
	}
	q, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: item(":g", s("even"))})
	if err != nil {
		t.Fatal(err)
	}
	if q.Count != 10 || len(q.Items[0]) != 3 {
		t.Errorf("count %d, first %v", q.Count, q.Items[0])
	}
	_, err = env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byG"), Select: types.SelectAllAttributes,
		KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: item(":g", s("even"))})
	wantErr(t, err, "ValidationException", "")
	if err := checkInvariants(env.e); err != nil {
		t.Fatal(err)
	}
	// Writes after the backfill maintain the new index.
	env.Put("tbl", item("PK", s("p0"), "SK", s("s"), "G", s("odd")))
	// Delete the index.
	out, err = env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byG")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if g := out.TableDescription.GlobalSecondaryIndexes; len(g) != 1 || g[0].IndexStatus != types.IndexStatusDeleting || len(out.TableDescription.AttributeDefinitions) != 2 {
		t.Errorf("description = %+v", out.TableDescription)
	}
	_, err = env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byG")}}}})
	wantErr(t, err, "ResourceNotFoundException", "")
	// Billing mode.
	out, err = env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}})
	if err != nil {
		t.Fatal(err)
	}
	if *out.TableDescription.ProvisionedThroughput.WriteCapacityUnits != 4 {
		t.Errorf("throughput = %+v", out.TableDescription.ProvisionedThroughput)
	}
}

func TestDescribeTable_Counters(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false, gsi("gsi", "G", ""))
	env.Put("tbl", item("PK", s("a"), "G", s("g")))   // 2+1 + 1+1 = 5 bytes
	env.Put("tbl", item("PK", s("b"), "x", s("yyy"))) // 2+1 + 1+3 = 7 bytes
	d, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Table.ItemCount != 2 || *d.Table.TableSizeBytes != 12 {
		t.Errorf("items %d bytes %d", *d.Table.ItemCount, *d.Table.TableSizeBytes)
	}
	g := d.Table.GlobalSecondaryIndexes[0]
	if *g.ItemCount != 1 || *g.IndexSizeBytes != 5 {
		t.Errorf("index items %d bytes %d", *g.ItemCount, *g.IndexSizeBytes)
	}
}

func TestLocalSecondaryIndex(t *testing.T) {
	env := mustOpen(t)
	_, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("ts"), AttributeType: types.ScalarAttributeTypeN}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byTs"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("ts"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, ts := range []string{"30", "-5", "10.5", "100"} {
		env.Put("tbl", item("PK", s("p"), "SK", s(fmt.Sprint("s", i)), "ts", n(ts), "extra", s("e")))
	}
	out, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byTs"), ConsistentRead: aws.Bool(true),
		KeyConditionExpression: aws.String("PK = :p AND ts > :t"), ExpressionAttributeValues: item(":p", s("p"), ":t", n("0"))})
	if err != nil {
		t.Fatal(err)
	}
	if got := sks(out.Items, "SK"); got != "s2 s0 s3" {
		t.Errorf("order = %s", got)
	}
	if len(out.Items[0]) != 3 {
		t.Errorf("KEYS_ONLY item = %v", out.Items[0])
	}
	out, err = env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byTs"), Select: types.SelectAllAttributes,
		KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("p"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 4 || out.Items[0]["extra"] == nil {
		t.Errorf("fetched items = %v", out.Items)
	}
}

func TestGetItem(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.Put("tbl", item("PK", s("a"), "SK", s("b"), "m", &types.AttributeValueMemberM{Value: item("x", n("1"), "y", n("2"))}, "z", s("z")))
	tests := []struct {
		name       string
		key        map[string]types.AttributeValue
		proj       string
		consistent bool
		want       map[string]types.AttributeValue
		units      float64
		code       string
		msg        string
	}{
		{name: "OK", key: item("PK", s("a"), "SK", s("b")), want: item("PK", s("a"), "SK", s("b"), "m", &types.AttributeValueMemberM{Value: item("x", n("1"), "y", n("2"))}, "z", s("z")), units: 0.5},
		{name: "OKProjection", key: item("PK", s("a"), "SK", s("b")), proj: "m.x, z", consistent: true, want: item("m", &types.AttributeValueMemberM{Value: item("x", n("1"))}, "z", s("z")), units: 1},
		{name: "OKMissing", key: item("PK", s("a"), "SK", s("c")), units: 0.5},
		{name: "ErrExtraKey", key: item("PK", s("a"), "SK", s("b"), "z", s("z")), code: "ValidationException", msg: "The provided key element does not match the schema"},
		{name: "ErrBadProjection", key: item("PK", s("a"), "SK", s("b")), proj: "a,,b", code: "ValidationException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: tt.key, ConsistentRead: aws.Bool(tt.consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
			if tt.proj != "" {
				in.ProjectionExpression = aws.String(tt.proj)
			}
			out, err := env.client.GetItem(env.ctx, in)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameItem(out.Item, tt.want) {
				t.Errorf("item = %v, want %v", itemJSON(out.Item), itemJSON(tt.want))
			}
			if *out.ConsumedCapacity.CapacityUnits != tt.units {
				t.Errorf("units = %v", *out.ConsumedCapacity.CapacityUnits)
			}
		})
	}
}
