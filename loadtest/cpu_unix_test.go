//go:build unix

package loadtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/loadtest"
)

// Each target's report holds the CPU time the load tool used over its measured rounds, and no
// more than its cores could have given it (this test's server runs in the same process, so the
// figure holds its work too).
func TestRun_MeasuresToolCPU(t *testing.T) {
	srv := sampleServer(t)
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{srv.URL + api.Endpoint}, Mix: mix(t, "profile=1,photos=1"), Clients: 2,
		Rounds: 2, Duration: time.Minute, MaxOps: 200, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	target := report.Targets[0]
	if report.Procs < 1 {
		t.Errorf("Procs = %d", report.Procs)
	}
	if ceiling := time.Duration(report.Procs+1) * target.Elapsed; target.ToolCPU <= 0 || target.ToolCPU > ceiling {
		t.Errorf("ToolCPU = %s over %s of rounds on %d cores", target.ToolCPU, target.Elapsed, report.Procs)
	}
}
