package reviewdiff

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	a := strings.Join([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}, "\n") + "\n"
	b := strings.Replace(strings.Replace(a, "2\n", "two\n", 1), "11\n", "", 1)
	got := unifiedDiff("a", "b", a, b, 2)
	want := "--- a\n+++ b\n@@ -1,4 +1,4 @@\n 1\n-2\n+two\n 3\n 4\n@@ -9,4 +9,3 @@\n 9\n 10\n-11\n 12\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if unifiedDiff("a", "b", a, a, 3) != "" {
		t.Fatal("equal texts gave a diff")
	}
	// Adjacent changes merge into one hunk.
	c := strings.Replace(strings.Replace(a, "3\n", "three\n", 1), "5\n", "five\n", 1)
	if n := strings.Count(unifiedDiff("a", "c", a, c, 2), "@@ -"); n != 1 {
		t.Fatalf("want one hunk, got %d", n)
	}
	// A missing final newline is a change of its own, marked as patch does.
	got = unifiedDiff("a", "b", "x\ny\n", "x\ny", 3)
	want = "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file\n"
	if got != want {
		t.Fatalf("missing final newline:\n%q\nwant\n%q", got, want)
	}
}
