package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"testing"
)

// TestStackBallast: with the ballast, a collection sets the stack new goroutines start with
// to 16 KB, not more. It runs in a process of its own, where no other test's goroutines
// weigh in the runtime's average.
func TestStackBallast(t *testing.T) {
	if os.Getenv("QUICKPHOTOS_BALLAST_TEST") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestStackBallast$", "-test.count", "1")
		cmd.Env = append(os.Environ(), "QUICKPHOTOS_BALLAST_TEST=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	startStackBallast()
	startStackBallast() // once per process
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}
	metrics.Read(sample)
	if got := sample[0].Value.Uint64(); got != 16<<10 {
		t.Errorf("goroutines start with %d bytes of stack, want %d", got, 16<<10)
	}
}
