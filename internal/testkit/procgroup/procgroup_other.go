//go:build !unix

package procgroup

import (
	"os/exec"
	"syscall"
)

func own(cmd *exec.Cmd) {}

// Signal sends sig to cmd's process. A command not started is left alone.
func Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Signal(sig)
}

// Kill kills cmd's process.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
