package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// legacyTable opens an engine whose table tbl holds the item a/1 with v = 1 and w = "x", and
// extra attributes when given.
func legacyTable(t *testing.T, extra ...any) *testEnv {
	t.Helper()
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.Put("tbl", item(append([]any{"PK", s("a"), "SK", s("1"), "v", n("1"), "w", s("x")}, extra...)...))
	return env
}

func TestLegacyParameters(t *testing.T) {
	t.Run("AttributesToGet", func(t *testing.T) {
		env := legacyTable(t)
		out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")), AttributesToGet: []string{"v"}})
		if err != nil {
			t.Fatal(err)
		}
		if !sameItem(out.Item, item("v", n("1"))) {
			t.Errorf("item = %v", out.Item)
		}
	})
	t.Run("ErrMixed", func(t *testing.T) {
		env := legacyTable(t)
		_, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")), AttributesToGet: []string{"v"}, ProjectionExpression: aws.String("v")})
		wantErr(t, err, "ValidationException", "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")
	})
	t.Run("Expected", func(t *testing.T) {
		env := legacyTable(t)
		_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("1"), "v", n("2")),
			Expected: map[string]types.ExpectedAttributeValue{"v": {Value: n("1")}}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("1")),
			Expected: map[string]types.ExpectedAttributeValue{"v": {Exists: aws.Bool(false)}}})
		wantErr(t, err, "ConditionalCheckFailedException", "")
		_, err = env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("1"), "v", n("2")),
			Expected: map[string]types.ExpectedAttributeValue{"v": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{n("1"), n("3")}}}})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("AttributeUpdates", func(t *testing.T) {
		env := legacyTable(t)
		out, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")), ReturnValues: types.ReturnValueAllNew,
			AttributeUpdates: map[string]types.AttributeValueUpdate{"v": {Action: types.AttributeActionAdd, Value: n("5")}, "w": {Action: types.AttributeActionDelete}, "z": {Value: s("new")}}})
		if err != nil {
			t.Fatal(err)
		}
		if !sameItem(out.Attributes, item("PK", s("a"), "SK", s("1"), "v", n("6"), "z", s("new"))) {
			t.Errorf("attributes = %v", itemJSON(out.Attributes))
		}
	})
	t.Run("KeyConditionsAndQueryFilter", func(t *testing.T) {
		env := legacyTable(t, "z", s("new"))
		env.Put("tbl", item("PK", s("a"), "SK", s("10"))) // matches the key condition, not the filter
		out, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"),
			KeyConditions: map[string]types.Condition{"PK": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}},
				"SK": {ComparisonOperator: types.ComparisonOperatorBeginsWith, AttributeValueList: []types.AttributeValue{s("1")}}},
			QueryFilter: map[string]types.Condition{"z": {ComparisonOperator: types.ComparisonOperatorNotNull}}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Count != 1 || out.ScannedCount != 2 {
			t.Errorf("count = %d, scanned %d", out.Count, out.ScannedCount)
		}
	})
	t.Run("ErrEmptyName", func(t *testing.T) {
		// Each legacy parameter naming "" is refused as DynamoDB words it, not with the message
		// of the placeholder it is translated to; nothing is written.
		env := legacyTable(t)
		key := item("PK", s("a"), "SK", s("1"))
		tbl := aws.String("tbl")
		eq := types.Condition{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}}
		notNull := types.Condition{ComparisonOperator: types.ComparisonOperatorNotNull}
		calls := map[string]func() error{
			"AttributesToGet": func() error {
				_, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: tbl, Key: key, AttributesToGet: []string{"v", ""}})
				return err
			},
			"Expected": func() error {
				_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: tbl, Item: key, Expected: map[string]types.ExpectedAttributeValue{"": {Exists: aws.Bool(false)}}})
				return err
			},
			"AttributeUpdates": func() error {
				_, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: key, AttributeUpdates: map[string]types.AttributeValueUpdate{"": {Value: n("2")}}})
				return err
			},
			"KeyConditions": func() error {
				_, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: tbl, KeyConditions: map[string]types.Condition{"": eq}})
				return err
			},
			"QueryFilter": func() error {
				_, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: tbl, KeyConditions: map[string]types.Condition{"PK": eq}, QueryFilter: map[string]types.Condition{"": notNull}})
				return err
			},
			"ScanFilter": func() error {
				_, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: tbl, ScanFilter: map[string]types.Condition{"": notNull}})
				return err
			},
		}
		for name, call := range calls {
			t.Run(name, func(t *testing.T) { wantErr(t, call(), "ValidationException", "Empty attribute name") })
		}
		out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: tbl, Key: key})
		if err != nil || !sameItem(out.Item, item("PK", s("a"), "SK", s("1"), "v", n("1"), "w", s("x"))) {
			t.Fatalf("after refused requests: %v %v", itemJSON(out.Item), err)
		}
	})
	t.Run("ScanFilter", func(t *testing.T) {
		env := legacyTable(t)
		out, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"),
			ScanFilter: map[string]types.Condition{"v": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{n("6"), n("8")}}}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Count != 0 || out.ScannedCount != 1 {
			t.Errorf("count = %d", out.Count)
		}
	})
}

func TestDeletionProtection(t *testing.T) {
	env := mustOpen(t)
	_, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest, DeletionProtectionEnabled: aws.Bool(true),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	wantErr(t, err, "ValidationException", "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	if _, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
}

func TestQuery_Validation(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, types.GlobalSecondaryIndex{IndexName: aws.String("gsi"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"inc"}}})
	tests := []struct {
		name string
		in   dynamodb.QueryInput
		msg  string
	}{
		{name: "ErrFilterOnKey", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), FilterExpression: aws.String("SK = :p"), ExpressionAttributeValues: item(":p", s("a"))},
			msg: "Filter Expression can only contain non-primary key attributes: Primary key attribute: SK"},
		{name: "ErrNotProjected", in: dynamodb.QueryInput{IndexName: aws.String("gsi"), KeyConditionExpression: aws.String("G = :p"), ProjectionExpression: aws.String("inc, extra"), ExpressionAttributeValues: item(":p", s("a"))},
			msg: "One or more parameter values were invalid: Global secondary index gsi does not project [extra]"},
		{name: "ErrStartKeyOtherPartition", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("a")), ExclusiveStartKey: item("PK", s("b"), "SK", s("x"))},
			msg: "The provided starting key does not match the range key predicate"},
		{name: "ErrEmptyFilter", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), FilterExpression: aws.String(""), ExpressionAttributeValues: item(":p", s("a"))},
			msg: "Invalid FilterExpression: The expression can not be empty;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.TableName = aws.String("tbl")
			_, err := env.client.Query(env.ctx, &in)
			wantErr(t, err, "ValidationException", tt.msg)
		})
	}
}
