// Package gctune holds skillopt's garbage-collector settings: a relaxed
// collector for small inputs, the default pace for large ones, and a soft
// memory limit for commands that pass over their input once or hold it
// while they compare. The baseline
// skillopt is benchmarked against (internal/cmd/jsonbaseline) applies the
// same settings, so that the two compare like with like.
package gctune

import (
	"os"
	"runtime/debug"
)

// SmallPercent is the GOGC percentage of small batches.
const SmallPercent = 300

// LargeInput is the input size above which the collector runs at its
// default pace.
const LargeInput = 8 << 20

// MemoryFloor is the part of the soft memory limit that does not scale with
// the input: the runtime, the tokenizer's vocabulary and the compiled
// schemas take about 20 MiB.
const MemoryFloor = 24 << 20

// Start relaxes the collector unless GOGC is set: skillopt is a short
// batch process whose live heap is a few times its input, and collecting
// less often saves more time than it costs memory.
func Start() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(SmallPercent)
	}
}

// ForInput adapts the collector once the inputs (total bytes) are read. A
// large input would multiply the heap by Start's factor, so above
// LargeInput the collector goes back to its usual pace (unless GOGC is
// set). A command that passes over its input once (onePass) keeps its
// heap near what a capture needs: the collector works harder rather than
// let garbage take the resident size past three times the input plus
// MemoryFloor (unless GOMEMLIMIT is set).
func ForInput(total int, onePass bool) {
	if total > LargeInput && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
	if onePass && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(3*total) + MemoryFloor)
	}
}

// HoldFactor bounds, per byte of input, the resident size of a command that
// holds its inputs while it compares them (diff: two documents, their
// indexes and hashes, the alignment of their longest arrays).
const HoldFactor = 12

// Hold sets a soft memory limit of HoldFactor times the inputs (total
// bytes) plus MemoryFloor, unless GOMEMLIMIT is set: the relaxed collector
// of small inputs would otherwise let garbage take the resident size past
// it.
func Hold(total int) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(HoldFactor*total) + MemoryFloor)
	}
}
