package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateFile: a missing state file is an empty state; a saved one reads
// back, its folder created; a malformed one is an error, left as it is.
func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "state.json")
	st, err := LoadState(path)
	if err != nil || len(st.LastAlert) != 0 {
		t.Fatalf("missing file: %v, %v", st, err)
	}
	want := State{LastAlert: map[string]time.Time{"a": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	if err := SaveState(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadState(path)
	if err != nil || !got.LastAlert["a"].Equal(want.LastAlert["a"]) || len(got.LastAlert) != 1 {
		t.Fatalf("read back %v, %v", got, err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"version":2,"last_alert":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadState(bad); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("malformed state: %v", err)
	}
	if data, _ := os.ReadFile(bad); string(data) != `{"version":2,"last_alert":{}}` {
		t.Errorf("malformed state rewritten: %s", data)
	}
}
