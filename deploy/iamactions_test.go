package deploy

import (
	"go/constant"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// How IAM authorises the SDK operations the walk finds (actions_test.go). Most operations are
// their own action. Some are checked as another action (iamActions). Some have no action of
// their own: IAM checks each item or statement they carry as its own action, so what the code
// puts in them decides what the role needs (carriedFields). What no table here names carries
// no action of its own: BatchWriteItem's puts and deletes and BatchGetItem's keys are all
// authorised as dynamodb:BatchWriteItem and dynamodb:BatchGetItem (the Service Authorization
// Reference's table of DynamoDB operations lists no other action for them), and a Query's
// IndexName changes the resource, not the action (template_test.go's checkResources).

const (
	dynamodbPkg   = "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dynamodbTypes = dynamodbPkg + "/types"
)

// iamActions names the IAM action of SDK operations whose permission is another action's.
var iamActions = map[string]string{
	"s3:HeadObject":    "s3:GetObject",
	"s3:ListObjectsV2": "s3:ListBucket",
	"s3:ListObjects":   "s3:ListBucket",
}

// impliedActions are the actions an action needs beside it for the answers the code relies on.
// Without s3:ListBucket on the bucket, S3 answers a GetObject or HeadObject of a missing key
// with 403 AccessDenied, not 404 NoSuchKey (both operations' API reference, "Permissions"),
// and media/blob tells a missing object by that 404: a file never sent, the loser of two
// racing uploadPhoto, an image already deleted.
var impliedActions = map[string][]string{
	"s3:GetObject": {"s3:ListBucket"},
}

// carried is what one field of a request's item means to IAM: the operation that carries the
// item, and the action IAM checks for it (partiQL: the statement's own verb decides).
type carried struct {
	carrier, action string
}

const partiQL = "PartiQL"

// carriedFields maps an SDK type ("pkg.Type") and the field the code sets on it to what IAM
// checks. Transactions: "Permissions for Put, Update, Delete, and Get actions are governed by
// the permissions used for the underlying PutItem, UpdateItem, DeleteItem, and GetItem
// operations", and a ConditionCheck by dynamodb:ConditionCheckItem (AWS's "Using IAM with
// DynamoDB transactions"); IAM has no TransactWriteItems or TransactGetItems action. PartiQL:
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction are authorised as
// dynamodb:PartiQLSelect, PartiQLInsert, PartiQLUpdate or PartiQLDelete by each statement.
var carriedFields = map[string]map[string]carried{
	dynamodbTypes + ".TransactWriteItem": {
		"Put":            {"dynamodb:TransactWriteItems", "dynamodb:PutItem"},
		"Update":         {"dynamodb:TransactWriteItems", "dynamodb:UpdateItem"},
		"Delete":         {"dynamodb:TransactWriteItems", "dynamodb:DeleteItem"},
		"ConditionCheck": {"dynamodb:TransactWriteItems", "dynamodb:ConditionCheckItem"},
	},
	dynamodbTypes + ".TransactGetItem": {
		"Get": {"dynamodb:TransactGetItems", "dynamodb:GetItem"},
	},
	dynamodbPkg + ".ExecuteStatementInput": {
		"Statement": {"dynamodb:ExecuteStatement", partiQL},
	},
	dynamodbTypes + ".BatchStatementRequest": {
		"Statement": {"dynamodb:BatchExecuteStatement", partiQL},
	},
	dynamodbTypes + ".ParameterizedStatement": {
		"Statement": {"dynamodb:ExecuteTransaction", partiQL},
	},
}

// isCarrier says whether IAM authorises op only by what it carries.
func isCarrier(op string) bool {
	for _, fields := range carriedFields {
		for _, c := range fields {
			if c.carrier == op {
				return true
			}
		}
	}
	return false
}

// carriedAction is what a store into a field of an SDK request's item means to IAM: the
// operation carrying the item and the action it needs; "" when the store is none of those.
// It is what code builds, wherever it builds it: an item made by the walked code and never
// sent needs no action, but an item sent is always built (the walk errs towards more).
func carriedAction(t *testing.T, f *ssa.Function, st *ssa.Store) (carrier, action string) {
	t.Helper()
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return "", ""
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return "", ""
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", ""
	}
	fields, ok := carriedFields[named.Obj().Pkg().Path()+"."+named.Obj().Name()]
	if !ok {
		return "", ""
	}
	c, ok := fields[named.Underlying().(*types.Struct).Field(fa.Field).Name()]
	if !ok {
		return "", ""
	}
	if k, ok := st.Val.(*ssa.Const); ok && k.IsNil() {
		return "", "" // clearing a field asks for nothing
	}
	if c.action != partiQL {
		return c.carrier, c.action
	}
	stmt, ok := constantString(st.Val)
	if !ok {
		t.Errorf("%s: a %s statement that is not a constant: its action cannot be told", f, c.carrier)
		return "", ""
	}
	a := partiQLAction(stmt)
	if a == "" {
		t.Errorf("%s: %s statement %q: no PartiQL action known for its verb", f, c.carrier, stmt)
	}
	return c.carrier, a
}

// constantString is the string v holds when it is a constant or a pointer to one made by
// aws.String (the SDK's requests take *string).
func constantString(v ssa.Value) (string, bool) {
	if call, ok := v.(*ssa.Call); ok {
		fn := call.Call.StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "github.com/aws/aws-sdk-go-v2/aws" || fn.Name() != "String" {
			return "", false
		}
		v = call.Call.Args[0]
	}
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(k.Value), true
}

// partiQLAction is the IAM action of a PartiQL statement, by its verb; "" for an unknown one.
func partiQLAction(stmt string) string {
	verb, _, _ := strings.Cut(strings.TrimSpace(stmt), " ")
	switch strings.ToUpper(verb) {
	case "SELECT":
		return "dynamodb:PartiQLSelect"
	case "INSERT":
		return "dynamodb:PartiQLInsert"
	case "UPDATE":
		return "dynamodb:PartiQLUpdate"
	case "DELETE":
		return "dynamodb:PartiQLDelete"
	}
	return ""
}

// authorised turns the operations the walk found called (each with a caller) and the actions
// it found carried (by carrier, each with where it was built) into the IAM actions they need.
// A carrier called with nothing found in it is an error: its actions cannot be told.
func authorised(t *testing.T, calls map[string]string, carriedBy map[string]map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	add := func(action, where string) {
		if _, seen := out[action]; !seen {
			out[action] = where
		}
	}
	for _, op := range sortedKeys(calls) {
		if !isCarrier(op) {
			a := op
			if as, ok := iamActions[op]; ok {
				a = as
			}
			add(a, calls[op])
			for _, implied := range impliedActions[a] {
				add(implied, calls[op]+", for "+a+"'s 404 of a missing key")
			}
			continue
		}
		if len(carriedBy[op]) == 0 {
			t.Errorf("%s calls %s, but the walk found no item of it built: what IAM checks cannot be told", calls[op], op)
		}
		for _, a := range sortedKeys(carriedBy[op]) {
			add(a, carriedBy[op][a]+", in a "+op)
		}
	}
	return out
}

func TestPartiQLAction(t *testing.T) {
	for stmt, want := range map[string]string{
		`SELECT * FROM "t" WHERE PK = ?`:     "dynamodb:PartiQLSelect",
		`  select PK FROM t`:                 "dynamodb:PartiQLSelect",
		`INSERT INTO "t" VALUE {'PK': ?}`:    "dynamodb:PartiQLInsert",
		`UPDATE "t" SET a = 1 WHERE PK = ?`:  "dynamodb:PartiQLUpdate",
		`DELETE FROM "t" WHERE PK = ?`:       "dynamodb:PartiQLDelete",
		`EXISTS(SELECT * FROM t WHERE PK=?)`: "",
		``:                                   "",
	} {
		if got := partiQLAction(stmt); got != want {
			t.Errorf("partiQLAction(%q) = %q, want %q", stmt, got, want)
		}
	}
}
