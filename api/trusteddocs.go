package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph"
)

// Trusted documents (GraphQL over HTTP's persisted documents): a client sends
// {"documentId": "sha256:<hex>"} instead of a query, and the server runs the document its
// manifest holds under that hash. Under TrustedEnforce nothing else runs: the API serves the
// operations its own apps ship, and no other.
//
// The identifier travels as a top-level request parameter, which gqlgen does not read:
// strictRequests, which reads every request before gqlgen, takes it out of the POST body or the
// GET parameters and leaves it in the request's context (documentRequest), and the
// trustedDocuments extension fills in the document before gqlgen parses it. A graphql-ws
// subscribe message may carry documentId in its payload (graphqlws.go reads it), and an SSE
// request is a POST or GET like any other. On every transport the hash may instead go in
// extensions.persistedQuery.sha256Hash, as Apollo's persisted queries send it: a hash the
// manifest holds runs its document.

// TrustedDocumentsMode says which requests run when the server holds trusted documents.
type TrustedDocumentsMode string

const (
	// TrustedOff: no document ids; raw queries and automatic persisted queries run.
	TrustedOff TrustedDocumentsMode = "off"
	// TrustedAllow: document ids and raw queries both run (the step before enforce, while
	// older clients still send their queries).
	TrustedAllow TrustedDocumentsMode = "allow"
	// TrustedEnforce: only the manifest's documents run.
	TrustedEnforce TrustedDocumentsMode = "enforce"
)

// TrustedDocumentsModes are the modes, in the order --help names them.
var TrustedDocumentsModes = []TrustedDocumentsMode{TrustedOff, TrustedAllow, TrustedEnforce}

// documentIDPrefix is the prefix of a SHA256 hex document identifier, the one form of
// document id the server takes.
const documentIDPrefix = "sha256:"

// TrustedDocuments is a manifest of trusted documents: each document's text by the lowercase
// hex sha256 of that text. It is read once at start-up and only read after.
type TrustedDocuments struct {
	docs map[string]string
	// parsed holds each document as validation left it, for CheckLimits at start-up.
	parsed map[string]*ast.QueryDocument
}

// CheckLimits refuses a manifest holding a document the server's limits would refuse at every
// request: more tokens or operations than allowed, or an operation nested too deep or with
// too many aliases. Cost is left to each request: it follows the variables (a page's `first`).
func (t *TrustedDocuments) CheckLimits(c limits.Config) error {
	if t == nil {
		return nil
	}
	hashes := make([]string, 0, len(t.docs))
	for h := range t.docs {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	over := func(n, limit int) bool { return limit > 0 && n > limit }
	for _, h := range hashes {
		doc := t.parsed[h]
		if n := limits.Tokens(t.docs[h]); over(n, c.MaxTokens) {
			return fmt.Errorf("entry %q: %d tokens, over --max-tokens %d: every request of it would be refused", h, n, c.MaxTokens)
		}
		if n := limits.Operations(doc); over(n, c.MaxOperations) {
			return fmt.Errorf("entry %q: %d operations, over --max-operations %d: every request of it would be refused", h, n, c.MaxOperations)
		}
		for _, op := range doc.Operations {
			m := limits.Measure(op, nil)
			if over(m.Depth, c.MaxDepth) {
				return fmt.Errorf("entry %q: operation %q nests %d deep, over --max-depth %d: every request of it would be refused", h, op.Name, m.Depth, c.MaxDepth)
			}
			if over(m.Aliases, c.MaxAliases) {
				return fmt.Errorf("entry %q: operation %q has %d aliases, over --max-aliases %d: every request of it would be refused", h, op.Name, m.Aliases, c.MaxAliases)
			}
		}
	}
	return nil
}

// Len is the number of documents.
func (t *TrustedDocuments) Len() int {
	if t == nil {
		return 0
	}
	return len(t.docs)
}

// lookup is the document of hash (lowercase hex), if the manifest holds it.
func (t *TrustedDocuments) lookup(hash string) (string, bool) {
	if t == nil {
		return "", false
	}
	doc, ok := t.docs[hash]
	return doc, ok
}

// ReadTrustedDocuments reads and checks the manifest at path (ParseTrustedDocuments).
func ReadTrustedDocuments(path string) (*TrustedDocuments, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trusted documents: %w", err)
	}
	docs, err := ParseTrustedDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("trusted documents %s: %w", path, err)
	}
	return docs, nil
}

// ParseTrustedDocuments reads a manifest as GraphQL Codegen's client preset writes it
// (persistedDocuments: persisted-documents.json): one JSON object from each document's hash to
// its text. Codegen writes the hash as bare hex; the sha256: form of a document id is taken
// too. Every entry is checked: its key must be the sha256 of its document, and the document
// must parse and validate against the schema, so that a manifest built against another
// schema fails at start-up, naming the entry, rather than at a client's request.
func ParseTrustedDocuments(data []byte) (*TrustedDocuments, error) {
	if err := checkJSON(data, "the manifest", exactKeys); err != nil {
		return nil, err
	}
	var raw map[string]string
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a JSON object of hashes to documents (as GraphQL Codegen's persisted-documents.json): %w", err)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("holds no documents")
	}
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	t := &TrustedDocuments{docs: make(map[string]string, len(raw)), parsed: make(map[string]*ast.QueryDocument, len(raw))}
	for _, key := range keys {
		doc := raw[key]
		hash := strings.TrimPrefix(key, documentIDPrefix)
		if !isSHA256Hex(hash) {
			return nil, fmt.Errorf("entry %q: the key is not a sha256 hash (64 lowercase hex digits, with or without %q)", key, documentIDPrefix)
		}
		if got := sha256Hex(doc); got != hash {
			return nil, fmt.Errorf("entry %q: the document's sha256 is %s: the key must be the hash of the document's exact text", key, got)
		}
		// The server's own rules: a document refused here would be refused at every request.
		parsed, errs := gqlparser.LoadQueryWithRules(schema, doc, validationRules())
		if len(errs) > 0 {
			return nil, fmt.Errorf("entry %q: the document does not parse and validate against the schema: %s", key, errs[0].Message)
		}
		t.docs[hash], t.parsed[hash] = doc, parsed
	}
	return t, nil
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// isSHA256Hex reports whether s is 64 lowercase hex digits, a sha256 as GraphQL over HTTP
// spells it.
func isSHA256Hex(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parseDocumentID is the hash of a document id, which must be a SHA256 hex document
// identifier: other identifiers (custom ones, md5:, uppercase hex) name no document here, and
// are the client's mistake rather than a document the manifest lacks.
func parseDocumentID(id string) (string, error) {
	hash, ok := strings.CutPrefix(id, documentIDPrefix)
	if !ok || !isSHA256Hex(hash) {
		return "", domain.Errorf(domain.Invalid, "documentId %q is not a document id this server takes: send \"sha256:\" and the 64 lowercase hex digits of the document's sha256", clip(id))
	}
	return hash, nil
}

// clip shortens a client's text for an error message.
func clip(s string) string {
	const n = 80
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// getDocumentID is the hash of a GET's documentId parameter, "" without one (checkGETParams has
// refused it given twice).
func getDocumentID(params url.Values) (string, error) {
	id := params.Get("documentId")
	if id == "" {
		return "", nil
	}
	return parseDocumentID(id)
}

// postedDocumentID is the hash of a POST body's documentId, "" without one. checkJSON has
// checked the body; only a body that may name documentId is decoded again (one that spells it
// out, or writes any character as an escape, as "document\u0049d" names it too), and such a
// body is small (an id and variables), so a raw query is read once.
func postedDocumentID(body []byte) (string, error) {
	if !bytes.Contains(body, []byte(`"documentId"`)) && !bytes.Contains(body, []byte(`\u`)) {
		return "", nil
	}
	var req struct {
		DocumentID json.RawMessage `json:"documentId"`
	}
	if json.Unmarshal(body, &req) != nil || req.DocumentID == nil || string(req.DocumentID) == "null" {
		return "", nil // malformed JSON is gqlgen's to refuse
	}
	var id string
	if err := json.Unmarshal(req.DocumentID, &id); err != nil {
		return "", domain.Errorf(domain.Invalid, "documentId is not a string: send \"sha256:\" and the document's hash")
	}
	return parseDocumentID(id)
}

// documentRequest is what the HTTP edge learnt of a request for the trusted documents check,
// and what that check decided: the status of its refusal, which overHTTPStatus answers with.
type documentRequest struct {
	hash   string // the documentId's sha256 hex, "" without one
	status int    // the HTTP status of a refusal; 0 when not refused
}

type documentRequestKey struct{}

// withDocumentRequest is r's context with its documentRequest. A WebSocket's upgrade request
// gets none: the connection carries many operations, each naming its document in its own
// subscribe message, so an id on the upgrade is refused rather than applied to them all.
func withDocumentRequest(r *http.Request, hash string) (context.Context, error) {
	if r.Header.Get("Upgrade") != "" {
		if hash != "" {
			return nil, domain.Errorf(domain.Invalid, "a WebSocket's upgrade takes no documentId: send each operation's in its subscribe message's payload")
		}
		return r.Context(), nil
	}
	return context.WithValue(r.Context(), documentRequestKey{}, &documentRequest{hash: hash}), nil
}

func documentRequestFrom(ctx context.Context) *documentRequest {
	d, _ := ctx.Value(documentRequestKey{}).(*documentRequest)
	return d
}

// trustedDocuments is the gqlgen extension that resolves document ids and, under
// TrustedEnforce, refuses everything else. It runs before the automatic persisted queries.
type trustedDocuments struct {
	mode TrustedDocumentsMode
	docs *TrustedDocuments
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = trustedDocuments{}

func (trustedDocuments) ExtensionName() string { return "QuickphotosTrustedDocuments" }

func (trustedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

func (t trustedDocuments) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	req := documentRequestFrom(ctx)
	apqHash, hasAPQ := persistedQueryHash(p.Extensions)
	switch {
	case req != nil && req.hash != "":
		if hasAPQ {
			return refuse(req, http.StatusBadRequest, codeBadRequest, "the request has both a documentId and a persisted query extension: send one")
		}
		if p.Query != "" && sha256Hex(p.Query) != req.hash {
			return refuse(req, http.StatusBadRequest, codeBadRequest, "the request's query is not the document its documentId names: send the documentId alone")
		}
		doc, ok := t.docs.lookup(req.hash)
		if !ok {
			return refuse(req, http.StatusBadRequest, codeDocumentNotFound, t.notFound())
		}
		p.Query = doc
		return nil
	case hasAPQ && p.Query == "":
		if doc, ok := t.docs.lookup(apqHash); ok && t.mode != TrustedOff {
			p.Query = doc
			// The document is the manifest's: the automatic persisted queries need not keep it.
			delete(p.Extensions, "persistedQuery")
			return nil
		}
		if t.mode == TrustedEnforce {
			return refuse(req, http.StatusBadRequest, codeDocumentNotFound, t.notFound())
		}
	case t.mode == TrustedEnforce:
		return refuse(req, http.StatusForbidden, codeDocumentRequired, "this server runs only its trusted documents: send a documentId (\"sha256:\" and the document's hash) instead of the query")
	}
	return nil
}

func (t trustedDocuments) notFound() string {
	if t.mode == TrustedOff {
		return "this server takes no document ids: send the query"
	}
	return "no trusted document has this id: the client's build is not the one the server trusts"
}

// persistedQueryHash is the sha256Hash of an automatic persisted query extension, if the
// request has one; a malformed one is left to the AutomaticPersistedQuery extension.
func persistedQueryHash(ext map[string]any) (string, bool) {
	pq, ok := ext["persistedQuery"]
	if !ok || pq == nil {
		return "", false
	}
	m, _ := pq.(map[string]any)
	// Keys matched as gqlgen's extension matches them (mapstructure: regardless of case);
	// strictRequests has refused two keys that differ only in case.
	for k, v := range m {
		if strings.EqualFold(k, "sha256Hash") {
			hash, _ := v.(string)
			return hash, true
		}
	}
	return "", true
}

// refuse is the error of a refused request, with its code; status is recorded for
// overHTTPStatus (a graphql-ws or SSE subscription has no status of its own).
func refuse(req *documentRequest, status int, code, message string) *gqlerror.Error {
	if req != nil {
		req.status = status
	}
	err := gqlerror.Errorf("%s", message)
	err.Extensions = map[string]any{"code": code}
	return err
}
