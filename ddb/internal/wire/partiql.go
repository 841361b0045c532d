package wire

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
	"github.com/quickphotos/quickphotos/ddb/partiql"
)

// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL
// (package ddb/partiql parses it; partiqltranslate.go turns it into
// DynamoDB requests, which the operations of the JSON API run).

// Limits of the PartiQL operations.
const (
	maxBatchStatements    = 25
	maxTransactStatements = 100
)

// dmlRequest is a statement as the DynamoDB request that runs it.
type dmlRequest struct {
	op  string         // GetItem, Query, Scan, PutItem, UpdateItem or DeleteItem
	req map[string]any // its body
	// projection, for a SELECT of some paths, renames each path's value to
	// its last name, as DynamoDB's PartiQL returns them.
	projection []partiql.Path
	insert     bool // a failed condition means the key exists
}

// planStatement parses statement, binds params and returns the request
// that runs it. single asks for a statement on one item (by its full key),
// as batches and transactions require.
func planStatement(e *engine.Engine, statement string, params []attr.Value, single bool) (*dmlRequest, error) {
	if len(statement) > partiql.MaxStatementLength {
		return nil, engine.Validationf("1 validation error detected: Value at 'statement' failed to satisfy constraint: Member must have length less than or equal to %d", partiql.MaxStatementLength)
	}
	st, n, err := partiql.Parse(statement)
	if err != nil {
		return nil, engine.Validationf("%s", err.Error())
	}
	if n != len(params) {
		return nil, engine.Validationf("Number of parameters in request and statement don't match.")
	}
	tr := newTranslation(params)
	switch st := st.(type) {
	case *partiql.Select:
		return planSelect(e, st, tr, single)
	case *partiql.Insert:
		m, err := partiqlTable(e, st.Table)
		if err != nil {
			return nil, err
		}
		item, ok, err := tr.constant(st.Value)
		if err != nil {
			return nil, err
		}
		if !ok || item.Type != attr.TypeM {
			return nil, errPartiQL("INSERT takes one item: VALUE {'name': value, …}")
		}
		cond := "attribute_not_exists(" + tr.name(storage.HashKey(m.KeySchema)) + ")"
		return &dmlRequest{op: "PutItem", insert: true, req: tr.placeholders(map[string]any{
			"TableName": st.Table, "Item": attr.Item(item.M), "ConditionExpression": cond})}, nil
	case *partiql.Update:
		m, err := partiqlTable(e, st.Table)
		if err != nil {
			return nil, err
		}
		key, rest, ok := tr.splitKey(st.Where, m.KeyNames())
		if !ok {
			return nil, engine.Validationf("Where clause does not contain a mandatory equality on all key attributes")
		}
		var clauses []string
		for _, a := range st.Sets {
			v, err := tr.operand(a.Value)
			if err != nil {
				return nil, err
			}
			clauses = append(clauses, tr.path(a.Path)+" = "+v)
		}
		update := ""
		if len(clauses) > 0 {
			update = "SET " + strings.Join(clauses, ", ")
		}
		if len(st.Removes) > 0 {
			paths := make([]string, len(st.Removes))
			for i, p := range st.Removes {
				paths[i] = tr.path(p)
			}
			update += " REMOVE " + strings.Join(paths, ", ")
		}
		// UPDATE changes an existing item only.
		cond, err := tr.conditionOf(rest)
		if err != nil {
			return nil, err
		}
		exists := "attribute_exists(" + tr.name(storage.HashKey(m.KeySchema)) + ")"
		if cond != "" {
			exists += " AND " + cond
		}
		return &dmlRequest{op: "UpdateItem", req: tr.placeholders(map[string]any{
			"TableName": st.Table, "Key": key, "UpdateExpression": strings.TrimSpace(update), "ConditionExpression": exists})}, nil
	case *partiql.Delete:
		m, err := partiqlTable(e, st.Table)
		if err != nil {
			return nil, err
		}
		key, rest, ok := tr.splitKey(st.Where, m.KeyNames())
		if !ok {
			return nil, engine.Validationf("Where clause does not contain a mandatory equality on all key attributes")
		}
		req := map[string]any{"TableName": st.Table, "Key": key}
		cond, err := tr.conditionOf(rest)
		if err != nil {
			return nil, err
		}
		if cond != "" {
			req["ConditionExpression"] = cond
		}
		return &dmlRequest{op: "DeleteItem", req: tr.placeholders(req)}, nil
	}
	return nil, errPartiQL("unsupported statement")
}

// planSelect plans a SELECT: a GetItem when the WHERE names one item and
// nothing else, a Query when it names a partition (the rest filters), else
// a Scan, which single refuses.
func planSelect(e *engine.Engine, st *partiql.Select, tr *translation, single bool) (*dmlRequest, error) {
	m, err := partiqlTable(e, st.Table)
	if err != nil {
		return nil, err
	}
	ks := m.KeySchema
	if st.Index != "" {
		ix := m.Index(st.Index)
		if ix == nil {
			return nil, engine.Validationf("The table does not have the specified index: %s", st.Index)
		}
		ks = ix.KeySchema
	}
	req := map[string]any{"TableName": st.Table}
	if st.Index != "" {
		req["IndexName"] = st.Index
	}
	if st.Projection != nil {
		paths := make([]string, len(st.Projection))
		for i, p := range st.Projection {
			paths[i] = tr.path(p)
		}
		req["ProjectionExpression"] = strings.Join(paths, ", ")
	}
	names := []string{storage.HashKey(ks)}
	if r := storage.RangeKey(ks); r != "" {
		names = append(names, r)
	}
	plan := &dmlRequest{req: req, projection: st.Projection}
	if key, rest, ok := tr.splitKey(st.Where, names); ok && len(rest) == 0 && st.Index == "" {
		plan.op, req["Key"] = "GetItem", key
		return plan.withPlaceholders(tr), nil
	}
	if single {
		return nil, engine.Validationf("Where clause does not contain a mandatory equality on all key attributes")
	}
	hash := storage.HashKey(ks)
	var keyCond []string
	var rest []partiql.Expr
	rng := storage.RangeKey(ks)
	for _, c := range conjuncts(st.Where) {
		if n, v, ok := tr.keyEquality(c); ok && n == hash && len(keyCond) == 0 {
			keyCond = append(keyCond, tr.name(n)+" = "+tr.value(v))
			continue
		}
		rest = append(rest, c)
	}
	if len(keyCond) == 0 {
		plan.op = "Scan"
		if st.Where != nil {
			cond, err := tr.condition(st.Where)
			if err != nil {
				return nil, err
			}
			req["FilterExpression"] = cond
		}
		return plan.withPlaceholders(tr), nil
	}
	// One condition on the sort key narrows the Query; the others filter.
	var filter []partiql.Expr
	for _, c := range rest {
		if rng != "" && len(keyCond) == 1 && onlyAbout(c, rng) {
			s, err := tr.condition(c)
			if err != nil {
				return nil, err
			}
			keyCond = append(keyCond, s)
			continue
		}
		filter = append(filter, c)
	}
	plan.op, req["KeyConditionExpression"] = "Query", strings.Join(keyCond, " AND ")
	if f, err := tr.conditionOf(filter); err != nil {
		return nil, err
	} else if f != "" {
		req["FilterExpression"] = f
	}
	return plan.withPlaceholders(tr), nil
}

// onlyAbout reports whether condition c is a key condition DynamoDB
// accepts on sort key rng: a comparison or BETWEEN of it with constants,
// or begins_with(rng, constant).
func onlyAbout(c partiql.Expr, rng string) bool {
	isKey := func(e partiql.Expr) bool {
		p, ok := e.(partiql.Path)
		return ok && len(p.Steps) == 1 && !p.Steps[0].IsIndex && p.Steps[0].Name == rng
	}
	isConst := func(e partiql.Expr) bool {
		switch e.(type) {
		case partiql.Literal, partiql.Param:
			return true
		}
		return false
	}
	switch c := c.(type) {
	case *partiql.Binary:
		switch c.Op {
		case "=", "<", "<=", ">", ">=":
			return isKey(c.L) && isConst(c.R)
		}
	case *partiql.Between:
		return isKey(c.X) && isConst(c.Lo) && isConst(c.Hi)
	case *partiql.Call:
		return c.Name == "begins_with" && len(c.Args) == 2 && isKey(c.Args[0]) && isConst(c.Args[1])
	}
	return false
}

// withPlaceholders adds the translation's placeholders to the request.
func (d *dmlRequest) withPlaceholders(tr *translation) *dmlRequest {
	tr.placeholders(d.req)
	return d
}

// partiqlTable loads the metadata of a table a statement names.
func partiqlTable(e *engine.Engine, name string) (*storage.TableMeta, error) {
	var m *storage.TableMeta
	err := e.View(func(tx *bolt.Tx) error {
		var err error
		m, err = storage.LoadTable(tx, name)
		return err
	})
	if err == nil && m == nil {
		err = engine.ResourceNotFound()
	}
	return m, err
}

// dmlAnswer is what a statement's answer holds for PartiQL: the items read
// (decoded), the LastEvaluatedKey of a page, the ConsumedCapacity as the
// JSON protocol renders it, and the items of a TransactGetItems, one per
// action (nil for none).
type dmlAnswer struct {
	items     []attr.Item
	lastKey   attr.Item
	capacity  json.RawMessage
	responses []attr.Item
}

// runDML sends the request to its operation and reads its typed answer.
// (The request itself is still built as JSON, the operations' common
// input.)
func runDML(e *engine.Engine, ctx context.Context, d *dmlRequest) (*dmlAnswer, error) {
	body, err := json.Marshal(d.req)
	if err != nil {
		return nil, err
	}
	resp, err := operations[d.op](e, ctx, body)
	if err != nil {
		if d.insert {
			if de, ok := err.(*engine.Error); ok && de.Type == engine.TypeConditionalCheck {
				return nil, &engine.Error{Type: "DuplicateItemException", Message: "Duplicate primary key exists in table"}
			}
		}
		return nil, err
	}
	return dmlAnswerOf(resp)
}

// dmlAnswerOf reads the answer of an operation PartiQL runs.
func dmlAnswerOf(resp any) (*dmlAnswer, error) {
	out := &dmlAnswer{}
	capacity := func(cc engine.ConsumedCapacity) error {
		if !cc.Reported() {
			return nil
		}
		raw, err := cc.AppendJSON(nil)
		out.capacity = raw
		return err
	}
	switch r := resp.(type) {
	case *engine.GetItemOutput:
		if r.Item.Present() {
			it, err := r.Item.Decode()
			if err != nil {
				return nil, err
			}
			out.items = []attr.Item{it}
		}
		return out, capacity(r.Capacity)
	case *engine.ListOutput:
		out.items = make([]attr.Item, len(r.Items))
		for i, ri := range r.Items {
			it, err := ri.Decode()
			if err != nil {
				return nil, err
			}
			out.items[i] = it
		}
		out.lastKey = r.LastKey
		return out, capacity(r.Capacity)
	case *engine.ItemWriteOutput:
		return out, capacity(r.Capacity)
	case *engine.TransactWriteOutput:
		if r.ConsumedCapacity != nil {
			raw, err := json.Marshal(r.ConsumedCapacity)
			out.capacity = raw
			return out, err
		}
		return out, nil
	case *engine.TransactGetOutput:
		out.responses = make([]attr.Item, len(r.Responses))
		for i, ri := range r.Responses {
			if !ri.Present() {
				continue
			}
			it, err := ri.Decode()
			if err != nil {
				return nil, err
			}
			out.responses[i] = it
		}
		if r.Capacity != nil {
			raw, err := json.Marshal(r.Capacity)
			out.capacity = raw
			return out, err
		}
		return out, nil
	}
	return nil, fmt.Errorf("ddb: PartiQL ran an operation with no typed answer (%T)", resp)
}

// shape reshapes items for the SELECT's projection.
func (d *dmlRequest) shape(items []attr.Item) []attr.Item {
	if d.projection == nil {
		return items
	}
	for i, it := range items {
		shaped := attr.Item{}
		for _, p := range d.projection {
			if v, ok := valueAt(it, p); ok {
				last := p.Steps[len(p.Steps)-1]
				name := last.Name
				if last.IsIndex {
					name = p.Steps[0].Name
				}
				shaped[name] = v
			}
		}
		items[i] = shaped
	}
	return items
}

// valueAt returns the value at path p of item it.
func valueAt(it attr.Item, p partiql.Path) (attr.Value, bool) {
	v, ok := it[p.Steps[0].Name]
	for _, s := range p.Steps[1:] {
		switch {
		case !ok:
			return attr.Value{}, false
		case s.IsIndex && v.Type == attr.TypeL && s.Index < len(v.L):
			v = v.L[s.Index]
		case !s.IsIndex && v.Type == attr.TypeM:
			v, ok = v.M[s.Name]
		default:
			return attr.Value{}, false
		}
	}
	return v, ok
}

// executeStatementInput is the ExecuteStatement request.
type executeStatementInput struct {
	Statement              string       `json:"Statement"`
	Parameters             []attr.Value `json:"Parameters"`
	ConsistentRead         bool         `json:"ConsistentRead"`
	NextToken              *string      `json:"NextToken"`
	Limit                  *int         `json:"Limit"`
	ReturnConsumedCapacity string       `json:"ReturnConsumedCapacity"`
}

// OpExecuteStatement runs one PartiQL statement. A SELECT returns its
// items, at most Limit, with a NextToken to continue; a write returns no
// items.
func OpExecuteStatement(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in executeStatementInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var v engine.Violations
	v.Enum("returnConsumedCapacity", in.ReturnConsumedCapacity, engine.ReturnConsumedCapacitySet...)
	if in.Statement == "" {
		v.Add("null", "statement", "Member must not be null")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	d, err := planStatement(e, in.Statement, in.Parameters, false)
	if err != nil {
		return nil, err
	}
	if in.ReturnConsumedCapacity != "" {
		d.req["ReturnConsumedCapacity"] = in.ReturnConsumedCapacity
	}
	if d.op == "Query" || d.op == "Scan" || d.op == "GetItem" {
		if in.ConsistentRead {
			d.req["ConsistentRead"] = true
		}
	}
	if d.op == "Query" || d.op == "Scan" {
		if in.Limit != nil {
			d.req["Limit"] = *in.Limit
		}
		if in.NextToken != nil {
			start, err := decodeNextToken(*in.NextToken)
			if err != nil {
				return nil, err
			}
			d.req["ExclusiveStartKey"] = start
		}
	}
	out, err := runDML(e, ctx, d)
	if err != nil {
		return nil, err
	}
	resp := map[string]any{"Items": itemsList(d.shape(out.items))}
	if out.lastKey != nil {
		raw := engine.AppendItem(nil, out.lastKey)
		resp["NextToken"] = base64.StdEncoding.EncodeToString(raw)
		resp["LastEvaluatedKey"] = json.RawMessage(raw)
	}
	if out.capacity != nil {
		resp["ConsumedCapacity"] = out.capacity
	}
	return resp, nil
}

// itemsList is items as a response list.
func itemsList(items []attr.Item) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

// decodeNextToken reads a NextToken this engine issued: the encoded
// LastEvaluatedKey of the page before.
func decodeNextToken(token string) (attr.Item, error) {
	raw, err := base64.StdEncoding.DecodeString(token)
	var key attr.Item
	if err == nil {
		err = json.Unmarshal(raw, &key)
	}
	if err != nil || len(key) == 0 {
		return nil, engine.Validationf("Invalid NextToken")
	}
	return key, nil
}

// batchStatement is one statement of BatchExecuteStatement or
// ExecuteTransaction.
type batchStatement struct {
	Statement      string       `json:"Statement"`
	Parameters     []attr.Value `json:"Parameters"`
	ConsistentRead bool         `json:"ConsistentRead"`
}

// batchExecuteInput is the BatchExecuteStatement request.
type batchExecuteInput struct {
	Statements             []batchStatement `json:"Statements"`
	ReturnConsumedCapacity string           `json:"ReturnConsumedCapacity"`
}

// opBatchExecuteStatement runs up to 25 statements on single items, each
// on its own: every statement gets its response, or an error in its place.
func opBatchExecuteStatement(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in batchExecuteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := checkStatements(in.ReturnConsumedCapacity, "statements", len(in.Statements), maxBatchStatements); err != nil {
		return nil, err
	}
	// A batch is all reads or all writes, as in DynamoDB.
	reads := 0
	for _, s := range in.Statements {
		if isSelect(s.Statement) {
			reads++
		}
	}
	if reads != 0 && reads != len(in.Statements) {
		return nil, engine.Validationf("Batch statements can be either all reads or all writes, not a mix")
	}
	responses := make([]any, len(in.Statements))
	for i, s := range in.Statements {
		r := map[string]any{}
		d, err := planStatement(e, s.Statement, s.Parameters, true)
		if err == nil {
			r["TableName"] = d.req["TableName"]
			if s.ConsistentRead && d.op == "GetItem" {
				d.req["ConsistentRead"] = true
			}
			var out *dmlAnswer
			if out, err = runDML(e, ctx, d); err == nil {
				if items := d.shape(out.items); len(items) > 0 {
					r["Item"] = items[0]
				}
			}
		}
		if err != nil {
			de := engine.AsError(err)
			delete(r, "Item")
			r["Error"] = map[string]any{"Code": strings.TrimSuffix(de.Type, "Exception"), "Message": de.Message}
		}
		responses[i] = r
	}
	return map[string]any{"Responses": responses}, nil
}

// checkStatements validates the shape of a batch or transaction of n statements (field names
// them in messages; at most most) and its ReturnConsumedCapacity.
func checkStatements(capacityMode, field string, n, most int) error {
	var v engine.Violations
	v.Enum("returnConsumedCapacity", capacityMode, engine.ReturnConsumedCapacitySet...)
	switch {
	case n == 0:
		v.Add("'[]'", field, "Member must have length greater than or equal to 1")
	case n > most:
		v.Add("'[…]'", field, fmt.Sprintf("Member must have length less than or equal to %d", most))
	}
	if err := v.Err(); err != nil {
		return err
	}
	return nil
}

// executeTransactionInput is the ExecuteTransaction request.
type executeTransactionInput struct {
	TransactStatements     []batchStatement `json:"TransactStatements"`
	ClientRequestToken     string           `json:"ClientRequestToken"`
	ReturnConsumedCapacity string           `json:"ReturnConsumedCapacity"`
}

// opExecuteTransaction runs up to 100 statements on single items as one
// transaction: all reads (a TransactGetItems) or all writes (a
// TransactWriteItems), never a mix.
func opExecuteTransaction(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in executeTransactionInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := checkStatements(in.ReturnConsumedCapacity, "transactStatements", len(in.TransactStatements), maxTransactStatements); err != nil {
		return nil, err
	}
	var reads, writes []map[string]any
	var plans []*dmlRequest
	for _, s := range in.TransactStatements {
		d, err := planStatement(e, s.Statement, s.Parameters, true)
		if err != nil {
			return nil, err
		}
		plans = append(plans, d)
		delete(d.req, "ReturnConsumedCapacity")
		switch d.op {
		case "GetItem":
			reads = append(reads, map[string]any{"Get": d.req})
		case "PutItem":
			writes = append(writes, map[string]any{"Put": d.req})
		case "UpdateItem":
			writes = append(writes, map[string]any{"Update": d.req})
		case "DeleteItem":
			writes = append(writes, map[string]any{"Delete": d.req})
		}
	}
	if len(reads) > 0 && len(writes) > 0 {
		return nil, engine.Validationf("Transactions can be either all reads or all writes, not a mix")
	}
	req := map[string]any{}
	if in.ReturnConsumedCapacity != "" {
		req["ReturnConsumedCapacity"] = in.ReturnConsumedCapacity
	}
	op := "TransactWriteItems"
	if len(reads) > 0 {
		op, req["TransactItems"] = "TransactGetItems", reads
	} else {
		req["TransactItems"] = writes
		if in.ClientRequestToken != "" {
			req["ClientRequestToken"] = in.ClientRequestToken
		}
	}
	out, err := runDML(e, ctx, &dmlRequest{op: op, req: req})
	if de, ok := err.(*engine.Error); ok && de.Type == engine.TypeTransactionCanceled {
		// An INSERT whose item exists is a ValidationError, as DynamoDB
		// Local reports it, not a failed condition.
		for i, r := range de.Reasons {
			if i < len(plans) && plans[i].insert && r.Code == "ConditionalCheckFailed" {
				de.Reasons[i] = engine.CancellationReason{Code: "ValidationError", Message: "Duplicate primary key exists in table"}
			}
		}
		return nil, engine.TransactionCanceled(de.Reasons)
	}
	if err != nil {
		return nil, err
	}
	resp := map[string]any{"Responses": []any{}}
	if out.responses != nil {
		list := make([]any, len(out.responses))
		for i, it := range out.responses {
			item := map[string]any{}
			if it != nil {
				item["Item"] = plans[i].shape([]attr.Item{it})[0]
			}
			list[i] = item
		}
		resp["Responses"] = list
	}
	if out.capacity != nil {
		resp["ConsumedCapacity"] = out.capacity
	}
	return resp, nil
}

// isSelect reports whether a statement reads (its first word is SELECT).
func isSelect(statement string) bool {
	fields := strings.Fields(statement)
	return len(fields) > 0 && strings.EqualFold(fields[0], "SELECT")
}
