package main

// rateLimitConfig is serve's per-caller rate limit: a bucket of DynamoDB capacity units per
// caller (package ratelimit). It is off unless --rate-limit-capacity is given: what a caller
// may spend depends on the table's provisioned or paid-for capacity and on how many callers
// share it, which only the operator knows; and on a server without authentication every caller
// is known only by its address, so callers behind one proxy or NAT would share a bucket.
type rateLimitConfig struct {
	capacity, refill float64
	redisURL         string
	trustedProxies   string
}

func (c *rateLimitConfig) register(f *flags) {
	f.Float(&c.capacity, "rate-limit-capacity", 0, "give every caller (user, or address when anonymous) a bucket of this many DynamoDB capacity units (read + write units), refused with 429 LIMIT_EXCEEDED while it is empty or in debt; an operation is charged what it consumed (0: no rate limit)")
	f.Float(&c.refill, "rate-limit-refill", 0, "with --rate-limit-capacity: the capacity units a bucket regains a second, a caller's sustained rate")
	f.String(&c.trustedProxies, "trusted-proxies", "", "comma-separated addresses and CIDR ranges of the reverse proxies and load balancers in front of serve, e.g. 10.0.0.0/8: an anonymous caller whose connection comes from one is known, for its rate-limit bucket, by the address X-Forwarded-For says the proxies were reached from (empty: none; the connection's address)")
	f.String(&c.redisURL, "rate-limit-redis", "", "with --rate-limit-capacity: keep the buckets in this Redis (redis://host:6379/0), shared by every instance using it (empty: the Redis of --changes-from when given, else this process's memory)")
}
