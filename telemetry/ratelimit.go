package telemetry

import "github.com/quickphotos/quickphotos/ratelimit"

// RateLimit returns the observer of the per-caller buckets, which counts, by kind of caller
// (user or address):
//
//	quickphotos_ratelimit_refused_total{caller}   operations refused for an empty bucket
//	quickphotos_ratelimit_units_total{caller}     capacity units charged to buckets
//	quickphotos_ratelimit_failures_total{caller}  operations run unmetered: the buckets did not answer
func (t *Telemetry) RateLimit() ratelimit.Observer { return rateObserver{t.m} }

type rateObserver struct{ m *metrics }

func (o rateObserver) Refused(kind string) { o.m.rateRefused.WithLabelValues(kind).Inc() }

func (o rateObserver) Charged(kind string, units float64) {
	o.m.rateUnits.WithLabelValues(kind).Add(units)
}

func (o rateObserver) Failed(kind string) { o.m.rateFailures.WithLabelValues(kind).Inc() }
