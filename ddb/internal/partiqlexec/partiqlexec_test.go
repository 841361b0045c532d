package partiqlexec

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TestEarlierTokenHash: an ExecuteTransaction's ClientRequestToken stored
// by an earlier version is matched by the hash of the JSON request those
// versions sent to TransactWriteItems: only the members a statement sets,
// keys sorted.
func TestEarlierTokenHash(t *testing.T) {
	e, err := engine.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	_, err = e.CreateTable(context.Background(), &engine.CreateTableInput{
		TableName:            "tbl",
		KeySchema:            []storage.KeySchemaElement{{AttributeName: "PK", KeyType: "HASH"}, {AttributeName: "SK", KeyType: "RANGE"}},
		AttributeDefinitions: []storage.AttributeDefinition{{AttributeName: "PK", AttributeType: "S"}, {AttributeName: "SK", AttributeType: "S"}},
		BillingMode:          "PAY_PER_REQUEST",
	})
	if err != nil {
		t.Fatal(err)
	}
	var plans []*dmlRequest
	for _, st := range []string{`INSERT INTO "tbl" VALUE {'PK': 'a', 'SK': '1', 'n': 1.50}`, `UPDATE "tbl" SET v = ? WHERE PK = 'b' AND SK = '2'`, `DELETE FROM "tbl" WHERE PK = 'c' AND SK = '3'`} {
		d, err := planStatement(e, st, []attr.Value{attr.S("x")}[:strings.Count(st, "?")], true)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, d)
	}
	items := `{"Put":{"ConditionExpression":"attribute_not_exists(#n0)","ExpressionAttributeNames":{"#n0":"PK"},"Item":{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"1.5"}},"TableName":"tbl"}},` +
		`{"Update":{"ConditionExpression":"attribute_exists(#n1)","ExpressionAttributeNames":{"#n0":"v","#n1":"PK"},"ExpressionAttributeValues":{":v0":{"S":"x"}},"Key":{"PK":{"S":"b"},"SK":{"S":"2"}},"TableName":"tbl","UpdateExpression":"SET #n0 = :v0"}},` +
		`{"Delete":{"Key":{"PK":{"S":"c"},"SK":{"S":"3"}},"TableName":"tbl"}}`
	for _, c := range []struct {
		name string
		in   ExecuteTransactionInput
		body string
	}{
		{"token", ExecuteTransactionInput{ClientRequestToken: "tok"}, `{"ClientRequestToken":"tok","TransactItems":[` + items + `]}`},
		{"token and capacity", ExecuteTransactionInput{ClientRequestToken: "tok", ReturnConsumedCapacity: "TOTAL"},
			`{"ClientRequestToken":"tok","ReturnConsumedCapacity":"TOTAL","TransactItems":[` + items + `]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := earlierHash(transactWriteOf(plans, &c.in))()
			if want := engine.RequestHash([]byte(c.body)); !bytes.Equal(got, want) {
				t.Errorf("hash %x, want the hash of %s", got, c.body)
			}
		})
	}
}
