package unified

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

// reference is go-udiff's own unified writer over the same alignment: the
// output Diff must match byte for byte.
func reference(from, to, before, after string, context int) string {
	out, err := udiff.ToUnified(from, to, before, udiff.Lines(before, after), context)
	if err != nil {
		panic(err)
	}
	return out
}

func TestDiffCases(t *testing.T) {
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"into empty", "", "a\n", "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"},
		{"to empty", "a\n", "", "--- x\n+++ y\n@@ -1 +0,0 @@\n-a\n"},
		{"no final newline", "a\nb", "a\nc", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"newline added", "a", "a\n", "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Diff("x", "y", tc.before, tc.after, 3)
			if got != tc.want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, tc.want)
			}
			if ref := reference("x", "y", tc.before, tc.after, 3); got != ref {
				t.Errorf("Diff differs from go-udiff:\n%s\ngo-udiff:\n%s", got, ref)
			}
		})
	}
}

// TestDiffMatchesReference compares Diff with go-udiff on random edits of
// random texts, with every context size from 0 to 4: hunks that join and
// hunks that stay apart, changes at either end, last lines with and
// without a newline.
func TestDiffMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", "", "e f"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte('\n')
		}
		s := b.String()
		if r.IntN(4) == 0 && len(s) > 0 {
			s = s[:len(s)-1]
		}
		return s
	}
	for i := range 3000 {
		before := text(r.IntN(40))
		lines := Lines(before)
		for range r.IntN(6) {
			if len(lines) == 0 || r.IntN(3) == 0 {
				k := r.IntN(len(lines) + 1)
				lines = append(lines[:k], append([]string{words[r.IntN(len(words))] + "\n"}, lines[k:]...)...)
			} else {
				k := r.IntN(len(lines))
				lines = append(lines[:k], lines[k+1:]...)
			}
		}
		after := strings.Join(lines, "")
		ctx := i % 5
		if got, want := Diff("old", "new", before, after, ctx), reference("old", "new", before, after, ctx); got != want {
			t.Fatalf("context %d, %q -> %q:\n%s\ngo-udiff:\n%s", ctx, before, after, got, want)
		}
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd", 3)
	f.Add("", "x", 0)
	f.Add("x\ny\n", "", 1)
	f.Fuzz(func(t *testing.T, before, after string, ctx int) {
		ctx = ctx & 7
		if got, want := Diff("a", "b", before, after, ctx), reference("a", "b", before, after, ctx); got != want {
			t.Fatalf("%q -> %q (context %d):\n%s\ngo-udiff:\n%s", before, after, ctx, got, want)
		}
	})
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"a", []string{"a"}},
		{"a\n", []string{"a\n"}},
		{"a\n\nb", []string{"a\n", "\n", "b"}},
	} {
		got := Lines(tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// BenchmarkDiff times Diff and go-udiff's writer on texts of 10,000 and
// 40,000 lines where every other line changed.
func BenchmarkDiff(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		var x, y strings.Builder
		for i := range n {
			line := "line " + strings.Repeat("x", i%17) + "\n"
			x.WriteString(line)
			if i%2 == 0 {
				line = "changed " + line
			}
			y.WriteString(line)
		}
		before, after := x.String(), y.String()
		for _, impl := range []struct {
			name string
			diff func(from, to, before, after string, context int) string
		}{{"unified", Diff}, {"go-udiff", reference}} {
			b.Run(impl.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.diff("a", "b", before, after, 3)
				}
			})
		}
	}
}
