// Package apollopeer holds the test that proves tools/apollo-peer, the Apollo Server +
// DataLoader peer of the performance comparison, serves the same API as quickphotos: the
// workload's operations, sent to both servers over one table, get the same answers.
package apollopeer
