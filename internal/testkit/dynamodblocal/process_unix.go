//go:build unix

package dynamodblocal

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup makes the JVM the leader of a new process group, so that
// killGroup reaches any process it starts too.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group led by cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
