// Package bench holds skillopt's benchmark harnesses and synthetic data
// generators: the catalog, tool and output benchmarks behind `skillopt
// bench`, the synthetic captures of internal/bench/synth, and the helpers
// they share. No product package imports it (a test checks).
package bench

import (
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// MedianMicros calls fn n times and returns the median wall time of one
// call in microseconds. before, when not nil, runs ahead of every call and
// is not timed.
func MedianMicros(n int, fn, before func()) float64 {
	ts := make([]time.Duration, max(n, 1))
	for i := range ts {
		if before != nil {
			before()
		}
		start := time.Now()
		fn()
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return float64(ts[len(ts)/2].Nanoseconds()) / 1000
}

// Millis converts d to milliseconds rounded to microseconds.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Pct returns part as a percentage of whole, rounded to one decimal (0 for
// an empty whole).
func Pct(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(int(float64(part)*1000/float64(whole)+0.5)) / 10
}

// Peak is a peak resident set size and where it was read.
type Peak struct {
	KiB int64
	// Source names the measurement: "VmHWM since reset" (Linux, the
	// high-water mark reset by StartPeak), "VmHWM" or "ru_maxrss" (the
	// peak of the whole process so far), or "" when the platform has
	// none.
	Source string
}

// StartPeak returns the memory the collector can give back to the
// operating system and then, where the platform allows (Linux), resets the
// process's resident-set high-water mark, so that ReadPeak reports the peak
// of what runs between the two calls. It reports whether the mark was
// reset; when it was not, ReadPeak gives the peak of the whole process so
// far.
func StartPeak() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return resetPeak()
}

// ReadPeak returns the process's peak resident set size: since StartPeak
// when reset is true (what StartPeak returned), else since the process
// started.
func ReadPeak(reset bool) Peak {
	return readPeak(reset)
}
