package ddb

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// TestAttributeNameLengths: attribute names are 1 to 65,535 bytes wherever
// they enter (items at any depth, ExpressionAttributeNames, the legacy
// parameters), placeholders at most 255 bytes, and the names of key
// attributes and projected attributes 1 to 255 bytes; past those, DynamoDB's
// ValidationException, over HTTP (the SDK client) and through the
// in-process API alike, and nothing is written.
func TestAttributeNameLengths(t *testing.T) {
	const tooLarge = "Attribute name is too large, must be less than 65536 bytes"
	const keyName = "Names of key attributes and attributes projected into an index must be between 1 and 255 characters, inclusive"
	longest, over, far := strings.Repeat("n", 65535), strings.Repeat("o", 65536), strings.Repeat("f", 100_000)
	key := func(pk string) map[string]types.AttributeValue { return item("PK", s(pk)) }
	with := func(pk, name string) map[string]types.AttributeValue { return item("PK", s(pk), name, s("v")) }
	str := types.ScalarAttributeTypeS
	createTable := func(name, hash string, nonKey ...string) func(ctx context.Context, c sdkAPI) error {
		return func(ctx context.Context, c sdkAPI) error {
			in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(hash), AttributeType: str}}}
			if nonKey != nil {
				in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("G"), AttributeType: str})
				in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
					KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
					Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: nonKey}}}
			}
			_, err := c.CreateTable(ctx, in)
			return err
		}
	}
	cases := []struct {
		name string
		call func(ctx context.Context, c sdkAPI) error
		want string // "" for success
	}{
		{"item name of 65,535 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: with("longest", longest)})
			return err
		}, ""},
		{"item name of 65,536 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: with("over", over)})
			return err
		}, tooLarge},
		{"item name of 100,000 bytes in a map", func(ctx context.Context, c sdkAPI) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"),
				Item: item("PK", s("far"), "m", &types.AttributeValueMemberM{Value: item(far, s("v"))})})
			return err
		}, tooLarge},
		{"BatchWriteItem item name", func(ctx context.Context, c sdkAPI) error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"tbl": {{PutRequest: &types.PutRequest{Item: with("batch", over)}}}}})
			return err
		}, tooLarge},
		{"TransactWriteItems item name", func(ctx context.Context, c sdkAPI) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("tbl"), Item: with("transact", far)}}}})
			return err
		}, tooLarge},
		{"ExpressionAttributeNames value of 65,536 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("names"), UpdateExpression: aws.String("SET #n = :v"),
				ExpressionAttributeNames: map[string]string{"#n": over}, ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("v")}})
			return err
		}, "ExpressionAttributeNames contains invalid value: " + tooLarge + " for key #n"},
		{"ExpressionAttributeNames value of 65,535 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("longest"), ProjectionExpression: aws.String("#n"),
				ExpressionAttributeNames: map[string]string{"#n": longest}})
			return err
		}, ""},
		{"ExpressionAttributeNames key of 256 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a"), ProjectionExpression: aws.String("#n"),
				ExpressionAttributeNames: map[string]string{"#n": "a", "#" + strings.Repeat("k", 255): "b"}})
			return err
		}, "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256"},
		{"ExpressionAttributeNames key of 255 bytes", func(ctx context.Context, c sdkAPI) error {
			k := "#" + strings.Repeat("k", 254)
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a"), ProjectionExpression: aws.String(k),
				ExpressionAttributeNames: map[string]string{k: "b"}})
			return err
		}, ""},
		{"ExpressionAttributeValues key of 256 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("values"), UpdateExpression: aws.String("SET a = :v"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("v"), ":" + strings.Repeat("k", 255): s("w")}})
			return err
		}, "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
		{"AttributesToGet name", func(ctx context.Context, c sdkAPI) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a"), AttributesToGet: []string{"a", over}})
			return err
		}, tooLarge},
		{"AttributeUpdates name", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("legacy"),
				AttributeUpdates: map[string]types.AttributeValueUpdate{far: {Value: s("v"), Action: types.AttributeActionPut}}})
			return err
		}, tooLarge},
		{"key name of 255 bytes", createTable("k255", strings.Repeat("k", 255)), ""},
		{"key name of 256 bytes", createTable("k256", strings.Repeat("k", 256)), keyName},
		{"key name of 65,536 bytes", createTable("kfar", over), keyName},
		{"projected name of 256 bytes", createTable("p256", "PK", strings.Repeat("p", 256)), keyName},
		{"new index key name of 256 bytes", func(ctx context.Context, c sdkAPI) error {
			k := strings.Repeat("g", 256)
			_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(k), AttributeType: str}},
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("byK"),
					KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(k), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
			return err
		}, keyName},
		{"TTL attribute name of 256 bytes", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(strings.Repeat("t", 256)), Enabled: aws.Bool(true)}})
			return err
		}, keyName},
	}
	viaClient, inProcess := mustOpen(t), mustOpen(t)
	paths := []struct {
		name string
		env  *testEnv
		api  sdkAPI
	}{{"http", viaClient, viaClient.client}, {"inprocess", inProcess, inProcess.e.API()}}
	for _, p := range paths {
		p.env.CreateTable("tbl", false)
	}
	for _, c := range cases {
		for _, p := range paths {
			t.Run(c.name+"/"+p.name, func(t *testing.T) {
				err := c.call(p.env.ctx, p.api)
				if c.want == "" {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				wantErr(t, err, engine.TypeValidation, c.want)
			})
		}
	}
	// Only the item with the longest name was written, and only the 255-byte
	// key table created.
	for _, p := range paths {
		out, err := p.api.Scan(p.env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
		if err != nil || len(out.Items) != 1 || out.Items[0]["PK"].(*types.AttributeValueMemberS).Value != "longest" {
			t.Errorf("%s: items after the test: %v, %v; want the one named longest", p.name, out, err)
		}
		tables, err := p.env.client.ListTables(p.env.ctx, &dynamodb.ListTablesInput{})
		if err != nil || strings.Join(tables.TableNames, ",") != "k255,tbl" {
			t.Errorf("%s: tables after the test: %v, %v; want k255 and tbl", p.name, tables, err)
		}
	}
}
