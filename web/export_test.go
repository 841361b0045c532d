package web

import (
	"io/fs"
	"net/http"
)

// HandlerFor is Handler serving the build in build rather than the embedded dist, for tests of
// what the handler makes of other bytes.
func HandlerFor(build fs.FS) http.Handler { return newHandler(build) }
