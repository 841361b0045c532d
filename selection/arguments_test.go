package selection_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/selection"
)

func TestPage(t *testing.T) {
	five, after := 5, "c1"
	var noInt *int
	var noString *string
	for _, tc := range []struct {
		name         string
		first, after any
		want         domain.PageRequest
		err          string // a part of the error's message; "" for none
	}{
		{"Absent", nil, nil, domain.PageRequest{First: domain.DefaultPageSize}, ""},
		{"ExplicitNullFromAResolver", noInt, noString, domain.PageRequest{First: domain.DefaultPageSize}, ""},
		{"FromAResolver", &five, &after, domain.PageRequest{First: 5, After: "c1"}, ""},
		{"Literal", int64(100), "c1", domain.PageRequest{First: 100, After: "c1"}, ""},
		{"Variable", json.Number("7"), nil, domain.PageRequest{First: 7}, ""},
		{"Zero", int64(0), nil, domain.PageRequest{}, "first: must be between 1 and 100, got 0"},
		{"OverTheMaximum", int64(101), nil, domain.PageRequest{}, "got 101"},
		{"FromAResolverOverTheMaximum", func() *int { n := 500; return &n }(), nil, domain.PageRequest{}, "got 500"},
		{"NotAnInt", json.Number("1.5"), nil, domain.PageRequest{}, "first: must be between 1 and 100, got 1.5"},
		{"Huge", json.Number("99999999999999999999"), nil, domain.PageRequest{}, "got 99999999999999999999"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := selection.Page(tc.first, tc.after)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Errorf("Page = %+v, %v; want %+v", got, err, tc.want)
				}
				return
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Code != domain.Invalid || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want an Invalid error saying %q", err, tc.err)
			}
		})
	}
}

// checked is the error CheckArguments finds in the operation query, by field path.
func checked(t *testing.T, s *ast.Schema, query string, vars map[string]any) map[string]string {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(s, query, rules.NewDefaultRules())
	if errs != nil {
		t.Fatalf("invalid query: %v", errs)
	}
	found := map[string]string{}
	selection.Walker[struct{}]{
		Vars:    vars,
		Combine: func(a, _ struct{}) struct{} { return a },
		Field: func(f *selection.Field, _ struct{}) struct{} {
			if err := selection.CheckArguments(f, cursorOf); err != nil {
				found[pathString(f.Path())] = err.Error()
			}
			return struct{}{}
		},
	}.Walk(doc.Operations[0].SelectionSet)
	return found
}

// cursorOf stands for dynamo.CheckCursor: it takes "" and "<list>-cursor" for list, and
// refuses any other cursor naming the list it was checked against, so a test sees which.
func cursorOf(l domain.List, after string) error {
	if after == "" || after == string(l)+"-cursor" {
		return nil
	}
	return domain.Errorf(domain.Invalid, "after: %q is not a cursor of %s", after, l)
}

func TestCheckArguments(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		want        map[string]string // path: a part of the message
	}{
		{"Valid", `{ user(username: "ada") { photos(first: 100) { totalCount: edges { cursor } } } users(usernames: ["a", "b"]) { name } }`, nil, nil},
		{"Page", `{ user(username: "ada") { photos(first: 0) { edges { cursor } } f: followers(first: 101) { totalCount } } }`, nil,
			map[string]string{"user.photos": "first", "user.f": "first"}},
		{"Username", `{ user(username: "b#b") { name } }`, nil, map[string]string{"user": "username"}},
		{"UsernameFromAVariable", `query($u: ID!) { user(username: $u) { name } }`, map[string]any{"u": "b#b"}, map[string]string{"user": "username"}},
		{"Usernames", `{ users(usernames: ["ada", "b#b"]) { name } }`, nil, map[string]string{"users": "usernames"}},
		{"OneUsernameForTheList", `{ users(usernames: "b#b") { name } }`, nil, map[string]string{"users": "usernames"}},
		{"TooManyUsernames", `query($n: [ID!]!) { users(usernames: $n) { name } }`, map[string]any{"n": make([]any, 101)},
			map[string]string{"users": "at most 100 usernames, got 101"}},
		{"NodeID", `{ node(id: "nope") { id } }`, nil, map[string]string{"node": "id"}},
		{"NodeIDs", `{ nodes(ids: ["nope"]) { id } }`, nil, map[string]string{"nodes": "ids"}},
		{"OneNodeIDForTheList", `{ nodes(ids: "nope") { id } }`, nil, map[string]string{"nodes": "ids"}},
		{"PhotoKey", `{ photo(owner: "ada", timestamp: "2019-03-03T18:20:10.5") { url } }`, nil, map[string]string{"photo": "timestamp"}},
		{"PhotoOwner", `{ photo(owner: "b#b", timestamp: "2019-03-03T18:20:10") { url } }`, nil, map[string]string{"photo": "owner"}},
		{"CursorOfEachList", `{ feed(after: "feed-cursor") { totalCount: edges { cursor } }
			user(username: "ada") { photos(after: "photos-cursor") { edges { cursor } } feed(after: "feed-cursor") { edges { cursor } }
				changes(after: "changes-cursor") { cursor } followers(after: "followers-cursor") { totalCount }
				following(after: "following-cursor") { totalCount } reactions(after: "userReactions-cursor") { edges { cursor } } }
			photo(owner: "ada", timestamp: "2019-03-03T18:20:10") { reactions(after: "photoReactions-cursor") { edges { cursor } } } }`, nil, nil},
		{"NoCursor", `{ user(username: "ada") { photos(after: null) { edges { cursor } } followers(after: "") { totalCount } } }`, nil, nil},
		{"RootCursor", `{ feed(after: "garbage") { edges { cursor } } }`, nil, map[string]string{"feed": "not a cursor of feed"}},
		{"NestedCursor", `{ users(usernames: ["ada"]) { photos(after: "garbage") { edges { cursor } } } }`, nil,
			map[string]string{"users.photos": "not a cursor of photos"}},
		{"CursorOfAnotherList", `{ user(username: "ada") { p: photos(after: "followers-cursor") { edges { cursor } } } }`, nil,
			map[string]string{"user.p": "not a cursor of photos"}},
		{"ReactionsOfAPhotoAreNotAUsers", `{ photo(owner: "ada", timestamp: "2019-03-03T18:20:10") { reactions(after: "userReactions-cursor") { edges { cursor } } } }`, nil,
			map[string]string{"photo.reactions": "not a cursor of photoReactions"}},
		{"CursorFromAVariableInAFragment", `query($c: String) { photo(owner: "ada", timestamp: "2019-03-03T18:20:10") { owner { ...F } } } fragment F on User { reactions(after: $c) { edges { cursor } } }`,
			map[string]any{"c": "photoReactions-cursor"}, map[string]string{"photo.owner.reactions": "not a cursor of userReactions"}},
		{"ChangesCursor", `{ user(username: "ada") { changes(after: "feed-cursor") { cursor } } }`, nil,
			map[string]string{"user.changes": "not a cursor of changes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checked(t, schema, tc.query, tc.vars)
			if len(got) != len(tc.want) {
				t.Fatalf("errors %v, want at %v", got, tc.want)
			}
			for path, says := range tc.want {
				if !strings.Contains(got[path], says) {
					t.Errorf("%s: error %q, want one saying %q", path, got[path], says)
				}
			}
		})
	}
}

// TestCheckArguments_GoesByTheSchema: a field the server does not know of is checked by its
// arguments alone.
func TestCheckArguments_GoesByTheSchema(t *testing.T) {
	s := gqlparser.MustLoadSchema(&ast.Source{Name: "new.graphqls", Input: `
		type Query { album(username: ID!, first: Int = 20, after: String): [String!]! }`})
	got := checked(t, s, `{ a: album(username: "ada", first: 500) b: album(username: "b#b") ok: album(username: "ada") }`, nil)
	if len(got) != 2 || !strings.Contains(got["a"], "first") || !strings.Contains(got["b"], "username") {
		t.Errorf("errors %v, want a's first and b's username", got)
	}
}

// TestCursorLists_EveryConnection: every field of the schema that takes a cursor has its list,
// so that no connection's cursor waits for its read to be checked.
func TestCursorLists_EveryConnection(t *testing.T) {
	seen := 0
	for _, typ := range schema.Types {
		for _, f := range typ.Fields {
			if f.Arguments.ForName("after") == nil {
				continue
			}
			seen++
			if _, ok := selection.CursorList(typ.Name, f.Name); !ok {
				t.Errorf("%s.%s takes a cursor but has no list", typ.Name, f.Name)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no field of the schema takes a cursor")
	}
}
