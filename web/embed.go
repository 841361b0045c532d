// Package web holds the quickphotos web app (React, TypeScript, Apollo Client; its sources are
// in this directory, see docs/web-app.md) as built into dist/ by `npm run build`, embedded in
// the binary so that `serve` serves it at /app/ with only Go installed, and the manifest of
// its trusted documents, which `serve` trusts by default.
//
// dist/ and src/gql/ are committed build output: web_test.go rebuilds them from the sources and
// fails when they differ, so the embedded app is always the one its sources describe.
package web

import (
	"bytes"
	"embed"
)

//go:embed dist
var dist embed.FS

//go:embed src/gql/persisted-documents.json
var manifest []byte

// Manifest is the app's trusted documents, in the format GraphQL Codegen's client preset
// writes (persisted-documents.json): what `serve --trusted-documents` reads.
func Manifest() []byte { return bytes.Clone(manifest) }

// Prefix is the path the app is built for and served at: its page names its assets by absolute
// URLs under it (vite.config.ts's base), so this package owns it and `serve` mounts Handler
// here (api.Config.AppPath).
const Prefix = "/app/"
