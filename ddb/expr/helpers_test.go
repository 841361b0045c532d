package expr_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// item decodes an item from DynamoDB JSON, failing the test on error.
func item(t testing.TB, s string) attr.Item {
	t.Helper()
	if s == "" {
		return nil
	}
	it, err := attr.DecodeItem([]byte(s))
	if err != nil {
		t.Fatalf("item %s: %v", s, err)
	}
	return it
}

// values decodes ExpressionAttributeValues from DynamoDB JSON.
func values(t testing.TB, s string) map[string]attr.Value {
	t.Helper()
	if s == "" {
		return nil
	}
	var m map[string]attr.Value
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("values %s: %v", s, err)
	}
	return m
}

// message returns the ValidationError message of err, or "" for nil; any
// other error fails the test.
func message(t testing.TB, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var ve *attr.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *attr.ValidationError", err, err)
	}
	return ve.Message
}

func itemJSON(it attr.Item) string {
	if it == nil {
		return ""
	}
	b, _ := json.Marshal(it)
	return string(b)
}
