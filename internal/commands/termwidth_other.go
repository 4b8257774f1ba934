//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package commands

import "os"

// terminalColumns does not know the width of a terminal here.
func terminalColumns(*os.File) int { return 0 }
