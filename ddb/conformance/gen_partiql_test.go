package conformance

func init() { register(partiqlCase(), partiqlBatchCase()) }

// stmt is an ExecuteStatement step.
func stmt(statement string, extra M) Step {
	return step("ExecuteStatement", merge(M{"Statement": statement}, extra))
}

// failStmt is an ExecuteStatement step that must fail with errType.
func failStmt(errType, statement string, extra M) Step {
	return failStep("ExecuteStatement", errType, merge(M{"Statement": statement}, extra))
}

// partiqlCase checks ExecuteStatement: INSERT (not an upsert), SELECT by
// key, by partition with filters and paging, by scan, with projections
// and parameters, UPDATE with SET and REMOVE on existing items only,
// DELETE, and the errors.
func partiqlCase() Case {
	t := `"{{t}}"`
	return Case{
		Name:   "partiql",
		Doc:    "ExecuteStatement: INSERT, SELECT, UPDATE, DELETE, parameters and errors",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			stmt(`INSERT INTO `+t+` VALUE {'PK': 'a', 'SK': '1', 'n': 1, 'm': {'x': 'y'}, 'tags': <<'p', 'q'>>}`, nil),
			stmt(`INSERT INTO `+t+` VALUE {'PK': 'a', 'SK': '2', 'n': 5}`, nil),
			stmt(`INSERT INTO `+t+` VALUE {'PK': ?, 'SK': ?, 'n': ?}`, M{"Parameters": []any{S("b"), S("1"), N("1")}}),
			withID(expecting(failStmt("DuplicateItemException", `INSERT INTO `+t+` VALUE {'PK': 'a', 'SK': '1'}`, nil),
				M{"__type": "DuplicateItemException"}), "insert-existing"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = 'a' AND SK = '1'`, nil), "by-key"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = 'a'`, nil), "by-partition"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = 'a' AND n > 2`, nil), "partition-filtered"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = 'a' AND SK BETWEEN '1' AND '1'`, nil), "sort-key-range"),
			withID(stmt(`SELECT SK, m.x FROM `+t+` WHERE PK = 'a' AND SK = '1'`, nil), "projection"),
			withID(withUnordered(stmt(`SELECT * FROM `+t+` WHERE n = 1`, nil), "Items"), "scan"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = ? AND SK = ?`, M{"Parameters": []any{S("a"), S("2")}}), "parameters"),
			// LastEvaluatedKey: DynamoDB's response has it beside NextToken
			// (the API reference); DynamoDB Local's does not.
			withID(ignoring(withMask(stmt(`SELECT * FROM `+t+` WHERE PK = 'a'`, M{"Limit": 1}), "NextToken"), "LastEvaluatedKey"), "page-1"),
			withID(stmt(`SELECT * FROM `+t+` WHERE PK = 'nobody'`, nil), "nothing"),
			withID(stmt(`UPDATE `+t+` SET n = n + 1 REMOVE m WHERE PK = 'a' AND SK = '1'`, nil), "update"),
			withID(step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("a"), "SK": S("1")}}), "updated"),
			withID(failStmt("ConditionalCheckFailedException", `UPDATE `+t+` SET n = 1 WHERE PK = 'zz' AND SK = '1'`, nil), "update-missing"),
			withID(failStmt("ValidationException", `UPDATE `+t+` SET n = 1 WHERE PK = 'a'`, nil), "update-partial-key"),
			withID(stmt(`DELETE FROM `+t+` WHERE PK = 'b' AND SK = '1'`, nil), "delete"),
			withID(step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("b"), "SK": S("1")}}), "deleted"),
			withID(failStmt("ValidationException", `SELECTT * FROMM `+t, nil), "syntax-error"),
			withID(failStmt("ValidationException", `SELECT * FROM `+t+` WHERE PK = ?`, nil), "parameter-missing"),
			withID(failStmt("ResourceNotFoundException", `SELECT * FROM "{{none}}" WHERE PK = 'a'`, nil), "no-table"),
		},
	}
}

// partiqlBatchCase checks BatchExecuteStatement (each statement answered
// on its own, errors in place) and ExecuteTransaction (all or nothing).
func partiqlBatchCase() Case {
	t := `"{{t}}"`
	return Case{
		Name:   "partiql-batch",
		Doc:    "BatchExecuteStatement and ExecuteTransaction",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("a"), "SK": S("1"), "v": S("old")}}),
			// The missing table's message: DynamoDB Local's own words (see
			// msgNotFound in messages_test.go).
			withID(ignoring(step("BatchExecuteStatement", M{"Statements": []any{
				M{"Statement": `SELECT * FROM ` + t + ` WHERE PK = 'a' AND SK = '1'`},
				M{"Statement": `SELECT * FROM ` + t + ` WHERE PK = 'none' AND SK = '1'`},
				M{"Statement": `SELECT * FROM "{{none}}" WHERE PK = 'a' AND SK = '1'`},
			}}), "Responses.[].Error.Message"), "batch-reads"),
			withID(step("BatchExecuteStatement", M{"Statements": []any{
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'b', 'SK': '1'}`},
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'a', 'SK': '1'}`},
				M{"Statement": `UPDATE ` + t + ` SET v = 'x' WHERE PK = 'zz' AND SK = '1'`},
			}}), "batch-writes"),
			withID(failStep("BatchExecuteStatement", "ValidationException", M{"Statements": []any{
				M{"Statement": `SELECT * FROM ` + t + ` WHERE PK = 'a' AND SK = '1'`},
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'e', 'SK': '1'}`},
			}}), "batch-mixed"),
			withID(failStep("BatchExecuteStatement", "ValidationException", M{"Statements": []any{}}), "batch-empty"),
			withID(step("ExecuteTransaction", M{"TransactStatements": []any{
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'c', 'SK': '1'}`},
				M{"Statement": `UPDATE ` + t + ` SET v = 'new' WHERE PK = 'a' AND SK = '1'`},
			}}), "transaction"),
			withID(failStep("ExecuteTransaction", "TransactionCanceledException", M{"TransactStatements": []any{
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'd', 'SK': '1'}`},
				M{"Statement": `INSERT INTO ` + t + ` VALUE {'PK': 'a', 'SK': '1'}`},
			}}), "transaction-rolled-back"),
			withID(paginated(step("Scan", M{"TableName": "{{t}}"})), "after"),
			withID(step("ExecuteTransaction", M{"TransactStatements": []any{
				M{"Statement": `SELECT * FROM ` + t + ` WHERE PK = 'a' AND SK = '1'`},
				M{"Statement": `SELECT * FROM ` + t + ` WHERE PK = 'zz' AND SK = '1'`},
			}}), "transaction-reads"),
			withID(failStep("ExecuteTransaction", "ValidationException", M{"TransactStatements": []any{}}), "transaction-empty"),
		},
	}
}

// withUnordered compares the arrays at paths as multisets.
func withUnordered(s Step, paths ...string) Step {
	s.Compare.Unordered = append(s.Compare.Unordered, paths...)
	return s
}

// withMask compares only the presence of paths.
func withMask(s Step, paths ...string) Step {
	s.Compare.Mask = append(s.Compare.Mask, paths...)
	return s
}

// paginated reads every page of a Scan or Query.
func paginated(s Step) Step {
	s.Paginate = true
	s.Compare.Unordered = append(s.Compare.Unordered, "Items")
	return s
}
