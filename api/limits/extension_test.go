package limits_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/resolvers"
)

// errResolverRan is what any resolver that runs in these tests turns into: the resolvers
// have no store, so one that runs fails, and the recover function names the failure.
var errResolverRan = errors.New("resolver ran")

// server is the real gqlgen handler with the limits installed, served on 127.0.0.1.
type server struct {
	url string
}

func newServer(t *testing.T, cfg limits.Config) *server {
	t.Helper()
	gql := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &resolvers.Resolver{}}))
	gql.AddTransport(transport.POST{})
	gql.Use(extension.Introspection{})
	gql.Use(limits.New(cfg))
	gql.SetRecoverFunc(func(context.Context, any) error { return errResolverRan })
	srv := httptest.NewServer(gql)
	t.Cleanup(srv.Close)
	return &server{url: srv.URL}
}

// response is a GraphQL response as it went over the wire. gqlgen writes "data": null when
// nothing executed.
type response struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (s *server) post(t *testing.T, query, operationName, varsJSON string) response {
	t.Helper()
	return s.postAccepting(t, "application/json", query, operationName, varsJSON)
}

// postAccepting posts with an Accept header, which decides gqlgen's choice of status.
func (s *server) postAccepting(t *testing.T, accept, query, operationName, varsJSON string) response {
	t.Helper()
	body := map[string]any{"query": query, "operationName": operationName}
	if varsJSON != "" {
		body["variables"] = json.RawMessage(varsJSON)
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	resp := response{Status: res.StatusCode}
	if err := json.NewDecoder(res.Body).Decode(&resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

// mustBeRefused checks that the operation was refused by the limit named, with that
// message, before anything executed.
func (r response) mustBeRefused(t *testing.T, limit string, actual, maxAllowed int, message string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Errorf("status %d, want %d", r.Status, http.StatusUnprocessableEntity)
	}
	if r.executed() {
		t.Errorf("data %s: the operation executed", r.Data)
	}
	if len(r.Errors) != 1 {
		t.Fatalf("errors %+v, want exactly the refusal", r.Errors)
	}
	e := r.Errors[0]
	if e.Message != message {
		t.Errorf("message %q, want %q", e.Message, message)
	}
	want := map[string]any{"code": limits.Code, "limit": limit, "max": float64(maxAllowed), "actual": float64(actual)}
	if fmt.Sprint(e.Extensions) != fmt.Sprint(want) {
		t.Errorf("extensions %v, want %v", e.Extensions, want)
	}
}

// executed tells whether any resolver ran: the response has data, or a resolver failed for
// want of a store (which nulls the data when the failing field is non-null).
func (r response) executed() bool {
	if len(r.Data) > 0 && string(r.Data) != "null" {
		return true
	}
	for _, e := range r.Errors {
		if e.Message == errResolverRan.Error() {
			return true
		}
	}
	return false
}

// mustHaveExecuted checks that the limits let the operation through.
func (r response) mustHaveExecuted(t *testing.T) {
	t.Helper()
	if !r.executed() {
		t.Errorf("no data: the operation did not execute (status %d, errors %+v)", r.Status, r.Errors)
	}
	for _, e := range r.Errors {
		if e.Extensions["code"] == limits.Code {
			t.Errorf("refused: %s", e.Message)
		}
	}
}

// Operations at and just over each default limit. Each over-limit one is within every other
// limit, so it is refused by the one it names; each at-limit one executes.
var (
	namedOperations = func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "query Q%d { __typename }\n", i)
		}
		return b.String()
	}
	// A user's followers' photos' reactions: ending in the reaction's timestamp it is 12
	// deep, in its user's name 13. Every page has one item, so the cost stays small.
	depth12 = `{ user(username: "a") { followers(first: 1) { edges { node { follower { photos(first: 1) { edges { node {
		reactions(first: 1) { edges { node { timestamp } } } } } } } } } } } }`
	depth13 = `{ user(username: "a") { followers(first: 1) { edges { node { follower { photos(first: 1) { edges { node {
		reactions(first: 1) { edges { node { user { name } } } } } } } } } } } } }`
	aliasedUsers = func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, " u%d: user(username: \"u%d\") { name }", i, i)
		}
		b.WriteString(" }")
		return b.String()
	}
	// repeatedField asks for one user's name n times: n+10 tokens.
	repeatedField = func(n int) string {
		return `{ user(username: "a") { ` + strings.Repeat("name ", n) + "} }"
	}
	// photosOfUsers costs usernames × (1 + 99): 20 users cost 2000, 21 cost 2100.
	photosOfUsers = `query($n: [ID!]!) { users(usernames: $n) { photos(first: 99) { edges { node { url } } } } }`
)

func TestExtensionRefusesOverLimit(t *testing.T) {
	srv := newServer(t, limits.Defaults)
	for _, tc := range []struct {
		name, query, operationName, vars string
		limit                            string
		actual, max                      int
		message                          string
	}{
		{"Operations", namedOperations(11), "Q0", "", "operations", 11, 10,
			"document has 11 operations, 1 over the limit of 10"},
		{"Depth", depth13, "", "", "depth", 13, 12,
			"query depth is 13, 1 over the limit of 12"},
		{"Aliases", aliasedUsers(31), "", "", "aliases", 31, 30,
			"query has 31 aliases, 1 over the limit of 30"},
		{"Cost", photosOfUsers, "", `{"n": ` + usernames(21) + `}`, "cost", 2100, 2000,
			"query cost is 2100 estimated read units, 100 over the limit of 2000"},
		{"CostOfAMutation", `mutation { followUser(input: {follower: "a", followed: "b"}) { follower { photos(first: 100) { edges { node {
			reactions(first: 100) { edges { node { timestamp } } } } } } } } }`, "", "", "cost", 1 + 1 + 100*(1+100), 2000,
			"query cost is 10102 estimated read units, 8102 over the limit of 2000"},
		{"Tokens", repeatedField(990 + 10), "", "", "tokens", 1010, 1000,
			"document has 1010 tokens, 10 over the limit of 1000"},
		// Tokens are counted before parsing and validation, whose cost is what they bound: an
		// invalid document over the limit is refused for its size, not validated.
		{"TokensAreCountedBeforeValidation", "{ " + strings.Repeat("nope ", 1001) + "}", "", "", "tokens", 1003, 1000,
			"document has 1003 tokens, 3 over the limit of 1000"},
		{"DepthIsCheckedBeforeCost", `{ user(username: "a") { followers(first: 100) { edges { node { follower { photos(first: 100) { edges { node {
			reactions(first: 100) { edges { node { user { name } } } } } } } } } } } } }`, "", "", "depth", 13, 12,
			"query depth is 13, 1 over the limit of 12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.post(t, tc.query, tc.operationName, tc.vars).mustBeRefused(t, tc.limit, tc.actual, tc.max, tc.message)
		})
	}
}

func TestExtensionPassesAtLimit(t *testing.T) {
	srv := newServer(t, limits.Defaults)
	introspection, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, query, operationName, vars string
	}{
		{"Operations", namedOperations(10), "Q0", ""},
		{"Depth", depth12, "", ""},
		{"Aliases", aliasedUsers(30), "", ""},
		{"Cost", photosOfUsers, "", `{"n": ` + usernames(20) + `}`},
		{"Tokens", repeatedField(990), "", ""},
		{"GraphiQLIntrospection", string(introspection), "IntrospectionQuery", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.post(t, tc.query, tc.operationName, tc.vars).mustHaveExecuted(t)
		})
	}
}

// TestRefusalStatus: a refusal is answered like a validation error, whose status depends on
// the response type the client accepts.
func TestRefusalStatus(t *testing.T) {
	srv := newServer(t, limits.Defaults)
	for _, tc := range []struct {
		accept string
		want   int
	}{
		{"application/json", http.StatusUnprocessableEntity},
		{"application/graphql-response+json", http.StatusBadRequest},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			r := srv.postAccepting(t, tc.accept, depth13, "", "")
			if r.Status != tc.want {
				t.Errorf("status %d, want %d", r.Status, tc.want)
			}
			if r.executed() || len(r.Errors) != 1 || r.Errors[0].Extensions["code"] != limits.Code {
				t.Errorf("response %+v, want only the refusal", r)
			}
		})
	}
}

// TestZeroConfigLimitsNothing: a zero field turns its limit off.
func TestZeroConfigLimitsNothing(t *testing.T) {
	srv := newServer(t, limits.Config{})
	srv.post(t, aliasedUsers(31), "", "").mustHaveExecuted(t)
	srv.post(t, namedOperations(11), "Q3", "").mustHaveExecuted(t)
	srv.post(t, depth13, "", "").mustHaveExecuted(t)
	srv.post(t, photosOfUsers, "", `{"n": `+usernames(21)+`}`).mustHaveExecuted(t)
	srv.post(t, repeatedField(2000), "", "").mustHaveExecuted(t)
}

func TestValidate(t *testing.T) {
	real := graph.NewExecutableSchema(graph.Config{})
	withoutOwner := &graphql.ExecutableSchemaMock{SchemaFunc: func() *ast.Schema {
		s := *real.Schema()
		photo := *s.Types["Photo"]
		photo.Fields = nil
		for _, f := range s.Types["Photo"].Fields {
			if f.Name != "owner" {
				photo.Fields = append(photo.Fields, f)
			}
		}
		s.Types = map[string]*ast.Definition{}
		for name, def := range real.Schema().Types {
			s.Types[name] = def
		}
		s.Types["Photo"] = &photo
		return &s
	}}
	for _, tc := range []struct {
		name    string
		cfg     limits.Config
		schema  graphql.ExecutableSchema
		wantErr string
	}{
		{"Defaults", limits.Defaults, real, ""},
		{"Off", limits.Config{}, real, ""},
		{"NegativeLimit", limits.Config{MaxCost: -1}, real, "negative limit"},
		{"SchemaLacksAReadField", limits.Defaults, withoutOwner, "Photo.owner"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := limits.New(tc.cfg).Validate(tc.schema)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("Validate = %v, want an error about %s", err, tc.wantErr)
			}
		})
	}
}

// TestRecordedMeasuresAreChecked: measures recorded by a walk in front of the extension are
// the ones it checks (it does not walk the operation again); without them it measures the
// operation itself.
func TestRecordedMeasuresAreChecked(t *testing.T) {
	o := mustValidate(t, `{ user(username: "a") { name } }`, "", "")
	ext := limits.New(limits.Defaults)
	oc := &graphql.OperationContext{Doc: o.doc, Operation: o.op}
	if err := ext.MutateOperationContext(context.Background(), oc); err != nil {
		t.Fatalf("unrecorded: %v", err)
	}
	limits.Record(oc, &limits.Measures{Depth: 13, Cost: 1})
	err := ext.MutateOperationContext(context.Background(), oc)
	if err == nil || err.Extensions["limit"] != "depth" || err.Extensions["actual"] != 13 {
		t.Fatalf("recorded depth 13: %v", err)
	}
}
