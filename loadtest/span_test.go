package loadtest_test

import (
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/loadtest"
)

// TestConfig_Span: the tokens of a run outlive all its rounds, a greedy caller's doubled ones
// and each operation's alone.
func TestConfig_Span(t *testing.T) {
	mix, err := loadtest.ParseMix("profile=3,photos=1")
	if err != nil {
		t.Fatal(err)
	}
	base := loadtest.Config{Mix: mix, Targets: []string{"a", "b"}, Rounds: 3, Warmup: time.Second, Duration: 4 * time.Second}
	greedy, alone := base, base
	greedy.Greedy = 4
	alone.Alone = true
	for _, tc := range []struct {
		name string
		cfg  loadtest.Config
		want time.Duration
	}{
		{"the mix", base, 6 * 5 * time.Second},
		{"beside a greedy caller", greedy, 12 * 5 * time.Second},
		{"and each operation alone", alone, 18 * 5 * time.Second},
	} {
		if got := tc.cfg.Span(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
