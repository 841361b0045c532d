package partiqlexec

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
	"github.com/quickphotos/quickphotos/ddb/partiql"
)

// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL
// (package ddb/partiql parses it; partiqltranslate.go turns it into
// DynamoDB requests, whose typed inputs the operations' run functions take,
// partiqlinput.go). Each answers with a typed output (engine/output.go).

// Limits of the PartiQL operations.
const (
	maxBatchStatements    = 25
	maxTransactStatements = 100
)

// dmlRequest is a statement as the DynamoDB request that runs it: the
// operation and the parameters the translation gives it, from which the
// operation's typed input is built (input methods, partiqlinput.go).
type dmlRequest struct {
	op    string // GetItem, Query, Scan, PutItem, UpdateItem or DeleteItem
	Table string
	Index string    // Query and Scan of an index
	Key   attr.Item // GetItem, UpdateItem and DeleteItem
	Item  attr.Item // PutItem
	// The expressions, nil when the request has none, and their
	// placeholders (nil when none).
	projectionExpr, keyCondition, filter, condition, Update *string
	Names                                                   map[string]string
	values                                                  expr.Values
	// Projection, for a SELECT of some paths, renames each path's value to
	// its last name, as DynamoDB's PartiQL returns them.
	Projection []partiql.Path
	insert     bool // a failed condition means the key exists

	// What the PartiQL request adds: ConsistentRead (GetItem, Query, Scan),
	// Limit and ExclusiveStartKey (Query, Scan), ReturnConsumedCapacity.
	consistent bool
	limit      *int
	start      attr.Item
	Capacity   string
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
		d := &dmlRequest{op: "PutItem", insert: true, Table: st.Table, Item: attr.Item(item.M), condition: &cond}
		return d.withPlaceholders(tr), nil
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
		update = strings.TrimSpace(update)
		// UPDATE changes an existing item only.
		cond, err := tr.conditionOf(rest)
		if err != nil {
			return nil, err
		}
		exists := "attribute_exists(" + tr.name(storage.HashKey(m.KeySchema)) + ")"
		if cond != "" {
			exists += " AND " + cond
		}
		d := &dmlRequest{op: "UpdateItem", Table: st.Table, Key: key, Update: &update, condition: &exists}
		return d.withPlaceholders(tr), nil
	case *partiql.Delete:
		m, err := partiqlTable(e, st.Table)
		if err != nil {
			return nil, err
		}
		key, rest, ok := tr.splitKey(st.Where, m.KeyNames())
		if !ok {
			return nil, engine.Validationf("Where clause does not contain a mandatory equality on all key attributes")
		}
		d := &dmlRequest{op: "DeleteItem", Table: st.Table, Key: key}
		cond, err := tr.conditionOf(rest)
		if err != nil {
			return nil, err
		}
		if cond != "" {
			d.condition = &cond
		}
		return d.withPlaceholders(tr), nil
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
	plan := &dmlRequest{Table: st.Table, Index: st.Index, Projection: st.Projection}
	if st.Projection != nil {
		paths := make([]string, len(st.Projection))
		for i, p := range st.Projection {
			paths[i] = tr.path(p)
		}
		proj := strings.Join(paths, ", ")
		plan.projectionExpr = &proj
	}
	names := []string{storage.HashKey(ks)}
	if r := storage.RangeKey(ks); r != "" {
		names = append(names, r)
	}
	if key, rest, ok := tr.splitKey(st.Where, names); ok && len(rest) == 0 && st.Index == "" {
		plan.op, plan.Key = "GetItem", key
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
			keyCond = append(keyCond, tr.name(n)+" = "+tr.Value(v))
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
			plan.filter = &cond
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
	kc := strings.Join(keyCond, " AND ")
	plan.op, plan.keyCondition = "Query", &kc
	if f, err := tr.conditionOf(filter); err != nil {
		return nil, err
	} else if f != "" {
		plan.filter = &f
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
	d.Names, d.values = tr.placeholders()
	return d
}

// partiqlTable loads the metadata of a table a statement names, shared
// and read-only (storage/tablecache.go).
func partiqlTable(e *engine.Engine, name string) (*storage.TableMeta, error) {
	var m *storage.TableMeta
	err := e.View(func(tx *bolt.Tx) error {
		var err error
		m, err = e.LoadTableShared(tx, name)
		return err
	})
	if err == nil && m == nil {
		err = engine.ResourceNotFound()
	}
	return m, err
}

// shape reshapes items for the SELECT's projection.
func (d *dmlRequest) shape(items []attr.Item) []attr.Item {
	if d.Projection == nil {
		return items
	}
	for i, it := range items {
		shaped := attr.Item{}
		for _, p := range d.Projection {
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
		case s.IsIndex && v.Type == attr.TypeL && s.Index < len(v.List()):
			v = v.List()[s.Index]
		case !s.IsIndex && v.Type == attr.TypeM:
			v, ok = v.M[s.Name]
		default:
			return attr.Value{}, false
		}
	}
	return v, ok
}

// ExecuteStatementInput is the ExecuteStatement request.
type ExecuteStatementInput struct {
	Statement              string       `json:"Statement"`
	Parameters             []attr.Value `json:"Parameters"`
	ConsistentRead         bool         `json:"ConsistentRead"`
	NextToken              *string      `json:"NextToken"`
	Limit                  *int         `json:"Limit"`
	ReturnConsumedCapacity string       `json:"ReturnConsumedCapacity"`
}

// ExecuteStatement runs one PartiQL statement. A SELECT returns its items,
// at most Limit, with a NextToken to continue; a write returns no items.
func ExecuteStatement(e *engine.Engine, ctx context.Context, in *ExecuteStatementInput) (*engine.ExecuteStatementOutput, error) {
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
	d.Capacity = in.ReturnConsumedCapacity
	if d.op == "Query" || d.op == "Scan" || d.op == "GetItem" {
		d.consistent = in.ConsistentRead
	}
	if d.op == "Query" || d.op == "Scan" {
		d.limit = in.Limit
		if in.NextToken != nil {
			if d.start, err = decodeNextToken(*in.NextToken); err != nil {
				return nil, err
			}
		}
	}
	out, err := runDML(e, ctx, d)
	if err != nil {
		return nil, err
	}
	return &engine.ExecuteStatementOutput{Items: d.shape(out.Items), LastKey: out.LastKey, Capacity: out.Capacity}, nil
}

// decodeNextToken reads a NextToken this engine issued: the encoded
// LastEvaluatedKey of the page before (base64 of its JSON).
func decodeNextToken(token string) (attr.Item, error) {
	raw, err := base64.StdEncoding.DecodeString(token)
	var key attr.Item
	if err == nil {
		key, err = attr.DecodeItem(raw)
	}
	if err != nil || len(key) == 0 {
		return nil, engine.Validationf("Invalid NextToken")
	}
	return key, nil
}

// BatchStatement is one statement of BatchExecuteStatement or
// ExecuteTransaction.
type BatchStatement struct {
	Statement      string       `json:"Statement"`
	Parameters     []attr.Value `json:"Parameters"`
	ConsistentRead bool         `json:"ConsistentRead"`
}

// BatchExecuteInput is the BatchExecuteStatement request.
type BatchExecuteInput struct {
	Statements             []BatchStatement `json:"Statements"`
	ReturnConsumedCapacity string           `json:"ReturnConsumedCapacity"`
}

// BatchExecuteStatement runs up to 25 statements on single items, each on
// its own: every statement gets its response, or an error in its place.
func BatchExecuteStatement(e *engine.Engine, ctx context.Context, in *BatchExecuteInput) (*engine.BatchExecuteOutput, error) {
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
	out := &engine.BatchExecuteOutput{Responses: make([]engine.BatchStatementResponse, len(in.Statements))}
	for i, s := range in.Statements {
		r := &out.Responses[i]
		d, err := planStatement(e, s.Statement, s.Parameters, true)
		if err == nil {
			r.Table = &d.Table
			if d.op == "GetItem" {
				d.consistent = s.ConsistentRead
			}
			var ans *dmlAnswer
			if ans, err = runDML(e, ctx, d); err == nil {
				if items := d.shape(ans.Items); len(items) > 0 {
					r.Item = items[0]
				}
			}
		}
		if err != nil {
			r.Err = engine.AsError(err)
		}
	}
	return out, nil
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

// ExecuteTransactionInput is the ExecuteTransaction request.
type ExecuteTransactionInput struct {
	TransactStatements     []BatchStatement `json:"TransactStatements"`
	ClientRequestToken     string           `json:"ClientRequestToken"`
	ReturnConsumedCapacity string           `json:"ReturnConsumedCapacity"`
}

// ExecuteTransaction runs up to 100 statements on single items as one
// transaction: all reads (a TransactGetItems) or all writes (a
// TransactWriteItems), never a mix.
func ExecuteTransaction(e *engine.Engine, ctx context.Context, in *ExecuteTransactionInput) (*engine.ExecuteTransactionOutput, error) {
	if err := checkStatements(in.ReturnConsumedCapacity, "transactStatements", len(in.TransactStatements), maxTransactStatements); err != nil {
		return nil, err
	}
	plans := make([]*dmlRequest, len(in.TransactStatements))
	reads := 0
	for i, s := range in.TransactStatements {
		d, err := planStatement(e, s.Statement, s.Parameters, true)
		if err != nil {
			return nil, err
		}
		plans[i] = d
		if d.op == "GetItem" {
			reads++
		}
	}
	if reads > 0 && reads < len(plans) {
		return nil, engine.Validationf("Transactions can be either all reads or all writes, not a mix")
	}
	// A Get of TransactGetItems has no ExpressionAttributeValues (a SELECT
	// by key has none to check).
	for _, d := range plans {
		if err := d.checkValues(reads == 0); err != nil {
			return nil, err
		}
	}
	if reads > 0 {
		get := &engine.TransactGetInput{TransactItems: make([]engine.TransactGetItem, len(plans)), ReturnConsumedCapacity: in.ReturnConsumedCapacity}
		for i, d := range plans {
			get.TransactItems[i] = d.transactGetItem()
		}
		r, err := e.TransactGetItems(ctx, get)
		if err != nil {
			return nil, err
		}
		out := &engine.ExecuteTransactionOutput{Responses: make([]attr.Item, len(r.Responses)), Capacity: r.Capacity}
		for i, ri := range r.Responses {
			if !ri.Present() {
				continue
			}
			it, err := ri.Decode()
			if err != nil {
				return nil, err
			}
			out.Responses[i] = plans[i].shape([]attr.Item{it})[0]
		}
		return out, nil
	}
	write := transactWriteOf(plans, in)
	r, err := e.TransactWriteItems(ctx, write, earlierHash(write))
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
	return &engine.ExecuteTransactionOutput{Capacity: r.ConsumedCapacity}, nil
}

// transactWriteOf is the TransactWriteItems request of a transaction's
// write statements, planned.
func transactWriteOf(plans []*dmlRequest, in *ExecuteTransactionInput) *engine.TransactWriteInput {
	write := &engine.TransactWriteInput{TransactItems: make([]engine.TransactWriteItem, len(plans)), ClientRequestToken: in.ClientRequestToken,
		ReturnConsumedCapacity: in.ReturnConsumedCapacity}
	for i, d := range plans {
		write.TransactItems[i] = d.TransactWriteItem()
	}
	return write
}

// isSelect reports whether a statement reads (its first word is SELECT).
func isSelect(statement string) bool {
	fields := strings.Fields(statement)
	return len(fields) > 0 && strings.EqualFold(fields[0], "SELECT")
}
