package api

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/domain"
)

// checkArguments checks the arguments of every field an operation selects, however deeply
// nested, before any resolver runs. Resolvers check their own arguments too, but by then a
// sibling or a parent may already have sent its DynamoDB request, and an error in a non-null
// child such as `photos` nulls its parent: `{ user { photos(first: 500) } }` would read the
// profile and then answer null for the whole user. Refused here, the operation sends nothing
// and answers BAD_USER_INPUT at the argument's path.
type checkArguments struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = checkArguments{}

func (checkArguments) ExtensionName() string { return "QuickphotosArguments" }

func (checkArguments) Validate(graphql.ExecutableSchema) error { return nil }

// argumentChecks checks the arguments of the fields that take more than a page, keyed by
// "Type.field". Connections (any field with a `first` argument) are checked by checkPage.
var argumentChecks = map[string]func(args map[string]any) error{
	"Query.user": func(args map[string]any) error {
		return domain.ValidateUsername("username", stringArg(args, "username"))
	},
	"Query.users": func(args map[string]any) error {
		list, _ := args["usernames"].([]any)
		if len(list) > domain.MaxPageSize {
			return domain.Errorf(domain.Invalid, "usernames: at most %d usernames, got %d", domain.MaxPageSize, len(list))
		}
		for _, u := range list {
			s, _ := u.(string)
			if err := domain.ValidateUsername("usernames", s); err != nil {
				return err
			}
		}
		return nil
	},
	"Query.node": func(args map[string]any) error {
		_, err := domain.ParseNodeID("id", stringArg(args, "id"))
		return err
	},
	"Query.nodes": func(args map[string]any) error {
		list, _ := args["ids"].([]any)
		ids := make([]string, len(list))
		for i, id := range list {
			ids[i], _ = id.(string)
		}
		_, err := domain.ParseNodeIDs("ids", ids)
		return err
	},
	"Query.photo": func(args map[string]any) error {
		_, err := domain.CanonicalPhotoKey(domain.PhotoKey{Owner: stringArg(args, "owner"), Timestamp: stringArg(args, "timestamp")})
		return err
	},
}

func (checkArguments) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	// Each field and fragment is checked once, wherever it is spread: a document that spreads
	// fragments into each other cannot make the walk exponential.
	visited := map[*ast.FragmentDefinition]bool{}
	// fields is the stack of fields above the one checked; the error's path is built from it
	// only when there is an error, as every operation walks here.
	var fields []*ast.Field
	var walk func(set ast.SelectionSet) *gqlerror.Error
	walk = func(set ast.SelectionSet) *gqlerror.Error {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				fields = append(fields, s)
				if err := checkField(s, oc.Variables); err != nil {
					return gqlerror.WrapPath(pathOf(fields), err)
				}
				if err := walk(s.SelectionSet); err != nil {
					return err
				}
				fields = fields[:len(fields)-1]
			case *ast.InlineFragment:
				if err := walk(s.SelectionSet); err != nil {
					return err
				}
			case *ast.FragmentSpread:
				if s.Definition != nil && !visited[s.Definition] {
					visited[s.Definition] = true
					if err := walk(s.Definition.SelectionSet); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(oc.Operation.SelectionSet)
}

// pathOf is the response path of the last of fields, nested in the others.
func pathOf(fields []*ast.Field) ast.Path {
	path := make(ast.Path, len(fields))
	for i, f := range fields {
		path[i] = ast.PathName(f.Alias)
	}
	return path
}

// checkField checks f's arguments with their variables substituted and defaults applied.
func checkField(f *ast.Field, vars map[string]any) error {
	if f.Definition == nil || f.ObjectDefinition == nil || len(f.Definition.Arguments) == 0 {
		return nil
	}
	args := f.ArgumentMap(vars)
	if f.Definition.Arguments.ForName("first") != nil {
		if err := checkPage(args); err != nil {
			return err
		}
	}
	if check := argumentChecks[f.ObjectDefinition.Name+"."+f.Name]; check != nil {
		return check(args)
	}
	return nil
}

// checkPage checks a connection's `first`, which has a schema default: absent, or an explicit
// null, is the default, as in the resolvers.
func checkPage(args map[string]any) error {
	p := domain.PageRequest{First: domain.DefaultPageSize}
	if v := args["first"]; v != nil {
		n, isInt := intArg(v)
		if !isInt {
			return domain.Errorf(domain.Invalid, "first: must be between 1 and %d, got %s", domain.MaxPageSize, describe(v))
		}
		p.First = n
	}
	return domain.ValidatePage(p)
}

func intArg(v any) (int, bool) {
	switch n := v.(type) {
	case int64:
		return int(n), true
	case int:
		return n, true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

func stringArg(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

func describe(v any) string { return fmt.Sprint(v) }
