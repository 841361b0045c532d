package dynamodblocal_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
)

func TestStart_ListAndCreateTables(t *testing.T) {
	in := dynamodblocal.Start(t)
	if !strings.HasPrefix(in.Endpoint, "http://127.0.0.1:") {
		t.Fatalf("Endpoint = %q", in.Endpoint)
	}
	ctx := context.Background()
	c := in.Client()
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 0 {
		t.Fatalf("fresh instance has tables %v", out.TableNames)
	}
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("launcher-test"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err = c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 1 || out.TableNames[0] != "launcher-test" {
		t.Fatalf("TableNames = %v, want [launcher-test]", out.TableNames)
	}
}

func TestFindJar_EnvOverrideMissing(t *testing.T) {
	t.Setenv(dynamodblocal.JarEnv, t.TempDir()+"/nope.jar")
	_, err := dynamodblocal.FindJar()
	if err == nil || !strings.Contains(err.Error(), "make deps") {
		t.Fatalf("FindJar() error = %v, want one mentioning make deps", err)
	}
}
