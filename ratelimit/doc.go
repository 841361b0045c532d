// Package ratelimit keeps a bucket of DynamoDB capacity units per caller, so that no caller
// can spend what the table gives every caller.
//
// A bucket holds at most Limits.Capacity units and refills at Limits.RefillPerSecond. The
// server asks Admit before it runs a caller's operation and Charges the units the operation
// actually consumed once it has run. Admit refuses only a bucket that is empty or in debt; a
// Charge may take a bucket below zero, and the debt must refill before the caller is admitted
// again. This is how Shopify meters its GraphQL API: the cost of an operation is known exactly
// only after it ran (what DynamoDB reported as consumed), while what can be known before it
// runs is a worst-case estimate (api/limits) that is typically many times the real cost, so
// pre-debiting the estimate would refuse callers whose real spending is well inside their
// budget. With debt, a caller pays exactly what it used, and a caller who overspends with one
// expensive operation waits for its refill instead of being cut off mid-operation.
//
// Two stores keep the buckets: Memory, in the process, for a single instance; and Redis, for
// instances behind one load balancer, which then share each caller's bucket. The Redis
// buckets are read and updated by one Lua script, so instances never lose one another's
// charges. Every implementation takes the time from a Clock the caller gives, so tests move
// time without sleeping; the Redis script never lets a bucket's time go backwards, so
// instances whose clocks differ by a little only refill a little late.
package ratelimit
