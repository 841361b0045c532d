package selection

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/domain"
)

// Page is the page a connection's arguments ask for: first (domain.DefaultPageSize, the
// schema's default, when absent or an explicit null) and after, validated. It reads them in
// every form they come in: as gqlgen passes them to a resolver (*int, *string), and as
// ast.Field.ArgumentMap leaves them (int64 from a literal, json.Number from a variable).
func Page(first, after any) (domain.PageRequest, error) {
	p := domain.PageRequest{First: domain.DefaultPageSize}
	switch v := first.(type) {
	case nil:
	case *int:
		if v != nil {
			p.First = *v
		}
	default:
		n, ok := Int(v)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			return p, domain.Errorf(domain.Invalid, "first: must be between 1 and %d, got %s", domain.MaxPageSize, fmt.Sprint(v))
		}
		p.First = int(n)
	}
	switch v := after.(type) {
	case string:
		p.After = v
	case *string:
		if v != nil {
			p.After = *v
		}
	}
	return p, domain.ValidatePage(p)
}

// IsConnection reports whether def is a connection: a field that takes `first`.
func IsConnection(def *ast.FieldDefinition) bool {
	return def != nil && def.Arguments.ForName("first") != nil
}

// Int reads an Int argument in any of the forms gqlparser leaves it in: int64 from a literal,
// json.Number or a number from a variable, or a string gqlgen would parse.
func Int(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.IsNaN(n) {
			return 0, false
		}
		return int64(max(min(n, 1<<53), -1<<53)), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case string:
		i, err := strconv.ParseInt(n, 10, 64)
		return i, err == nil
	}
	return 0, false
}

// CursorCheck checks a cursor passed as `after` to list l as far as it can be checked before
// anything is read: its spelling and its list (dynamo.CheckCursor; package api hands it in,
// as the cursors' format is the data layer's, which this package does not import).
type CursorCheck func(l domain.List, after string) error

// cursorLists is the list whose cursors each connection takes as `after`, by the field's
// coordinate. A connection missing here has its cursor checked only when its page is read
// (TestCursorLists_EveryConnection fails for one).
var cursorLists = map[string]domain.List{
	"Query.feed":      domain.ListFeed,
	"User.photos":     domain.ListPhotos,
	"User.feed":       domain.ListFeed,
	"User.changes":    domain.ListChanges,
	"User.followers":  domain.ListFollowers,
	"User.following":  domain.ListFollowing,
	"User.reactions":  domain.ListUserReactions,
	"Photo.reactions": domain.ListPhotoReactions,
}

// CursorList is the list whose cursors field name of type typ takes as `after`.
func CursorList(typ, name string) (domain.List, bool) {
	l, ok := cursorLists[typ+"."+name]
	return l, ok
}

// CheckArguments checks the arguments of a field that reads (not a mutation, not a
// subscription: those authorise the caller first and then check their own input), as its
// resolver would, so that an operation with a bad one is refused before anything is read.
// The checks go by the schema, not by field: any field that takes `first` has its page
// checked, any argument named for a stored key (username, usernames, id, ids, a photo's owner
// with its timestamp) is checked as that key, whichever field takes it. A new field with
// such arguments is checked without an edit here; its resolver may take them as valid. A
// cursor (`after`) is checked by cursor against its connection's list (cursorLists); whether
// it is of the very user or photo read is left to the read, which knows them.
func CheckArguments(f *Field, cursor CursorCheck) error {
	def := f.Definition
	if def == nil || len(def.Arguments) == 0 {
		return nil
	}
	args, ok := f.Args()
	if !ok {
		// Not for a validated operation; but a resolver may take these arguments as checked,
		// so arguments that cannot be read are refused, not let through.
		return domain.Errorf(domain.Invalid, "%s: the arguments could not be read", f.Name)
	}
	for _, a := range def.Arguments {
		var err error
		switch a.Name {
		case "first":
			_, err = Page(args["first"], args["after"])
		case "after":
			if f.ObjectDefinition == nil {
				break
			}
			if l, ok := CursorList(f.ObjectDefinition.Name, def.Name); ok {
				err = cursor(l, str(args["after"]))
			}
		case "username":
			err = domain.ValidateUsername("username", str(args["username"]))
		case "usernames":
			err = checkUsernames(list(args["usernames"]))
		case "id":
			_, err = domain.ParseNodeID("id", str(args["id"]))
		case "ids":
			_, err = domain.ParseNodeIDs("ids", strs(list(args["ids"])))
		case "owner":
			if def.Arguments.ForName("timestamp") != nil {
				_, err = domain.CanonicalPhotoKey(domain.PhotoKey{Owner: str(args["owner"]), Timestamp: str(args["timestamp"])})
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func checkUsernames(usernames []any) error {
	if len(usernames) > domain.MaxPageSize {
		return domain.Errorf(domain.Invalid, "usernames: at most %d usernames, got %d", domain.MaxPageSize, len(usernames))
	}
	for _, u := range usernames {
		if err := domain.ValidateUsername("usernames", str(u)); err != nil {
			return err
		}
	}
	return nil
}

// list is a list argument's values; GraphQL coerces a single value to a list of one.
func list(v any) []any {
	switch l := v.(type) {
	case nil:
		return nil
	case []any:
		return l
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out
	}
	return []any{v}
}

func strs(l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = str(v)
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
