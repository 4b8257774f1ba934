//go:build !unix

package shell

import "os/exec"

// ownProcessGroup: without process groups, cancellation kills the shell
// (exec's default).
func ownProcessGroup(cmd *exec.Cmd) {}
