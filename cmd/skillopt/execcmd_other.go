//go:build !unix

package main

import "os/exec"

// ownProcessGroup: without process groups, cancellation kills the shell
// (exec's default).
func ownProcessGroup(cmd *exec.Cmd) {}
