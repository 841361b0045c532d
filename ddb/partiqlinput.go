package ddb

// A planned statement (dmlRequest) as the typed input of the operation
// that runs it, and the checks that input's JSON decoding applied.
//
// A statement's values come from its literals and its Parameters. The
// Parameters were decoded as standalone values; literals were parsed and
// their numbers and sets checked by the translation. Where a value lands
// in the request can still refuse it: an item's attributes (Item, Key)
// start one level deeper than a standalone value, and a tuple literal may
// name an attribute with the empty string. checkValues refuses what the
// decoder of the equivalent JSON request would, with its error, before
// anything runs.

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

// exprParams are the request's placeholders.
func (d *dmlRequest) exprParams() exprParams {
	return exprParams{ExpressionAttributeNames: d.names, ExpressionAttributeValues: d.values}
}

// readParams are the parameters of a GetItem, Query or Scan.
func (d *dmlRequest) readParams() readParams {
	return readParams{TableName: d.table, ProjectionExpression: d.projectionExpr, ConsistentRead: d.consistent,
		ReturnConsumedCapacity: d.capacity, exprParams: d.exprParams()}
}

// listParams are the parameters of a Query or Scan.
func (d *dmlRequest) listParams() listParams {
	return listParams{readParams: d.readParams(), IndexName: d.index, FilterExpression: d.filter, Limit: d.limit, ExclusiveStartKey: d.start}
}

// writeParams are the parameters of a PutItem, UpdateItem or DeleteItem.
func (d *dmlRequest) writeParams() writeParams {
	return writeParams{TableName: d.table, ConditionExpression: d.condition, ReturnConsumedCapacity: d.capacity, exprParams: d.exprParams()}
}

// transactAction is the request as an action of TransactWriteItems.
func (d *dmlRequest) transactAction() *transactAction {
	return &transactAction{TableName: d.table, Key: d.key, Item: d.item, ConditionExpression: d.condition, UpdateExpression: d.update,
		exprParams: d.exprParams()}
}

// transactWriteItem is the request as an element of TransactWriteItems.
func (d *dmlRequest) transactWriteItem() transactWriteItem {
	switch d.op {
	case "PutItem":
		return transactWriteItem{Put: d.transactAction()}
	case "UpdateItem":
		return transactWriteItem{Update: d.transactAction()}
	}
	return transactWriteItem{Delete: d.transactAction()}
}

// transactGetItem is the request (a GetItem) as an element of
// TransactGetItems, which has no ExpressionAttributeValues.
func (d *dmlRequest) transactGetItem() transactGetItem {
	return transactGetItem{Get: &transactGet{TableName: d.table, Key: d.key, ProjectionExpression: d.projectionExpr,
		ExpressionAttributeNames: d.names}}
}

// dmlAnswer is what a statement's answer holds for PartiQL: the items read
// (decoded), the LastEvaluatedKey of a page and the ConsumedCapacity.
type dmlAnswer struct {
	items    []attr.Item
	lastKey  attr.Item
	capacity consumedCapacity
}

// runDML runs the request's operation on its typed input and reads the
// answer.
func (e *Engine) runDML(ctx context.Context, d *dmlRequest) (*dmlAnswer, error) {
	if err := d.checkValues(true); err != nil {
		return nil, err
	}
	out := &dmlAnswer{}
	switch d.op {
	case "GetItem":
		r, err := e.getItem(ctx, &getItemInput{keyInput: keyInput{Key: d.key}, readParams: d.readParams()})
		if err != nil {
			return nil, err
		}
		if r.item.present() {
			it, err := r.item.decode()
			if err != nil {
				return nil, err
			}
			out.items = []attr.Item{it}
		}
		out.capacity = r.capacity
	case "Query", "Scan":
		var r *listOutput
		var err error
		if d.op == "Query" {
			r, err = e.query(ctx, &queryInput{listParams: d.listParams(), KeyConditionExpression: d.keyCondition})
		} else {
			r, err = e.scan(ctx, &scanInput{listParams: d.listParams()})
		}
		if err != nil {
			return nil, err
		}
		out.items = make([]attr.Item, len(r.items))
		for i, ri := range r.items {
			if out.items[i], err = ri.decode(); err != nil {
				return nil, err
			}
		}
		out.lastKey, out.capacity = r.lastKey, r.capacity
	case "PutItem", "UpdateItem", "DeleteItem":
		var r *itemWriteOutput
		var err error
		switch d.op {
		case "PutItem":
			r, err = e.putItem(ctx, &putItemInput{Item: d.item, writeParams: d.writeParams()})
		case "UpdateItem":
			r, err = e.updateItem(ctx, &updateItemInput{keyInput: keyInput{Key: d.key}, UpdateExpression: d.update, writeParams: d.writeParams()})
		default:
			r, err = e.deleteItem(ctx, &deleteItemInput{keyInput: keyInput{Key: d.key}, writeParams: d.writeParams()})
		}
		if err != nil {
			if de, ok := err.(*Error); ok && d.insert && de.Type == typeConditionalCheck {
				return nil, &Error{Type: "DuplicateItemException", Message: "Duplicate primary key exists in table"}
			}
			return nil, err
		}
		out.capacity = r.capacity
	default:
		return nil, internalError(errUnknownDML(d.op))
	}
	return out, nil
}

// errUnknownDML is the error of a plan with no operation, which planning
// never makes.
type errUnknownDML string

func (op errUnknownDML) Error() string { return "PartiQL planned an unknown operation " + string(op) }

// checkValues refuses what decoding the request from JSON refused: its
// ExpressionAttributeValues (when values, as standalone values), then its
// Item and Key (as items), in that order, which is the order of their
// names in the JSON PartiQL's requests were written in.
func (d *dmlRequest) checkValues(values bool) error {
	if values {
		if err := checkStandalones(d.values); err != nil {
			return err
		}
	}
	if err := checkItem(d.item); err != nil {
		return err
	}
	return checkItem(d.key)
}

// checkStandalones checks ExpressionAttributeValues as expr.Values decodes
// them: the first invalid value in key order, named with its key.
func checkStandalones(values expr.Values) error {
	for _, v := range values {
		if checkValue(v, 0, false) != nil {
			_, err := expr.ValuesOf(values, func(v attr.Value) (attr.Value, error) { return v, checkValue(v, 0, true) })
			return internalError(err)
		}
	}
	return nil
}

// checkItem checks an item as attr's decoder does: its attributes at depth
// 1, in name order, a name checked after its value; a nesting error wherever
// it is, since it ends the decoding, else the first error. Names are sorted
// only to find which error that is.
func checkItem(it attr.Item) error {
	if checkMembers(it, 1, false) == nil {
		return nil
	}
	return internalError(checkMembers(it, 1, true))
}

// checkValue checks value v at depth as attr's decoder does; the values
// of a statement are already valid scalars and sets, so what remains is
// nesting, the names of map members, and sets (checked again, cheaply).
// ordered takes map members in name order, as the decoder meets them, to
// return the error it returns; without it the error is any one of them.
func checkValue(v attr.Value, depth int, ordered bool) error {
	if depth > attr.MaxDepth {
		return &attr.ValidationError{Message: attr.MsgNestingTooDeep}
	}
	switch v.Type {
	case attr.TypeNone:
		return &attr.ValidationError{Message: attr.MsgEmptyValue}
	case attr.TypeSS, attr.TypeNS, attr.TypeBS:
		return attr.ValidateSet(v)
	case attr.TypeL:
		var first error
		for _, e := range v.L {
			err := checkValue(e, depth+1, ordered)
			if isNesting(err) || err != nil && !ordered {
				return err
			}
			if err != nil && first == nil {
				first = err
			}
		}
		return first
	case attr.TypeM:
		return checkMembers(v.M, depth+1, ordered)
	}
	return nil
}

// checkMembers checks the members of a map or item, each at depth, as
// checkValue does.
func checkMembers(m map[string]attr.Value, depth int, ordered bool) error {
	var first error
	check := func(k string) error {
		err := checkValue(m[k], depth, ordered)
		if bad := attr.CheckName(k); err == nil && bad != nil {
			err = bad
		}
		return err
	}
	if !ordered {
		for k := range m {
			if err := check(k); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		err := check(k)
		if isNesting(err) {
			return err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// partiqlEarlierHash returns the hash earlier versions stored an
// ExecuteTransaction's ClientRequestToken with (requestDigest): requestHash
// of the TransactWriteItems request as the JSON they sent it to the
// operation in, which held only the members a statement sets.
func partiqlEarlierHash(in *transactWriteInput) func() []byte {
	return func() []byte {
		items := make([]map[string]any, len(in.TransactItems))
		for i := range in.TransactItems {
			ti := &in.TransactItems[i]
			kind, a, err := ti.action()
			if err != nil {
				return unmatchableHash()
			}
			body := map[string]any{"TableName": a.TableName}
			if a.Key != nil {
				body["Key"] = a.Key
			}
			if a.Item != nil {
				body["Item"] = a.Item
			}
			if a.ConditionExpression != nil {
				body["ConditionExpression"] = *a.ConditionExpression
			}
			if a.UpdateExpression != nil {
				body["UpdateExpression"] = *a.UpdateExpression
			}
			if a.ExpressionAttributeNames != nil {
				body["ExpressionAttributeNames"] = a.ExpressionAttributeNames
			}
			if a.ExpressionAttributeValues != nil {
				body["ExpressionAttributeValues"] = attr.Item(a.ExpressionAttributeValues)
			}
			items[i] = map[string]any{[...]string{transactConditionCheck: "ConditionCheck", transactPut: "Put",
				transactDelete: "Delete", transactUpdate: "Update"}[kind]: body}
		}
		req := map[string]any{"TransactItems": items}
		if in.ReturnConsumedCapacity != "" {
			req["ReturnConsumedCapacity"] = in.ReturnConsumedCapacity
		}
		if in.ClientRequestToken != "" {
			req["ClientRequestToken"] = in.ClientRequestToken
		}
		body, err := json.Marshal(req)
		if err != nil {
			return unmatchableHash()
		}
		return requestHash(body)
	}
}
