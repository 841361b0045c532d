// Package procgroup starts a test's child process as the leader of a process group of its own
// and ends the whole group: what the child starts in turn (the function under the Lambda
// emulator, strace's tracee, the server under `buildah run`, DynamoDB Local's JVM) ends with
// it instead of outliving the test.
//
// Where there are no process groups (not unix), the same calls reach the child alone.
package procgroup

import (
	"os/exec"
	"syscall"
	"time"
)

// Own makes cmd, once started, the leader of a new process group. For a command made by
// exec.CommandContext (which sets cmd.Cancel), the context's end then kills the whole group
// rather than the child alone.
func Own(cmd *exec.Cmd) {
	own(cmd)
	if cmd.Cancel != nil {
		cmd.Cancel = func() error { return Kill(cmd) }
	}
}

// Stop ends cmd gracefully, with its group if it leads one (see Signal): SIGTERM, then SIGKILL
// if cmd has not exited within grace. exited delivers cmd.Wait's result: the caller waits,
// since it may have to read cmd's output first. Stop returns whether cmd exited within grace,
// and Wait's result.
func Stop(cmd *exec.Cmd, exited <-chan error, grace time.Duration) (inTime bool, err error) {
	_ = Signal(cmd, syscall.SIGTERM)
	select {
	case err := <-exited:
		return true, err
	case <-time.After(grace):
		_ = Kill(cmd)
		return false, <-exited
	}
}
