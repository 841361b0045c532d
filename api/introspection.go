package api

import (
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/selection"
)

// With introspection switched off (Config.DisableIntrospection), operations that ask for the
// schema (__schema, __type) are refused before they run, with a code a client can act on.
// (Without the Introspection extension gqlgen would still run them, and answer with an
// uncoded resolver error.) __typename stays allowed: clients need it to tell types apart.

// asksForSchema reports whether f is __schema or __type at the top level (introspection fields
// exist only on the root query type, so a fragment that selects them is spread there too).
func asksForSchema(f *selection.Field) bool {
	return f.Depth() == 0 && (f.Name == "__schema" || f.Name == "__type")
}

func errIntrospectionOff() *gqlerror.Error {
	err := gqlerror.Errorf("introspection is switched off on this server")
	err.Extensions = map[string]any{"code": codeValidationFailed}
	return err
}
