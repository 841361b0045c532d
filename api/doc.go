// Package api is the HTTP edge of quickphotos: the GraphQL endpoint (POST and GET /graphql),
// the playground at /, the health endpoints and, with telemetry, /metrics. It is where domain
// errors become extensions.code (errors.go), where each operation gets its own loaders
// (operation.go), and where the DynamoDB cost of an operation is reported when asked (cost.go).
package api
