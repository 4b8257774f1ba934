package main

import (
	"os"
	"syscall"
)

// maxRSSKiB returns the child's peak resident set size; Linux reports
// ru_maxrss in KiB.
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
