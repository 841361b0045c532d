package loadtest

import (
	"testing"
	"time"
)

func TestLatencies_Percentile(t *testing.T) {
	var hundred latencies
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, time.Duration(i)*time.Millisecond)
	}
	for _, tc := range []struct {
		name string
		l    latencies
		p    float64
		want time.Duration
	}{
		{"none", nil, 50, 0},
		{"one", latencies{7}, 99, 7},
		{"median of 100", hundred, 50, 50 * time.Millisecond},
		{"p99 of 100", hundred, 99, 99 * time.Millisecond},
		{"p100 of 100", hundred, 100, 100 * time.Millisecond},
		{"p0 is the least", hundred, 0, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.l.Percentile(tc.p); got != tc.want {
				t.Errorf("Percentile(%v) = %v, want %v", tc.p, got, tc.want)
			}
		})
	}
	if got := hundred.Max(); got != 100*time.Millisecond {
		t.Errorf("Max = %v", got)
	}
}
