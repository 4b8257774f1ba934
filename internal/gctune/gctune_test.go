package gctune

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestForInput checks the settings each input size gets. Not parallel: it
// changes the process's collector.
func TestForInput(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	tests := []struct {
		name    string
		total   int
		onePass bool
		percent int
		limit   int64
	}{
		{"small, one pass", 1 << 20, true, SmallPercent, 3<<20 + MemoryFloor},
		{"at the threshold", LargeInput, true, SmallPercent, 3*LargeInput + MemoryFloor},
		{"large, one pass", LargeInput + 1, true, 100, 3*(LargeInput+1) + MemoryFloor},
		{"small, pipeline", 1 << 20, false, SmallPercent, math.MaxInt64},
		{"large, pipeline", 64 << 20, false, 100, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			Start()
			ForInput(tt.total, tt.onePass)
			if got := debug.SetGCPercent(-1); got != tt.percent {
				t.Errorf("GOGC %d, want %d", got, tt.percent)
			}
			if got := debug.SetMemoryLimit(-1); got != tt.limit {
				t.Errorf("memory limit %d, want %d", got, tt.limit)
			}
		})
	}
}

// TestEnvironmentDecides: GOGC and GOMEMLIMIT, when set, win.
func TestEnvironmentDecides(t *testing.T) {
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	Start()
	ForInput(64<<20, true)
	if got := debug.SetGCPercent(-1); got != 77 {
		t.Errorf("GOGC changed to %d despite the environment", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit set to %d despite GOMEMLIMIT", got)
	}
}

// TestHold: diff's limit scales with its input, unless GOMEMLIMIT is set.
func TestHold(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOMEMLIMIT", "")
	Hold(1 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(HoldFactor<<20)+MemoryFloor; got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	Hold(1 << 20)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set, limit %d", got)
	}
}
