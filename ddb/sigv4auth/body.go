package sigv4auth

import (
	"net/http"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// The bodies read for their signature share a memory budget of their own (Options.BodyMemory),
// read as the engine reads its own (wire.BodyBudget): many large requests in parallel wait for
// memory instead of growing the process. A body is held twice while the engine handles it
// (here and in the engine's own copy), each within its budget.

// readBody reads r's body within ddb.MaxRequestBytes and budget b, and returns it with the
// function that gives its memory back; a refusal is answered as AWS's front end answers it.
func readBody(b *wire.BodyBudget, w http.ResponseWriter, r *http.Request) (body []byte, release func(), _ *authError) {
	body, release, err := b.Read(w, r)
	if err != nil {
		e := engine.AsError(err)
		return nil, nil, &authError{e.Type, e.Message}
	}
	return body, release, nil
}
