//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the server in a process group of its own, so that a
// server started through a wrapper (npx, sh -c) is ended whole.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// kill ends the server's process group.
func kill(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
