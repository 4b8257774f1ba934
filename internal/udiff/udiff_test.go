package udiff

import (
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	a := strings.Join([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}, "\n") + "\n"
	b := strings.Replace(strings.Replace(a, "2\n", "two\n", 1), "11\n", "", 1)
	got := Unified("a", "b", a, b, 2)
	want := "--- a\n+++ b\n@@ -1,4 +1,4 @@\n 1\n-2\n+two\n 3\n 4\n@@ -9,4 +9,3 @@\n 9\n 10\n-11\n 12\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if Unified("a", "b", a, a, 3) != "" {
		t.Fatal("equal texts gave a diff")
	}
	// Adjacent changes merge into one hunk.
	c := strings.Replace(strings.Replace(a, "3\n", "three\n", 1), "5\n", "five\n", 1)
	if n := strings.Count(Unified("a", "c", a, c, 2), "@@ -"); n != 1 {
		t.Fatalf("want one hunk, got %d", n)
	}
	// Insertion into empty text.
	if got := Unified("a", "b", "", "x\n", 3); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("insert: %q", got)
	}
}
