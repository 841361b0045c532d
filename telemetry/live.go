package telemetry

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/quickphotos/quickphotos/live"
)

// Live exposes the subscriptions of hub in the metrics:
//
//	quickphotos_live_connections                 open WebSocket and Server-Sent Events connections
//	quickphotos_live_subscriptions               open subscriptions
//	quickphotos_live_events_delivered_total      changes passed to subscribers
//	quickphotos_live_subscriptions_lagged_total  subscriptions ended because they fell behind
//
// Call it once per Telemetry.
func (t *Telemetry) Live(hub *live.Hub) {
	gauge := func(name, help string, value func(live.Stats) int64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Subsystem: "live", Name: name, Help: help},
			func() float64 { return float64(value(hub.Stats())) })
	}
	counter := func(name, help string, value func(live.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: namespace, Subsystem: "live", Name: name, Help: help},
			func() float64 { return float64(value(hub.Stats())) })
	}
	t.registry.MustRegister(
		gauge("connections", "Open WebSocket and Server-Sent Events connections.", func(s live.Stats) int64 { return s.Connections }),
		gauge("subscriptions", "Open GraphQL subscriptions.", func(s live.Stats) int64 { return s.Subscriptions }),
		counter("events_delivered_total", "Changes passed to subscribers.", func(s live.Stats) int64 { return s.Delivered }),
		counter("subscriptions_lagged_total", "Subscriptions ended because they fell too far behind the changes.", func(s live.Stats) int64 { return s.Lagged }),
	)
}

// StreamLag returns the function to give a stream consumer (stream.Consumer.Observe) to
// report, in quickphotos_stream_lag_seconds{consumer}, how far behind the table's changes it
// is after each batch.
func (t *Telemetry) StreamLag(consumer string) func(time.Duration) {
	g := t.m.streamLag.WithLabelValues(consumer)
	return func(lag time.Duration) { g.Set(lag.Seconds()) }
}
