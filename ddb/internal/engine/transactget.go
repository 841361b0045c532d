package engine

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
)

// TransactGetInput is the TransactGetItems request.
type TransactGetInput struct {
	TransactItems []struct {
		Get *struct {
			TableName                string            `json:"TableName"`
			Key                      attr.Item         `json:"Key"`
			ProjectionExpression     *string           `json:"ProjectionExpression"`
			ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames"`
		} `json:"Get"`
	} `json:"TransactItems"`
	ReturnConsumedCapacity string `json:"ReturnConsumedCapacity"`
}
