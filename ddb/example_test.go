package ddb_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb"
)

// The engine used in-process: an unchanged aws-sdk-go-v2 client whose HTTP
// client calls the engine directly.
func Example() {
	dir, _ := os.MkdirTemp("", "ddb-example")
	defer os.RemoveAll(dir)
	e, err := ddb.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer e.Close()
	client := dynamodb.New(dynamodb.Options{
		Region:       "local",
		BaseEndpoint: aws.String("http://ddb.local"),
		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
		HTTPClient:   e.HTTPClient(),
	})
	ctx := context.Background()
	_, err = client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("quick-photos"),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}},
	})
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("quick-photos"), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "USER#ann"}, "SK": &types.AttributeValueMemberS{Value: "#METADATA#ann"},
		"name": &types.AttributeValueMemberS{Value: "Ann"},
	}})
	if err != nil {
		log.Fatal(err)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("quick-photos"), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "USER#ann"}, "SK": &types.AttributeValueMemberS{Value: "#METADATA#ann"},
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Item["name"].(*types.AttributeValueMemberS).Value)
	// Output: Ann
}
