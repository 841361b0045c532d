package main

import (
	"fmt"
	"strings"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/web"
)

// trustedDocumentsConfig is the manifest of trusted documents and the mode it runs under
// (docs/api.md#trusted-documents), for `serve` and `lambda` alike.
type trustedDocumentsConfig struct {
	path string
	mode string
	// docs and settled are what load made of path and mode; ofApp, that docs are the web
	// app's, trusted because neither was given.
	docs    *api.TrustedDocuments
	settled api.TrustedDocumentsMode
	ofApp   bool
	// appOverLimits, when set, is why the web app's documents were not trusted: the query
	// limits refuse one of them.
	appOverLimits error
}

// dropApp gives up the web app's documents, which err says the query limits refuse: the mode
// becomes off, as it was before the app was embedded.
func (c *trustedDocumentsConfig) dropApp(err error) {
	c.docs, c.settled, c.ofApp, c.appOverLimits = nil, api.TrustedOff, false, err
}

func (c *trustedDocumentsConfig) register(f *flags) {
	f.String(&c.path, "trusted-documents", "", "a manifest of trusted documents as GraphQL Codegen's client preset writes it (persisted-documents.json), read and checked against the schema at start-up: clients may send a documentId (sha256:<hex>) instead of the query (empty: with no --trusted-documents-mode either, the embedded web app's documents, web/src/gql/persisted-documents.json, in allow mode)")
	f.String(&c.mode, "trusted-documents-mode", "", `what runs: off, allow (document ids and queries) or enforce (only the manifest's documents; production) (empty: allow)`)
}

// load reads and checks the manifest, so that a bad one stops start-up naming its entry, and
// settles the mode: a manifest no mode uses, or a mode without a manifest, is a mistake.
func (c *trustedDocumentsConfig) load() error {
	mode := api.TrustedDocumentsMode(c.mode)
	switch {
	case mode == "" && c.path == "":
		// The web app served at /app/ sends only document ids: trust its own, beside queries.
		docs, err := api.ParseTrustedDocuments(web.Manifest())
		if err != nil {
			return fmt.Errorf("the web app's trusted documents: %w", err)
		}
		c.docs, c.settled, c.ofApp = docs, api.TrustedAllow, true
		return nil
	case mode == "":
		mode = api.TrustedAllow
	case mode != api.TrustedOff && mode != api.TrustedAllow && mode != api.TrustedEnforce:
		return fmt.Errorf("--trusted-documents-mode (%s) %q: want %s", envName("trusted-documents-mode"), c.mode, modeList())
	case mode == api.TrustedOff && c.path != "":
		return fmt.Errorf("--trusted-documents-mode (%s) off with --trusted-documents (%s): leave the mode empty or say allow or enforce, or drop the manifest", envName("trusted-documents-mode"), envName("trusted-documents"))
	case mode != api.TrustedOff && c.path == "":
		return fmt.Errorf("--trusted-documents-mode (%s) %s needs --trusted-documents (%s), the manifest of the documents to run", envName("trusted-documents-mode"), mode, envName("trusted-documents"))
	}
	c.settled = mode
	if c.path == "" {
		return nil
	}
	docs, err := api.ReadTrustedDocuments(c.path)
	if err != nil {
		return fmt.Errorf("--trusted-documents (%s): %w", envName("trusted-documents"), err)
	}
	c.docs = docs
	return nil
}

// describe says what start-up logs of the trusted documents.
func (c *trustedDocumentsConfig) describe() string {
	if c.appOverLimits != nil {
		return fmt.Sprintf("off: the web app cannot run, as the query limits refuse its documents (%v)", c.appOverLimits)
	}
	if c.docs == nil {
		return string(c.settled)
	}
	says := fmt.Sprintf("%s, %d documents", c.settled, c.docs.Len())
	if c.docs.Len() == 1 {
		says = fmt.Sprintf("%s, 1 document", c.settled)
	}
	if c.ofApp {
		says += " of the web app (--trusted-documents names others)"
	}
	if c.settled == api.TrustedEnforce {
		says += ": nothing else runs, and GraphiQL is not served"
	}
	return says
}

func modeList() string {
	names := make([]string, len(api.TrustedDocumentsModes))
	for i, m := range api.TrustedDocumentsModes {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}
