package partiqlexec

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
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// ExprParams are the request's placeholders.
func (d *dmlRequest) ExprParams() engine.ExprParams {
	return engine.ExprParams{ExpressionAttributeNames: d.Names, ExpressionAttributeValues: d.values}
}

// ReadParams are the parameters of a GetItem, Query or Scan.
func (d *dmlRequest) ReadParams() engine.ReadParams {
	return engine.ReadParams{TableName: d.Table, ProjectionExpression: d.projectionExpr, ConsistentRead: d.consistent,
		ReturnConsumedCapacity: d.Capacity, ExprParams: d.ExprParams()}
}

// ListParams are the parameters of a Query or Scan.
func (d *dmlRequest) ListParams() engine.ListParams {
	return engine.ListParams{ReadParams: d.ReadParams(), IndexName: d.Index, FilterExpression: d.filter, Limit: d.limit, ExclusiveStartKey: d.start}
}

// WriteParams are the parameters of a PutItem, UpdateItem or DeleteItem.
func (d *dmlRequest) WriteParams() engine.WriteParams {
	return engine.WriteParams{TableName: d.Table, ConditionExpression: d.condition, ReturnConsumedCapacity: d.Capacity, ExprParams: d.ExprParams()}
}

// TransactAction is the request as an action of TransactWriteItems.
func (d *dmlRequest) TransactAction() *engine.TransactAction {
	return &engine.TransactAction{TableName: d.Table, Key: d.Key, Item: d.Item, ConditionExpression: d.condition, UpdateExpression: d.Update,
		ExprParams: d.ExprParams()}
}

// TransactWriteItem is the request as an element of TransactWriteItems.
func (d *dmlRequest) TransactWriteItem() engine.TransactWriteItem {
	switch d.op {
	case "PutItem":
		return engine.TransactWriteItem{Put: d.TransactAction()}
	case "UpdateItem":
		return engine.TransactWriteItem{Update: d.TransactAction()}
	}
	return engine.TransactWriteItem{Delete: d.TransactAction()}
}

// transactGetItem is the request (a GetItem) as an element of
// TransactGetItems, which has no ExpressionAttributeValues.
func (d *dmlRequest) transactGetItem() engine.TransactGetItem {
	return engine.TransactGetItem{Get: &engine.TransactGet{TableName: d.Table, Key: d.Key, ProjectionExpression: d.projectionExpr,
		ExpressionAttributeNames: d.Names}}
}

// dmlAnswer is what a statement's answer holds for PartiQL: the items read
// (decoded), the LastEvaluatedKey of a page and the ConsumedCapacity.
type dmlAnswer struct {
	Items    []attr.Item
	LastKey  attr.Item
	Capacity engine.ConsumedCapacity
}

// runDML runs the request's operation on its typed input and reads the
// answer.
func runDML(e *engine.Engine, ctx context.Context, d *dmlRequest) (*dmlAnswer, error) {
	if err := d.checkValues(true); err != nil {
		return nil, err
	}
	out := &dmlAnswer{}
	switch d.op {
	case "GetItem":
		r, err := e.GetItem(ctx, &engine.GetItemInput{KeyInput: engine.KeyInput{Key: d.Key}, ReadParams: d.ReadParams()})
		if err != nil {
			return nil, err
		}
		if r.Item.Present() {
			it, err := r.Item.Decode()
			if err != nil {
				return nil, err
			}
			out.Items = []attr.Item{it}
		}
		out.Capacity = r.Capacity
	case "Query", "Scan":
		var r *engine.ListOutput
		var err error
		if d.op == "Query" {
			r, err = e.Query(ctx, &engine.QueryInput{ListParams: d.ListParams(), KeyConditionExpression: d.keyCondition})
		} else {
			r, err = e.Scan(ctx, &engine.ScanInput{ListParams: d.ListParams()})
		}
		if err != nil {
			return nil, err
		}
		out.Items = make([]attr.Item, len(r.Items))
		for i, ri := range r.Items {
			if out.Items[i], err = ri.Decode(); err != nil {
				return nil, err
			}
		}
		out.LastKey, out.Capacity = r.LastKey, r.Capacity
	case "PutItem", "UpdateItem", "DeleteItem":
		var r *engine.ItemWriteOutput
		var err error
		switch d.op {
		case "PutItem":
			r, err = e.PutItem(ctx, &engine.PutItemInput{Item: d.Item, WriteParams: d.WriteParams()})
		case "UpdateItem":
			r, err = e.UpdateItem(ctx, &engine.UpdateItemInput{KeyInput: engine.KeyInput{Key: d.Key}, UpdateExpression: d.Update, WriteParams: d.WriteParams()})
		default:
			r, err = e.DeleteItem(ctx, &engine.DeleteItemInput{KeyInput: engine.KeyInput{Key: d.Key}, WriteParams: d.WriteParams()})
		}
		if err != nil {
			if de, ok := err.(*engine.Error); ok && d.insert && de.Type == engine.TypeConditionalCheck {
				return nil, &engine.Error{Type: engine.TypeDuplicateItem, Message: "Duplicate primary key exists in table"}
			}
			return nil, err
		}
		out.Capacity = r.Capacity
	default:
		return nil, engine.InternalError(errUnknownDML(d.op))
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
	if err := checkItem(d.Item); err != nil {
		return err
	}
	return checkItem(d.Key)
}

// checkStandalones checks ExpressionAttributeValues as expr.Values decodes
// them: the first invalid value in key order, named with its key.
func checkStandalones(values expr.Values) error {
	for _, v := range values {
		if checkValue(v, 0, false) != nil {
			_, err := expr.ValuesOf(values, func(v attr.Value) (attr.Value, error) { return v, checkValue(v, 0, true) })
			return engine.InternalError(err)
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
	return engine.InternalError(checkMembers(it, 1, true))
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
		for _, e := range v.List() {
			err := checkValue(e, depth+1, ordered)
			if engine.IsNesting(err) || err != nil && !ordered {
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
		if engine.IsNesting(err) {
			return err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// earlierHash returns the hash earlier versions stored an
// ExecuteTransaction's ClientRequestToken with (requestDigest): requestHash
// of the TransactWriteItems request as the JSON they sent it to the
// operation in, which held only the members a statement sets.
func earlierHash(in *engine.TransactWriteInput) func() []byte {
	return func() []byte {
		items := make([]map[string]any, len(in.TransactItems))
		for i := range in.TransactItems {
			ti := &in.TransactItems[i]
			kind, a, err := ti.Action()
			if err != nil {
				return engine.UnmatchableHash()
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
			items[i] = map[string]any{[...]string{engine.TransactConditionCheck: "ConditionCheck", engine.TransactPut: "Put",
				engine.TransactDelete: "Delete", engine.TransactUpdate: "Update"}[kind]: body}
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
			return engine.UnmatchableHash()
		}
		return engine.RequestHash(body)
	}
}
