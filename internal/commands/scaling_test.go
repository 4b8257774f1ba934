package commands

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/bench/synth"
)

// Every command's work grows linearly with its input, whatever the shape
// of the JSON. The scaling suite runs each command on each hostile shape
// (synth.Hostile) at N and 4N bytes and compares the bytes it allocates,
// which, unlike time, does not depend on how busy the machine is: four
// times the input may cost at most five times the allocation. Timings of
// the same runs, with peak memory, are in `make bench` (scaling section).

// scalingCommands are the commands of the suite; A and B stand for the
// capture and its variant.
var scalingCommands = []struct {
	name string
	args []string
}{
	{"measure", []string{"measure", "A"}},
	{"measure --encoding none", []string{"measure", "--encoding", "none", "A"}},
	{"measure --conversation", []string{"measure", "--conversation", "A", "B"}},
	{"validate", []string{"validate", "A"}},
	{"transform", []string{"transform", "--archive", "ARCHIVE", "-o", "OUT", "A"}},
	{"check", []string{"check", "A"}},
	{"diff", []string{"diff", "A", "B"}},
	{"diff --stat", []string{"diff", "--stat", "A", "B"}},
}

// cmdAllocated runs one command in process and returns the bytes it
// allocated.
func cmdAllocated(t testing.TB, args []string) uint64 {
	t.Helper()
	var stdout, stderr bytes.Buffer
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := run(append([]string{"skillopt"}, args...), nil, &stdout, &stderr)
	runtime.ReadMemStats(&after)
	if code == 2 {
		t.Fatalf("%v: exit 2: %s", args, stderr.String())
	}
	return after.TotalAlloc - before.TotalAlloc
}

// scalingArgs writes the two sides of shape at size bytes into dir and
// returns args with A, B, OUT and ARCHIVE replaced.
func scalingArgs(t testing.TB, dir, shape string, size int, args []string) []string {
	t.Helper()
	paths := map[string]string{}
	for _, side := range []string{"A", "B"} {
		body, err := synth.HostileBody(shape, size, side == "B")
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.json", shape, size, side))
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		paths[side] = p
	}
	paths["OUT"] = filepath.Join(dir, "out.json")
	paths["ARCHIVE"] = filepath.Join(dir, "archive")
	out := make([]string, len(args))
	for i, a := range args {
		if p, ok := paths[a]; ok {
			a = p
		}
		out[i] = a
	}
	return out
}

// TestScalingAllocations: for every command and hostile shape, 4N bytes
// of input allocate less than 5 times what N bytes do.
func TestScalingAllocations(t *testing.T) {
	const n = 128 << 10
	dir := t.TempDir()
	// A first run loads what every later run shares (vocabularies,
	// compiled schemas), so that it is not counted against N.
	for _, c := range scalingCommands {
		cmdAllocated(t, scalingArgs(t, dir, "dash-run", 1<<10, c.args))
	}
	var table strings.Builder
	for _, shape := range synth.Hostile {
		for _, c := range scalingCommands {
			small := cmdAllocated(t, scalingArgs(t, dir, shape, n, c.args))
			large := cmdAllocated(t, scalingArgs(t, dir, shape, 4*n, c.args))
			ratio := float64(large) / float64(max(small, 1))
			fmt.Fprintf(&table, "%-15s %-26s %10d → %11d B  ×%.2f\n", shape, c.name, small, large, ratio)
			if ratio > 5 {
				t.Errorf("%s, %s: %d bytes allocated at %d bytes of input, %d at 4× (×%.1f)", shape, c.name, small, n, large, ratio)
			}
		}
	}
	t.Logf("allocation at N = %d and 4N bytes of input:\n%s", n, table.String())
}
