package api

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/errcode"
)

// codeAPQNotFound is gqlgen's code for an automatic persisted query whose hash the server does
// not hold (unexported in gqlgen's extension package); clients act on it by name.
const codeAPQNotFound = "PERSISTED_QUERY_NOT_FOUND"

// TestErrorTable_DocsListEveryCode: docs/api.md's table of error codes has a row for every code
// a client can see, with the HTTP status errortable.go gives a domain code, and no row for a
// code the server does not answer with. A code added to the table without its row fails here.
func TestErrorTable_DocsListEveryCode(t *testing.T) {
	doc, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Errors\n")
	if !ok {
		t.Fatal("docs/api.md has no ## Errors section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{} // code → its HTTP status cell
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| ([^|]+) \\|").FindAllStringSubmatch(section, -1) {
		if _, dup := rows[m[1]]; dup {
			t.Errorf("docs/api.md lists %s twice", m[1])
		}
		rows[m[1]] = strings.TrimSpace(m[2])
	}

	known := map[string]bool{}
	for _, code := range clientCodes() {
		known[code] = true
		if _, ok := rows[code]; !ok {
			t.Errorf("docs/api.md's error table has no row for %s", code)
		}
	}
	for c, kind := range errorKinds {
		cell, ok := rows[kind.extensionCode]
		if !ok {
			continue
		}
		if status := strconv.Itoa(httpStatus(c)); !strings.HasPrefix(cell, status) {
			t.Errorf("docs/api.md: %s is answered with HTTP %s before GraphQL runs, the table says %q", kind.extensionCode, status, cell)
		}
	}
	for code := range rows {
		if !known[code] {
			t.Errorf("docs/api.md lists %s, which the server never answers with", code)
		}
	}
}

// clientCodes are the codes a client can see: the domain codes of errortable.go, and those of
// requests and documents refused outside the domain's errors.
func clientCodes() []string {
	codes := []string{codeValidationFailed, codeLimitExceeded, codeBadRequest, errcode.ParseFailed, codeAPQNotFound, codeDocumentNotFound, codeDocumentRequired}
	for _, kind := range errorKinds {
		codes = append(codes, kind.extensionCode)
	}
	return codes
}

// TestErrorTable_SchemaListsEveryCode: the schema's description, which clients generating
// code from introspection read, names every code a client can see, the same codes as
// docs/api.md's table, and no other.
func TestErrorTable_SchemaListsEveryCode(t *testing.T) {
	schema, err := os.ReadFile("../schema.graphqls")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(schema), "Errors carry `extensions.code`:")
	if !ok {
		t.Fatal("schema.graphqls's description no longer says which codes errors carry")
	}
	list, _, _ = strings.Cut(list, "A mutation that fails writes nothing.")
	named := map[string]bool{}
	for _, code := range regexp.MustCompile(`\b[A-Z][A-Z_]+[A-Z]\b`).FindAllString(list, -1) {
		named[code] = true
	}
	want := clientCodes()
	for _, code := range want {
		if !named[code] {
			t.Errorf("schema.graphqls's description lists the codes errors carry without %s", code)
		}
	}
	known := map[string]bool{}
	for _, code := range want {
		known[code] = true
	}
	for code := range named {
		if !known[code] {
			t.Errorf("schema.graphqls's description lists %s, which the server never answers with", code)
		}
	}
}
