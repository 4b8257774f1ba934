// Package golden is the one switch for every golden and generated file the
// tests compare with: `go test ./... -update` rewrites them all (then
// review the diff); without it the tests compare and fail on drift.
//
// The flag is registered once, here. `go test` passes -update to every
// test binary it runs and a binary that does not define the flag fails, so
// every package with tests imports this one (a blank import where it holds
// no golden file); internal/archtest checks that none is missing. Only
// tests import it: a program importing it would grow an -update flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/unified"
)

var update = flag.Bool("update", false, "rewrite the golden and generated files the tests compare with")

// Update reports whether the tests run with -update: they write what they
// produce instead of comparing it.
func Update() bool { return *update }

// maxDiffLines bounds the diff a failing Check prints.
const maxDiffLines = 60

// Check compares got with the file at path. With -update it writes the
// file instead (creating its folder), when its content differs.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *update {
		if err == nil && bytes.Equal(want, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Errorf("%v (go test -update writes it)", err)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s is out of date (go test -update rewrites it; review the diff):\n%s", path, Diff(path, want, got))
	}
}

// CheckDir compares the regular files directly in dir with files (names
// to contents): each must match, and dir holds no other. With -update it
// writes what differs and removes the files files does not name.
func CheckDir(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if _, ok := files[e.Name()]; ok {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if *update {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("%s is no longer generated (go test -update removes it)", path)
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		Check(t, filepath.Join(dir, name), files[name])
	}
}

// maxDiffBytes bounds the files Diff compares line by line.
const maxDiffBytes = 1 << 20

// Diff is the unified diff from want to got, cut after a few dozen lines;
// for large or binary files, only their sizes.
func Diff(name string, want, got []byte) string {
	if len(want) > maxDiffBytes || len(got) > maxDiffBytes || !utf8.Valid(want) || !utf8.Valid(got) {
		return fmt.Sprintf("%s: %d bytes, the test made %d bytes (not shown: large or binary)", name, len(want), len(got))
	}
	d := unified.Diff(name+" (want)", name+" (got)", string(want), string(got), 2)
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxDiffLines {
		lines = append(lines[:maxDiffLines], fmt.Sprintf("… %d more lines\n", len(lines)-maxDiffLines))
	}
	return strings.Join(lines, "")
}
