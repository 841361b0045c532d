//go:build unix

package procgroup_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
)

// TestOwn_EndsTheChildsChildren: a shell that starts a sleep in the background and waits for
// it, started under Own, is ended with its sleep by each way a test ends it.
func TestOwn_EndsTheChildsChildren(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(cmd *exec.Cmd, cancel context.CancelFunc) error
	}{
		{"Kill", func(cmd *exec.Cmd, _ context.CancelFunc) error { return procgroup.Kill(cmd) }},
		{"SIGTERM", func(cmd *exec.Cmd, _ context.CancelFunc) error { return procgroup.Signal(cmd, syscall.SIGTERM) }},
		{"ContextEnds", func(_ *exec.Cmd, cancel context.CancelFunc) error { cancel(); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd, sleep := startShell(t, exec.CommandContext(ctx, "sh", "-c", "sleep 60 & echo $!; wait"))
			if err := tc.end(cmd, cancel); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err == nil {
				t.Error("the shell exited cleanly, want it ended by a signal")
			}
			waitGone(t, sleep)
		})
	}
}

// TestStop: a shell that ends on SIGTERM stops in time; one that ignores it (and so does its
// sleep, which inherits that) is killed with its sleep once the grace period is over.
func TestStop(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		inTime bool
	}{
		{"EndsOnSIGTERM", "sleep 60 & echo $!; wait", true},
		{"IgnoresSIGTERM", "trap '' TERM; sleep 60 & echo $!; wait", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, sleep := startShell(t, exec.Command("sh", "-c", tc.script))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			inTime, err := procgroup.Stop(cmd, exited, 500*time.Millisecond)
			if inTime != tc.inTime || err == nil {
				t.Errorf("Stop: in time %v, %v; want in time %v and the shell ended by a signal", inTime, err, tc.inTime)
			}
			waitGone(t, sleep)
		})
	}
}

// TestKill_NotStarted: ending a command that never started does nothing.
func TestKill_NotStarted(t *testing.T) {
	if err := procgroup.Kill(exec.Command("true")); err != nil {
		t.Errorf("Kill of a command not started: %v", err)
	}
}

// startShell starts cmd, a shell that prints the pid of the sleep it starts, under Own, and
// returns it with that pid. The sleep is killed when the test ends, whatever the test did.
func startShell(t *testing.T, cmd *exec.Cmd) (*exec.Cmd, int) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("no sh: %v", err)
	}
	procgroup.Own(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	sleep, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("the shell printed %q (%v, %v), want the sleep's pid", line, err, perr)
	}
	t.Cleanup(func() { _ = syscall.Kill(sleep, syscall.SIGKILL) })
	return cmd, sleep
}

// waitGone fails the test if the process pid still runs 10 seconds on.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for running(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the shell's sleep (pid %d) still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running reports whether pid is a live process: neither gone nor a zombie waiting to be
// reaped by whichever ancestor inherited it.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err)
	}
	// The state follows the command's name in parentheses, which may itself hold ") ".
	_, rest, _ := strings.Cut(string(stat[strings.LastIndexByte(string(stat), ')'):]), " ")
	return !strings.HasPrefix(rest, "Z")
}
