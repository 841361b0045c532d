package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCreateTable(t *testing.T) {
	hash := []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}}
	hashRange := append(hash, types.KeySchemaElement{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange})
	defS := func(names ...string) []types.AttributeDefinition {
		var out []types.AttributeDefinition
		for _, n := range names {
			out = append(out, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
		}
		return out
	}
	tests := []struct {
		name string
		in   dynamodb.CreateTableInput
		code string
		msg  string
	}{
		{name: "OK", in: dynamodb.CreateTableInput{KeySchema: hashRange, AttributeDefinitions: defS("PK", "SK"), BillingMode: types.BillingModePayPerRequest}},
		{name: "OKProvisioned", in: dynamodb.CreateTableInput{KeySchema: hash, AttributeDefinitions: defS("PK"),
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}}},
		{name: "OKIndexes", in: dynamodb.CreateTableInput{KeySchema: hashRange, AttributeDefinitions: defS("PK", "SK", "G", "L"), BillingMode: types.BillingModePayPerRequest,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
				{IndexName: aws.String("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
				{IndexName: aws.String("inv"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("SK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("PK"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x"}}},
			},
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{
				{IndexName: aws.String("lsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			}}},
		{name: "ErrUndefinedKey", in: dynamodb.CreateTableInput{KeySchema: hashRange, AttributeDefinitions: defS("PK"), BillingMode: types.BillingModePayPerRequest},
			code: "ValidationException"},
		{name: "ErrExtraDefinition", in: dynamodb.CreateTableInput{KeySchema: hash, AttributeDefinitions: defS("PK", "X"), BillingMode: types.BillingModePayPerRequest},
			code: "ValidationException", msg: "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{name: "ErrNoThroughput", in: dynamodb.CreateTableInput{KeySchema: hash, AttributeDefinitions: defS("PK")},
			code: "ValidationException", msg: "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{name: "ErrLSIWithoutRange", in: dynamodb.CreateTableInput{KeySchema: hash, AttributeDefinitions: defS("PK", "L"), BillingMode: types.BillingModePayPerRequest,
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L"), KeyType: types.KeyTypeRange}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}},
			code: "ValidationException"},
		{name: "ErrIncludeWithoutAttributes", in: dynamodb.CreateTableInput{KeySchema: hash, AttributeDefinitions: defS("PK", "G"), BillingMode: types.BillingModePayPerRequest,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude}}}},
			code: "ValidationException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			in := tt.in
			in.TableName = aws.String("tbl")
			out, err := env.client.CreateTable(env.ctx, &in)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.TableDescription.TableStatus != types.TableStatusActive {
				t.Errorf("status = %s", out.TableDescription.TableStatus)
			}
			_, err = env.client.CreateTable(env.ctx, &in)
			wantErr(t, err, "ResourceInUseException", "Table already exists: tbl")
		})
	}
}

func TestDescribeTable(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		env := mustOpen(t)
		env.CreateTable("tbl", true, gsi("inv", "SK", "PK"))
		d, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
		if err != nil {
			t.Fatal(err)
		}
		tb := d.Table
		if *tb.TableName != "tbl" || tb.TableStatus != types.TableStatusActive || *tb.ItemCount != 0 || *tb.TableSizeBytes != 0 {
			t.Errorf("table = %+v", tb)
		}
		if tb.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
			t.Errorf("billing = %v", tb.BillingModeSummary.BillingMode)
		}
		if len(tb.GlobalSecondaryIndexes) != 1 || tb.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive {
			t.Errorf("gsis = %+v", tb.GlobalSecondaryIndexes)
		}
		if *tb.TableArn != "arn:aws:dynamodb:local:000000000000:table/tbl" {
			t.Errorf("arn = %s", *tb.TableArn)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		env := mustOpen(t)
		_, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("nope")})
		wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: nope not found")
	})
	t.Run("WaiterSucceeds", func(t *testing.T) {
		env := mustOpen(t)
		env.CreateTable("tbl", false)
		w := dynamodb.NewTableExistsWaiter(env.client)
		if err := w.Wait(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")}, 5e9); err != nil {
			t.Fatal(err)
		}
	})
}

func TestListTables(t *testing.T) {
	env := mustOpen(t)
	for _, n := range []string{"ccc", "aaa", "bbb", "ddd"} {
		env.CreateTable(n, false)
	}
	out, err := env.client.ListTables(env.ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 2 || out.TableNames[0] != "aaa" || out.TableNames[1] != "bbb" || *out.LastEvaluatedTableName != "bbb" {
		t.Fatalf("page 1 = %v %v", out.TableNames, out.LastEvaluatedTableName)
	}
	out, err = env.client.ListTables(env.ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: out.LastEvaluatedTableName})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 2 || out.TableNames[0] != "ccc" || out.LastEvaluatedTableName != nil {
		t.Fatalf("page 2 = %v %v", out.TableNames, out.LastEvaluatedTableName)
	}
	p := dynamodb.NewListTablesPaginator(env.client, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
	var all []string
	for p.HasMorePages() {
		pg, err := p.NextPage(env.ctx)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pg.TableNames...)
	}
	if len(all) != 4 {
		t.Fatalf("paginated = %v", all)
	}
	_, err = env.client.ListTables(env.ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(101)})
	wantErr(t, err, "ValidationException", "")
}

func TestDeleteTable(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("inv", "SK", "PK"))
	out, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if out.TableDescription.TableStatus != types.TableStatusDeleting {
		t.Errorf("status = %s", out.TableDescription.TableStatus)
	}
	_, err = env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	wantErr(t, err, "ResourceNotFoundException", "")
	env.CreateTable("tbl", false)
}

func TestReopen(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.reopen()
	if _, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
}
