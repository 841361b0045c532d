package dynamo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// expression gathers the placeholders of an expression built from parts, so that each
// attribute name gets one placeholder however often it is used.
type expression struct {
	names      map[string]string
	namesIndex map[string]string
	values     Item
	conditions []string
}

func newExpression() *expression {
	return &expression{names: map[string]string{}, namesIndex: map[string]string{}, values: Item{}}
}

// name is the placeholder of attribute name n.
func (e *expression) name(n string) string {
	if p, ok := e.namesIndex[n]; ok {
		return p
	}
	p := "#n" + strconv.Itoa(len(e.names))
	e.names[p], e.namesIndex[n] = n, p
	return p
}

// value is a new placeholder for v.
func (e *expression) value(v types.AttributeValue) string {
	p := ":v" + strconv.Itoa(len(e.values))
	e.values[p] = v
	return p
}

// and adds a condition, formatted with placeholders from name and value.
func (e *expression) and(format string, args ...any) {
	e.conditions = append(e.conditions, fmt.Sprintf(format, args...))
}

// condition is the conjunction of the conditions added.
func (e *expression) condition() *string {
	return aws.String(strings.Join(e.conditions, " AND "))
}

// valuesOrNil is the values, or nil when there are none (DynamoDB refuses an empty map).
func (e *expression) valuesOrNil() Item {
	if len(e.values) == 0 {
		return nil
	}
	return e.values
}
