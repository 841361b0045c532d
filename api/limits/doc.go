// Package limits refuses GraphQL operations built to exhaust the server, before any resolver
// runs and so before any DynamoDB request is made.
//
// A document's size is taken first, as the lexical tokens in its text, before gqlgen parses,
// validates or caches it: validation time grows with the square of repeated fields, so a
// large document is refused before it can cost anything. Four measures are then taken of every
// operation once gqlgen has parsed and validated it: how many operations the document defines
// (each is parsed and validated even though one runs), how deeply its fields nest, how many
// aliases it uses (aliases are how one document asks for the same expensive field many
// times), and an upper bound of the DynamoDB items it may read (Cost). Each has a limit in
// Config; the first one exceeded refuses the operation with extensions.code
// QUERY_LIMIT_EXCEEDED.
//
// The measures are pure functions of the validated document and its variables, so tests and
// documentation can state the numbers a query has. They are taken in one walk of the operation
// (package selection's Walker), the one the server's other checks make too (MeasureField,
// Record). Fragments are expanded, and each fragment is measured once however often it is
// spread, so a document cannot make the measuring itself expensive.
package limits
