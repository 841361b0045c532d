package ddb

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// itemJSON renders an SDK item deterministically for comparisons.
func itemJSON(it map[string]types.AttributeValue) string {
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := "{"
	for _, k := range keys {
		out += fmt.Sprintf("%q:%s,", k, valueJSON(it[k]))
	}
	return out + "}"
}

// valueJSON renders one SDK value.
func valueJSON(v types.AttributeValue) string {
	var x any
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		x = map[string]string{"S": v.Value}
	case *types.AttributeValueMemberN:
		x = map[string]string{"N": v.Value}
	case *types.AttributeValueMemberBOOL:
		x = map[string]bool{"BOOL": v.Value}
	case *types.AttributeValueMemberM:
		return "{M:" + itemJSON(v.Value) + "}"
	case *types.AttributeValueMemberL:
		out := "{L:["
		for _, e := range v.Value {
			out += valueJSON(e) + ","
		}
		return out + "]}"
	default:
		x = fmt.Sprintf("%T%v", v, v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}
