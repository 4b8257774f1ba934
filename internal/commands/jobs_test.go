package commands

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestJobsSameOutput: over the corpus's captures (plus one unreadable
// file), every command that processes captures in parallel writes the same
// bytes to stdout and stderr, and ends with the same exit code, with one
// worker and with several, in every format.
func TestJobsSameOutput(t *testing.T) {
	// Every fifth corpus file: all of its kinds, in a minute's fraction.
	var files []string
	for i, f := range corpusFiles(t) {
		if i%5 == 0 {
			files = append(files, f)
		}
	}
	broken := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(broken, []byte(`{"model": `), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(files[:len(files)/2]), broken)
	args = append(args, files[len(files)/2:]...)
	config := filepath.Join(t.TempDir(), "skillopt.toml")
	if err := os.WriteFile(config, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"validate", "--format", "text"},
		{"validate", "--format", "json"},
		{"validate", "--format", "sarif"},
		{"validate", "--format", "jsonl"},
		{"measure", "--encoding", "none", "--format", "text"},
		{"measure", "--format", "json"},
		{"measure", "--encoding", "none", "--format", "jsonl"},
		{"check", "--format", "text"},
		{"check", "--format", "jsonl"},
		{"measure", "--conversation", "--format", "json"},
		{"measure", "--conversation", "--format", "jsonl"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc, " "), func(t *testing.T) {
			var outs []string
			for _, jobs := range []int{1, 4} {
				words := append([]string{"skillopt"}, tc...)
				words = append(words, "--config", config, "--jobs", fmt.Sprint(jobs))
				words = append(words, args...)
				var out, errOut bytes.Buffer
				code := run(words, strings.NewReader(""), &out, &errOut)
				if code != 2 {
					t.Fatalf("--jobs %d: exit %d, want 2 for the unreadable file: %s", jobs, code, errOut.String())
				}
				if !strings.Contains(errOut.String(), "broken.json") {
					t.Fatalf("--jobs %d: the unreadable file is not named: %s", jobs, errOut.String())
				}
				if out.Len() == 0 {
					t.Fatalf("--jobs %d: no output", jobs)
				}
				outs = append(outs, fmt.Sprintf("exit %d\n%s\n-- stderr --\n%s", code, out.String(), errOut.String()))
			}
			if outs[0] != outs[1] {
				t.Fatalf("--jobs 1 and --jobs 4 differ:\n%s", firstDiff(outs[0], outs[1]))
			}
		})
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}

// TestLiveSize: the collector is paced by the largest inputs that may be
// under way at once, not by the sum of every input; directories and
// missing paths count nothing.
func TestLiveSize(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, n := range []int{10, 50, 20, 5} {
		p := filepath.Join(dir, fmt.Sprintf("c%d.json", i))
		if err := os.WriteFile(p, make([]byte, n), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	paths = append(paths, dir, filepath.Join(dir, "missing.json"))
	for _, tc := range []struct{ jobs, want int }{
		{1, 70},  // a window of two: 50 + 20
		{2, 85},  // a window of four: every file
		{16, 85}, // more room than files
	} {
		if got := liveSize(paths, tc.jobs); got != tc.want {
			t.Errorf("liveSize(jobs %d) = %d, want %d", tc.jobs, got, tc.want)
		}
	}
}
