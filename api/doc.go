// Package api is the HTTP edge of quickphotos: the GraphQL endpoint (POST and GET /graphql),
// the playground at /, the health endpoints and, with telemetry, /metrics. It is where domain
// errors become extensions.code (errors.go), where requests whose JSON two readers could read
// differently are refused before gqlgen decodes them (requestjson.go), where each operation is
// checked before it runs in one walk of its selection set (requestchecks.go: its arguments,
// introspection, the profile fields it reads, the limits' measures), where each operation
// gets its own loaders (operation.go), where the DynamoDB cost of an operation is reported
// when asked (cost.go), where every caller's operations draw on its bucket of capacity units,
// when the server has rate limits (ratelimit.go), and where text that is not UTF-8 is refused
// (requesttext.go), and where a trusted document's id becomes its document and, under enforce,
// nothing else runs (trusteddocs.go). Subscriptions run over graphql-ws (graphqlws.go, its close codes as the
// protocol defines them) and Server-Sent Events (live.go); requests no transport takes are
// refused in GraphQL's error shape (refusals.go).
package api
