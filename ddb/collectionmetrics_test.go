package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestItemCollectionMetrics: writes asking for SIZE to a table with a
// local secondary index get the collection's key and size range; other
// tables and other modes get none; an unknown mode is refused.
func TestItemCollectionMetrics(t *testing.T) {
	env := mustOpen(t)
	for _, name := range []string{"withLSI", "plain"} {
		in := &dynamodb.CreateTableInput{
			TableName: aws.String(name),
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}},
			BillingMode: types.BillingModePayPerRequest,
		}
		if name == "withLSI" {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("L"), AttributeType: types.ScalarAttributeTypeS})
			in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L"), KeyType: types.KeyTypeRange}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}
		}
		if _, err := env.client.CreateTable(env.ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	key := item("PK", s("p"), "SK", s("1"))
	// Both front-ends render the same typed answer: check each.
	for path, client := range map[string]sdkAPI{"http": env.client, "inprocess": env.e.API()} {
		writes := map[string]func(table string, mode types.ReturnItemCollectionMetrics) (*types.ItemCollectionMetrics, error){
			"PutItem": func(table string, mode types.ReturnItemCollectionMetrics) (*types.ItemCollectionMetrics, error) {
				out, err := client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item("PK", s("p"), "SK", s("1"), "L", s("x")), ReturnItemCollectionMetrics: mode})
				if err != nil {
					return nil, err
				}
				return out.ItemCollectionMetrics, nil
			},
			"UpdateItem": func(table string, mode types.ReturnItemCollectionMetrics) (*types.ItemCollectionMetrics, error) {
				out, err := client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key, UpdateExpression: aws.String("SET v = :v"),
					ExpressionAttributeValues: item(":v", s("1")), ReturnItemCollectionMetrics: mode})
				if err != nil {
					return nil, err
				}
				return out.ItemCollectionMetrics, nil
			},
			"DeleteItem": func(table string, mode types.ReturnItemCollectionMetrics) (*types.ItemCollectionMetrics, error) {
				out, err := client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key, ReturnItemCollectionMetrics: mode})
				if err != nil {
					return nil, err
				}
				return out.ItemCollectionMetrics, nil
			},
		}
		for _, op := range []string{"PutItem", "UpdateItem", "DeleteItem"} {
			for _, c := range []struct {
				table string
				mode  types.ReturnItemCollectionMetrics
				want  bool
			}{
				{"withLSI", types.ReturnItemCollectionMetricsSize, true},
				{"withLSI", types.ReturnItemCollectionMetricsNone, false},
				{"withLSI", "", false},
				{"plain", types.ReturnItemCollectionMetricsSize, false},
			} {
				t.Run(path+"/"+op+"/"+c.table+"/"+string(c.mode), func(t *testing.T) {
					icm, err := writes[op](c.table, c.mode)
					if err != nil {
						t.Fatal(err)
					}
					if (icm != nil) != c.want {
						t.Fatalf("ItemCollectionMetrics %+v, want present %v", icm, c.want)
					}
					if !c.want {
						return
					}
					pk, _ := icm.ItemCollectionKey["PK"].(*types.AttributeValueMemberS)
					if len(icm.ItemCollectionKey) != 1 || pk == nil || pk.Value != "p" {
						t.Errorf("ItemCollectionKey %v, want {PK: p}", icm.ItemCollectionKey)
					}
					if r := icm.SizeEstimateRangeGB; len(r) != 2 || r[0] != 0 || r[1] != 1 {
						t.Errorf("SizeEstimateRangeGB %v, want [0 1]", r)
					}
				})
			}
		}
		_, err := writes["PutItem"]("withLSI", "ALWAYS")
		wantErr(t, err, "ValidationException", "1 validation error detected: Value 'ALWAYS' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]")
	}
}
