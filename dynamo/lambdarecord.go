package dynamo

import (
	"cmp"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// ChangeFromLambdaRecord reads one record of a DynamoDB Streams event, as AWS Lambda hands it
// to a function of an event source mapping, like ChangeFromRecord: false for items that are no
// entity.
func ChangeFromLambdaRecord(r events.DynamoDBEventRecord) (domain.Change, bool, error) {
	op, err := changeOp(r.EventName)
	if err != nil {
		return domain.Change{}, false, err
	}
	keys := fromLambdaItem(r.Change.Keys)
	if !isEntity(keys) {
		return domain.Change{}, false, nil
	}
	c, ok, err := changeOf(op, keys, fromLambdaItem(r.Change.OldImage), fromLambdaItem(r.Change.NewImage))
	c.ID = cmp.Or(r.EventID, r.Change.SequenceNumber)
	return c, ok, err
}

// fromLambdaItem converts an item of aws-lambda-go's events into the DynamoDB API's types.
func fromLambdaItem(item map[string]events.DynamoDBAttributeValue) Item {
	if item == nil {
		return nil
	}
	out := make(Item, len(item))
	for name, v := range item {
		out[name] = fromLambdaValue(v)
	}
	return out
}

func fromLambdaValue(v events.DynamoDBAttributeValue) types.AttributeValue {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}
	case events.DataTypeList:
		l := make([]types.AttributeValue, len(v.List()))
		for i, e := range v.List() {
			l[i] = fromLambdaValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case events.DataTypeMap:
		return &types.AttributeValueMemberM{Value: fromLambdaItem(v.Map())}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}
