//go:build !linux && !darwin

package main

import "os"

// maxRSSKiB reports 0 where the peak resident set size is not available.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
