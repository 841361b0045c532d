// Package partiqlexec runs PartiQL statements (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction) as the engine's operations: a
// statement parsed by package ddb/partiql is planned against its table,
// translated into the equivalent operation's typed input (a GetItem, Query,
// Scan, PutItem, UpdateItem, DeleteItem or transaction), its values checked
// as the JSON decoding of that request would check them, and run by the
// operation (package engine), whose typed output it reads. Its answers are
// the engine's typed outputs, which both front-ends render: package wire
// decodes the JSON requests into this package's inputs, package sdkapi the
// SDK's.
//
// # Files
//
//	partiql.go               the three operations; planning a statement
//	partiqltranslate.go      a statement's conditions, paths and values as
//	                         the operations' expressions
//	partiqlinput.go          a plan as the operations' typed inputs; its
//	                         values checked; a transaction's earlier
//	                         ClientRequestToken hash
package partiqlexec
