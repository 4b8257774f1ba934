package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/gctune"
)

// TestCollectorAsSkillopt: after reading a file the baseline runs with
// skillopt's one-pass settings for that size.
func TestCollectorAsSkillopt(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	path := filepath.Join(t.TempDir(), "c.json")
	body := `{"messages":[` + strings.Repeat(`{"role":"user","content":"hi"},`, 1000) + `{}]}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	gctune.Start()
	if code := run([]string{path}, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := debug.SetGCPercent(-1); got != gctune.SmallPercent {
		t.Errorf("GOGC %d, want %d", got, gctune.SmallPercent)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(3*len(body))+gctune.MemoryFloor; got != want {
		t.Errorf("memory limit %d, want %d", got, want)
	}
}

func TestUsageAndErrors(t *testing.T) {
	var stderr strings.Builder
	if code := run(nil, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
		t.Errorf("no argument: exit %d, %q", code, stderr.String())
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{bad}, io.Discard); code != 1 {
		t.Errorf("malformed JSON: exit %d, want 1", code)
	}
}
