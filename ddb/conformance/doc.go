// Package conformance holds the differential conformance suite of the
// embedded engine (package ddb) against the official DynamoDB Local.
//
// The package has no code of its own: everything is in its tests. Cases are
// data: each file testdata/*.json holds one or more named sequences of steps,
// and Go generators (gen_*_test.go) add table-driven ones. Each step is one
// raw DynamoDB JSON 1.0 request (operation and body), sent signed with SigV4
// over HTTP to DynamoDB Local and to the engine, and the two responses are
// compared after normalisation (see the Compare type in case_test.go).
//
// Error messages are compared too, except where DynamoDB Local's wording
// is known to differ from the engine's (typeOnlyMessages in
// messages_test.go lists those steps and the two wordings). Steps can also
// read every page of a Scan or Query (paginate), check per-target
// invariants across steps (collect and union: the segments of a parallel
// Scan partition the table on each target, whatever their hashing), and
// poll until an asynchronous effect such as TTL deletion is visible (see
// Step in case_test.go). Every step is a subtest of its sequence, named
// "<step id>_<operation>", so one comparison can be run or read alone;
// TestConformance prints the number of compared steps and sequences.
//
// Steps listed in testdata/divergences.json are those where DynamoDB Local
// is known to differ from Amazon DynamoDB's documented behaviour
// (docs/dynamodb-local-divergences.md gives the sources); for them the
// engine is checked against the step's written "expect" response instead.
//
// Run it with
//
//	go test ./ddb/conformance/
//	go test ./ddb/conformance/ -run 'TestConformance/query' -v
//	go test ./ddb/conformance/ -run 'TestConformance/query/#12_' -v   # one step's verdict (all steps still run)
//	go test ./ddb/conformance/ -conformance.engine=false   # check the cases on DynamoDB Local only
//	go test ./ddb/conformance/ -conformance.record        # rewrite testdata/golden/
//	go test ./ddb/conformance/ -conformance.local=false   # engine vs testdata/golden/, no Java
//
// The environment variable QUICKPHOTOS_CONFORMANCE_LOCAL_ONLY=1 has the
// effect of -conformance.engine=false. If package ddb does not compile,
// leave engine_test.go (the only file that imports it) out with an overlay,
// as its comment shows.
//
// DynamoDB Local is started once per test binary by package
// internal/testkit/dynamodblocal (install it with `make deps`).
package conformance
