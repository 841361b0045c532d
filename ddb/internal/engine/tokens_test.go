package engine

import (
	"reflect"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

// TestToken_BinaryHashSeesEveryField: changing any one member of a
// request, at any depth, changes its BinaryRequestHash; and the list of
// changes below covers every field of the request's types, so a field
// added to them without a place in the hash fails here.
func TestToken_BinaryHashSeesEveryField(t *testing.T) {
	str := func(s string) *string { return &s }
	base := func() *TransactWriteInput {
		return &TransactWriteInput{
			TransactItems: []TransactWriteItem{{Update: &TransactAction{
				TableName: "tbl", Key: attr.Item{"PK": attr.S("a")}, Item: attr.Item{"x": attr.NS("1", "2")},
				ConditionExpression: str("attribute_exists(PK)"), UpdateExpression: str("SET #n = :v"),
				ReturnValuesOnConditionCheckFailure: "ALL_OLD",
				ExprParams:                          ExprParams{ExpressionAttributeNames: map[string]string{"#n": "n"}, ExpressionAttributeValues: expr.Values{":v": attr.L(attr.S("x"))}},
			}}},
			ClientRequestToken: "tok", ReturnConsumedCapacity: "TOTAL", ReturnItemCollectionMetrics: "SIZE",
		}
	}
	act := func(in *TransactWriteInput) *TransactAction { return in.TransactItems[0].Update }
	changes := map[string]func(*TransactWriteInput){
		"TransactItems":                       func(in *TransactWriteInput) { in.TransactItems = append(in.TransactItems, TransactWriteItem{}) },
		"ConditionCheck":                      func(in *TransactWriteInput) { in.TransactItems[0].ConditionCheck = &TransactAction{} },
		"Put":                                 func(in *TransactWriteInput) { in.TransactItems[0].Put = &TransactAction{} },
		"Delete":                              func(in *TransactWriteInput) { in.TransactItems[0].Delete = &TransactAction{} },
		"Update":                              func(in *TransactWriteInput) { in.TransactItems[0].Update, in.TransactItems[0].Put = nil, act(in) },
		"ClientRequestToken":                  func(in *TransactWriteInput) { in.ClientRequestToken = "tok2" },
		"ReturnConsumedCapacity":              func(in *TransactWriteInput) { in.ReturnConsumedCapacity = "NONE" },
		"ReturnItemCollectionMetrics":         func(in *TransactWriteInput) { in.ReturnItemCollectionMetrics = "" },
		"TableName":                           func(in *TransactWriteInput) { act(in).TableName = "tbl2" },
		"Key":                                 func(in *TransactWriteInput) { act(in).Key["PK"] = attr.S("b") },
		"Item":                                func(in *TransactWriteInput) { act(in).Item["x"] = attr.NS("1", "3") },
		"ConditionExpression":                 func(in *TransactWriteInput) { act(in).ConditionExpression = nil },
		"UpdateExpression":                    func(in *TransactWriteInput) { act(in).UpdateExpression = str("SET #n = :w") },
		"ReturnValuesOnConditionCheckFailure": func(in *TransactWriteInput) { act(in).ReturnValuesOnConditionCheckFailure = "" },
		"ExpressionAttributeNames":            func(in *TransactWriteInput) { act(in).ExpressionAttributeNames["#n"] = "m" },
		"ExpressionAttributeValues":           func(in *TransactWriteInput) { act(in).ExpressionAttributeValues[":v"] = attr.L(attr.S("y")) },
	}
	var fields []string
	for _, typ := range []reflect.Type{reflect.TypeFor[TransactWriteInput](), reflect.TypeFor[TransactWriteItem](), reflect.TypeFor[TransactAction]()} {
		for _, f := range reflect.VisibleFields(typ) {
			if !f.Anonymous {
				fields = append(fields, f.Name)
			}
		}
	}
	for _, f := range fields {
		if changes[f] == nil {
			t.Errorf("no change of %s checked: give it its place in BinaryRequestHash and here", f)
		}
	}
	want := BinaryRequestHash(base())
	if got := BinaryRequestHash(base()); string(got) != string(want) {
		t.Fatal("one request hashes two ways")
	}
	for name, change := range changes {
		in := base()
		change(in)
		if string(BinaryRequestHash(in)) == string(want) {
			t.Errorf("changing %s leaves the hash as it was", name)
		}
	}
	// Moving a byte from one string to the next is another request.
	a, b := base(), base()
	act(a).TableName, act(a).ReturnValuesOnConditionCheckFailure = "tb", "lALL_OLD"
	act(b).TableName = "tbl"
	if string(BinaryRequestHash(a)) == string(BinaryRequestHash(b)) {
		t.Error("two requests differing in where a string ends hash alike")
	}
}
