package api_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
)

// runTool runs node with args in dir and returns its standard output; it fails the test when
// the command fails and wantFail is false, and returns the combined output when it is true.
func runTool(t *testing.T, dir string, wantFail bool, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	switch {
	case wantFail && err == nil:
		t.Fatalf("%s %v succeeded; want it to fail:\n%s%s", filepath.Base(name), args, out, stderr.String())
	case wantFail:
		return string(out) + stderr.String()
	case err != nil:
		t.Fatalf("%s %v: %v\n%s%s", filepath.Base(name), args, err, out, stderr.String())
	}
	return string(out)
}

// photoOf returns the global ids of owner and of its photos, newest first, and their
// timestamps, as the server gives them.
func photoOf(t *testing.T, srv *apitest.Server, owner string) (ownerID string, photoIDs, timestamps []string) {
	t.Helper()
	var got struct {
		User struct {
			ID     string
			Photos struct {
				Edges []struct {
					Node struct{ ID, Timestamp string }
				}
			}
		}
	}
	srv.Query(t, `query($u: ID!) { user(username: $u) { id photos { edges { node { id timestamp } } } } }`, map[string]any{"u": owner}).Decode(t, &got)
	for _, e := range got.User.Photos.Edges {
		photoIDs = append(photoIDs, e.Node.ID)
		timestamps = append(timestamps, e.Node.Timestamp)
	}
	return got.User.ID, photoIDs, timestamps
}

// TestApolloClient_NormalisesByIDWithoutTypePolicies: Apollo Client's InMemoryCache, with no
// type policies, keeps one entry for a photo read through a user's list, photo(owner,
// timestamp) and node(id), and a mutation's answer that carries the photo's id and new
// counters updates what all three read, with no request.
func TestApolloClient_NormalisesByIDWithoutTypePolicies(t *testing.T) {
	node, dir := jstools.GraphQLClients.Dir(t)
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "ada", "bob")
	srv.MustUploadPhoto(t, "ada", apitest.Timestamp(1))
	adaID, photoIDs, timestamps := photoOf(t, srv, "ada")

	out := runTool(t, dir, false, node, "apollo-cache.mjs", srv.URL+"/graphql", "ada", timestamps[0], "bob")
	var got struct {
		PhotoID, NodeID, ReactionID string
		ListPhotoIDs                []string
		CacheKeys, CacheKeysAfter   []string
		RootQuery                   map[string]json.RawMessage
		PhotoEntry                  map[string]json.RawMessage
		ListHeartsAfter             []int
		NodeHeartsAfter, Requests   int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("apollo-cache.mjs printed %q: %v", out, err)
	}
	photo := "Photo:" + photoIDs[0]
	if got.PhotoID != photoIDs[0] || got.NodeID != photoIDs[0] || !slices.Equal(got.ListPhotoIDs, photoIDs) {
		t.Errorf("ids: photo %q, node %q, list %v; want %q everywhere", got.PhotoID, got.NodeID, got.ListPhotoIDs, photoIDs[0])
	}
	if want := []string{photo, "ROOT_QUERY", "User:" + adaID}; !slices.Equal(got.CacheKeys, want) {
		t.Errorf("cache entries %v, want %v: one per object, keyed by __typename and id", got.CacheKeys, want)
	}
	ref := `{"__ref":"` + photo + `"}`
	for field, v := range got.RootQuery {
		if (strings.HasPrefix(field, "photo(") || strings.HasPrefix(field, "node(")) && string(v) != ref {
			t.Errorf("ROOT_QUERY.%s = %s, want a reference to %s", field, v, photo)
		}
	}
	if string(got.PhotoEntry["owner"]) != `{"__ref":"User:`+adaID+`"}` || string(got.PhotoEntry["url"]) == "" {
		t.Errorf("the photo's entry: %v", got.PhotoEntry)
	}
	if !slices.Equal(got.ListHeartsAfter, []int{1}) || got.NodeHeartsAfter != 1 {
		t.Errorf("after reacting: the list reads %v hearts and node %d from the cache; want 1, updated by the mutation's answer", got.ListHeartsAfter, got.NodeHeartsAfter)
	}
	if !slices.Contains(got.CacheKeysAfter, "Reaction:"+got.ReactionID) || got.ReactionID == "" {
		t.Errorf("the reaction is not in the cache under its id: %v", got.CacheKeysAfter)
	}
	if got.Requests != 4 {
		t.Errorf("%d requests, want 4 (three queries, one mutation; the reads after it come from the cache)", got.Requests)
	}
}

// relayOperation matches the operation text relay-compiler writes into a generated query.
var relayOperation = regexp.MustCompile(`"text": ("(?:[^"\\]|\\.)*")`)

// TestRelayCompiler_RefetchableFragmentsAndConnection: relay-compiler accepts the schema a
// running server serves (read by introspection, as a Relay project reads it) for the project
// in tools/graphql-clients/testdata/relay: refetchable fragments on Photo and User, whose
// queries read the object through node(id:), a @connection over a user's photos, and nodes.
// The queries it generates then run against the server; and without Query.node the same
// project is refused, which shows what the compiler checks.
func TestRelayCompiler_RefetchableFragmentsAndConnection(t *testing.T) {
	node, dir := jstools.GraphQLClients.Dir(t)
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ada")
	for i := range 3 {
		srv.MustUploadPhoto(t, "ada", apitest.Timestamp(i))
	}
	adaID, photoIDs, _ := photoOf(t, srv, "ada")
	schema := runTool(t, dir, false, node, "print-schema.mjs", srv.URL+"/graphql")
	relay := filepath.Join(dir, "node_modules", "relay-compiler", "cli.js")

	t.Run("Compiles", func(t *testing.T) {
		project := relayProject(t, dir, schema)
		runTool(t, project, false, node, relay)
		operation := func(name string) string {
			b, err := os.ReadFile(filepath.Join(project, "src", "__generated__", name+".graphql.js"))
			if err != nil {
				t.Fatal(err)
			}
			m := relayOperation.FindSubmatch(b)
			var text string
			if m == nil || json.Unmarshal(m[1], &text) != nil {
				t.Fatalf("%s.graphql.js holds no operation text:\n%s", name, b)
			}
			return text
		}

		refetch := operation("PhotoRefetchQuery")
		if !strings.Contains(refetch, "node(id: $id)") {
			t.Errorf("PhotoRefetchQuery does not read the photo through node:\n%s", refetch)
		}
		var photo struct {
			Node struct{ ID, URL string }
		}
		srv.Query(t, refetch, map[string]any{"id": photoIDs[1]}).Decode(t, &photo)
		if photo.Node.ID != photoIDs[1] || photo.Node.URL == "" {
			t.Errorf("PhotoRefetchQuery read %+v, want the photo %q", photo.Node, photoIDs[1])
		}

		paginate := operation("UserPhotosPaginationQuery")
		type page struct {
			Node struct {
				ID     string
				Photos struct {
					Edges    []struct{ Node struct{ ID string } }
					PageInfo struct {
						EndCursor   string
						HasNextPage bool
					}
				}
			}
		}
		var first, second page
		srv.Query(t, paginate, map[string]any{"id": adaID, "count": 2, "cursor": nil}).Decode(t, &first)
		srv.Query(t, paginate, map[string]any{"id": adaID, "count": 2, "cursor": first.Node.Photos.PageInfo.EndCursor}).Decode(t, &second)
		var seen []string
		for _, p := range []page{first, second} {
			for _, e := range p.Node.Photos.Edges {
				seen = append(seen, e.Node.ID)
			}
		}
		if first.Node.ID != adaID || !first.Node.Photos.PageInfo.HasNextPage || second.Node.Photos.PageInfo.HasNextPage || !slices.Equal(seen, photoIDs) {
			t.Errorf("UserPhotosPaginationQuery pages %+v then %+v; want ada's photos %v in two pages", first, second, photoIDs)
		}

		var nodes struct {
			Nodes []struct{ ID, URL string }
		}
		srv.Query(t, operation("UserPhotosNodesQuery"), map[string]any{"ids": photoIDs}).Decode(t, &nodes)
		if len(nodes.Nodes) != len(photoIDs) || nodes.Nodes[2].ID != photoIDs[2] || nodes.Nodes[2].URL == "" {
			t.Errorf("UserPhotosNodesQuery read %+v, want ada's photos %v", nodes.Nodes, photoIDs)
		}
	})

	t.Run("RefusedWithoutQueryNode", func(t *testing.T) {
		doc, err := parser.ParseSchema(&ast.Source{Input: schema})
		if err != nil {
			t.Fatal(err)
		}
		for _, def := range doc.Definitions {
			if def.Name == "Query" {
				def.Fields = slices.DeleteFunc(def.Fields, func(f *ast.FieldDefinition) bool { return f.Name == "node" })
			}
		}
		var without strings.Builder
		formatter.NewFormatter(&without).FormatSchemaDocument(doc)
		out := runTool(t, relayProject(t, dir, without.String()), true, node, relay)
		if !strings.Contains(out, "Invalid use of @refetchable") {
			t.Errorf("relay-compiler failed, but not for want of Query.node:\n%s", out)
		}
	})
}

// relayProject copies testdata/relay into a directory of its own with schema beside it, for
// relay-compiler to write its artifacts there.
func relayProject(t *testing.T, dir, schema string) string {
	t.Helper()
	project := t.TempDir()
	if err := os.CopyFS(project, os.DirFS(filepath.Join(dir, "testdata", "relay"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "schema.graphql"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	return project
}
