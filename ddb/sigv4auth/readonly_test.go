package sigv4auth

import "testing"

func TestReadsOnly(t *testing.T) {
	for _, tc := range []struct {
		name, target, body string
		want               bool
	}{
		{"GetItem", "DynamoDB_20120810.GetItem", `{}`, true},
		{"Query", "DynamoDB_20120810.Query", `{}`, true},
		{"Scan", "DynamoDB_20120810.Scan", `{}`, true},
		{"BatchGetItem", "DynamoDB_20120810.BatchGetItem", `{}`, true},
		{"TransactGetItems", "DynamoDB_20120810.TransactGetItems", `{}`, true},
		{"DescribeTable", "DynamoDB_20120810.DescribeTable", `{}`, true},
		{"ListTagsOfResource", "DynamoDB_20120810.ListTagsOfResource", `{}`, true},
		{"GetRecords", "DynamoDBStreams_20120810.GetRecords", `{}`, true},
		{"PutItem", "DynamoDB_20120810.PutItem", `{}`, false},
		{"UpdateItem", "DynamoDB_20120810.UpdateItem", `{}`, false},
		{"TransactWriteItems", "DynamoDB_20120810.TransactWriteItems", `{}`, false},
		{"CreateTable", "DynamoDB_20120810.CreateTable", `{}`, false},
		{"UpdateTimeToLive", "DynamoDB_20120810.UpdateTimeToLive", `{}`, false},
		{"TagResource", "DynamoDB_20120810.TagResource", `{}`, false},
		{"NoPrefix", "GetItem", `{}`, true},
		{"Unknown", "DynamoDB_20120810.RestoreTableFromBackup", `{}`, false},
		{"Select", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"select * from t"}`, true},
		{"Insert", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"INSERT INTO t VALUE {'PK':'a'}"}`, false},
		{"Unparsable", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"SELEKT"}`, false},
		{"NoStatement", "DynamoDB_20120810.ExecuteStatement", `{}`, false},
		{"StatementNotAString", "DynamoDB_20120810.ExecuteStatement", `{"Statement":1}`, false},
		{"StatementInOtherCase", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"SELECT * FROM t","statement":"DELETE FROM t WHERE PK='a'"}`, false},
		{"StatementRepeated", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"DELETE FROM t WHERE PK='a'","Statement":"SELECT * FROM t"}`, false},
		{"NotJSON", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"SELECT * FROM t"`, false},
		{"TrailingData", "DynamoDB_20120810.ExecuteStatement", `{"Statement":"SELECT * FROM t"} {}`, false},
		{"BatchSelects", "DynamoDB_20120810.BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM t"},{"Statement":"SELECT a FROM t"}]}`, true},
		{"BatchWithUpdate", "DynamoDB_20120810.BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM t"},{"Statement":"UPDATE t SET a=1 WHERE PK='a'"}]}`, false},
		{"BatchListInOtherCase", "DynamoDB_20120810.BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM t"}],"statements":[{"Statement":"DELETE FROM t WHERE PK='a'"}]}`, false},
		{"BatchNoList", "DynamoDB_20120810.BatchExecuteStatement", `{}`, false},
		{"TransactionSelects", "DynamoDB_20120810.ExecuteTransaction", `{"TransactStatements":[{"Statement":"SELECT * FROM t"}]}`, true},
		{"TransactionWithDelete", "DynamoDB_20120810.ExecuteTransaction", `{"TransactStatements":[{"Statement":"DELETE FROM t WHERE PK='a'"}]}`, false},
	} {
		if got := readsOnly(tc.target, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: readsOnly = %v, want %v", tc.name, got, tc.want)
		}
	}
}
