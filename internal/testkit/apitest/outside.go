package apitest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/dynamo"
)

// UpdateRaw sends one UpdateItem of the item at key, with the server's plain DynamoDB client,
// past the API: as another program would. Nothing but the update is written (no version
// moved, no counter kept), and the change reaches the feed and the change logs only through
// the table's stream. The update's condition is that the item exists.
func (s *Server) UpdateRaw(t testing.TB, key dynamo.Key, update string, names map[string]string, values map[string]types.AttributeValue) {
	t.Helper()
	_, err := s.client.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName: &s.table,
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: key.PK},
			"SK": &types.AttributeValueMemberS{Value: key.SK},
		},
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	})
	if err != nil {
		t.Fatalf("update %s/%s past the API: %v", key.PK, key.SK, err)
	}
}
