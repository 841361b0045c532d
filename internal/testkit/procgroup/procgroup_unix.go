//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

func own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Signal sends sig to the process group that cmd's process leads, or, if there is none (cmd
// was not started under Own), to the process alone. A command not started is left alone.
func Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		return cmd.Process.Signal(sig)
	}
	return nil
}

// Kill sends SIGKILL as Signal does.
func Kill(cmd *exec.Cmd) error { return Signal(cmd, syscall.SIGKILL) }
