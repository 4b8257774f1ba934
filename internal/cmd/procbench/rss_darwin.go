package main

import (
	"os"
	"syscall"
)

// maxRSSKiB returns the child's peak resident set size; macOS reports
// ru_maxrss in bytes.
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) / 1024
	}
	return 0
}
