package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServe_TrustedDocuments: --trusted-documents and its mode reach the API (under enforce a
// query is refused and the manifest's document runs by its id), and a manifest, or a mode, that
// cannot work stops serve at start-up with a message that names the fault.
func TestServe_TrustedDocuments(t *testing.T) {
	const doc = "query Typename { __typename }"
	sum := sha256.Sum256([]byte(doc))
	hash := hex.EncodeToString(sum[:])
	manifest := func(entries map[string]string) string {
		path := filepath.Join(t.TempDir(), "persisted-documents.json")
		b, _ := json.Marshal(entries)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := manifest(map[string]string{hash: doc})
	const deep = `query Deep { user(username: "ann") { photos { edges { node { url } } } } }`
	const aliased = `query Aliased { a: user(username: "ann") { name } b: user(username: "bob") { name } }`

	t.Run("refused at start-up", func(t *testing.T) {
		cases := []struct {
			name string
			args []string
			want string
		}{
			{"an entry whose hash is another's", []string{"--trusted-documents", manifest(map[string]string{strings.Repeat("a", 64): doc})}, `entry "` + strings.Repeat("a", 64) + `": the document's sha256 is ` + hash},
			{"an entry that does not validate", []string{"--trusted-documents", manifest(map[string]string{sha("{ nope }"): "{ nope }"})}, `entry "` + sha("{ nope }") + `": the document does not parse and validate`},
			{"a document deeper than --max-depth", []string{"--max-depth", "2", "--trusted-documents", manifest(map[string]string{sha(deep): deep})}, `entry "` + sha(deep) + `": operation "Deep" nests 5 deep, over --max-depth 2`},
			{"a document with more aliases than --max-aliases", []string{"--max-aliases", "1", "--trusted-documents", manifest(map[string]string{sha(aliased): aliased})}, `entry "` + sha(aliased) + `": operation "Aliased" has 2 aliases, over --max-aliases 1`},
			{"a missing file", []string{"--trusted-documents", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
			{"enforce without a manifest", []string{"--trusted-documents-mode", "enforce"}, "needs --trusted-documents"},
			{"off with a manifest", []string{"--trusted-documents", good, "--trusted-documents-mode", "off"}, "off with --trusted-documents"},
			{"an unknown mode", []string{"--trusted-documents", good, "--trusted-documents-mode", "strict"}, `"strict": want off, allow, enforce`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				args := append([]string{"serve", "--addr", "127.0.0.1:0", "--in-memory"}, tc.args...)
				// A serve that starts despite the fault stops when this ends, and fails the case.
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				err := run(ctx, args, io.Discard, io.Discard)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v, want one saying %q", err, tc.want)
				}
			})
		}
	})

	t.Run("lambda refuses a bad manifest from its variable", func(t *testing.T) {
		t.Setenv(lambdaRuntimeEnv, "127.0.0.1:1") // as under Lambda; the start fails before calling it
		t.Setenv("QUICKPHOTOS_TRUSTED_DOCUMENTS", manifest(map[string]string{strings.Repeat("b", 64): doc}))
		err := run(t.Context(), []string{"lambda", "--lambda-handler", "api", "--auth", "none"}, io.Discard, io.Discard)
		if want := `QUICKPHOTOS_TRUSTED_DOCUMENTS): trusted documents `; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), strings.Repeat("b", 64)) {
			t.Fatalf("err %v, want one naming the variable and the entry", err)
		}
	})

	t.Run("enforce", func(t *testing.T) {
		lines := startCommand(t, "GraphiQL at", "serve", "--addr", "127.0.0.1:0", "--in-memory",
			"--trusted-documents", good, "--trusted-documents-mode", "enforce")
		base := graphiQLBase(t, lines)
		if got := graphqlCode(t, base, "", `{"query":"{ __typename }"}`); got != "PERSISTED_DOCUMENT_REQUIRED" {
			t.Errorf("a raw query: code %q", got)
		}
		if got := graphqlCode(t, base, "", `{"documentId":"sha256:`+hash+`"}`); got != "" {
			t.Errorf("the manifest's document by its id: code %q", got)
		}
		resp, err := http.Get(base + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GraphiQL under enforce: %d, want 404", resp.StatusCode)
		}
	})
}

func sha(doc string) string {
	sum := sha256.Sum256([]byte(doc))
	return hex.EncodeToString(sum[:])
}
