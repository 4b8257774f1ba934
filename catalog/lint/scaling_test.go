package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
)

// A scaling shape is a hostile input grown along one dimension: n fields,
// n lines, a line n times as long, n links, n levels of nesting … Each
// must cost time and memory in proportion to n, in the checks and in the
// fixes alike.
type scalingShape struct {
	name string
	// files returns the tree for size n, paths relative to its root.
	files func(n int) map[string]string
}

const scalingHead = "---\nname: sk\ndescription: A skill. Use when testing.\n"

// repeat joins f(0) … f(n-1).
func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

func skillTree(text string) map[string]string { return map[string]string{"sk/SKILL.md": text} }

var scalingShapes = []scalingShape{
	{"fields", func(n int) map[string]string {
		return skillTree(scalingHead + repeat(n, func(i int) string { return fmt.Sprintf("field%d: v%d\n", i, i) }) + "---\n# T\n")
	}},
	{"fields-crlf", func(n int) map[string]string {
		return skillTree(strings.ReplaceAll(scalingHead, "\n", "\r\n") + repeat(n, func(i int) string { return fmt.Sprintf("field%d: v%d \r\n", i, i) }) + "---\r\n\r\n\r\n")
	}},
	{"duplicate-keys", func(n int) map[string]string {
		return skillTree(scalingHead + repeat(n, func(i int) string { return fmt.Sprintf("dup: %d\n", i) }) + "---\n")
	}},
	{"metadata-values", func(n int) map[string]string {
		return skillTree(scalingHead + "metadata:\n" + repeat(n, func(i int) string { return fmt.Sprintf("  k%d: %d\n", i, i) }) + "---\n")
	}},
	{"metadata-one-line", func(n int) map[string]string {
		return skillTree(scalingHead + "metadata: {" + repeat(n, func(i int) string { return fmt.Sprintf("k%d: %d, ", i, i) }) + "z: 1}\n---\n")
	}},
	{"nesting", func(n int) map[string]string {
		return skillTree(scalingHead + "deep: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\nmore: " + strings.Repeat("{a: ", n) + "b" + strings.Repeat("}", n) + "\n---\n")
	}},
	{"lines", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + repeat(n, func(i int) string { return fmt.Sprintf("line %d of text\n", i) }))
	}},
	{"long-line", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + strings.Repeat("word ", 2*n) + "\n")
	}},
	{"trailing-space", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + repeat(n, func(i int) string { return fmt.Sprintf("x %d \t\n", i) }) + strings.Repeat("\n", n))
	}},
	{"headings", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + repeat(n, func(i int) string { return fmt.Sprintf("## H%d\n\n", i) }))
	}},
	{"links", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + repeat(n, func(i int) string { return fmt.Sprintf("[l%d](ref%d.md) and `code` and [a\\](b)\n", i, i) }))
	}},
	{"links-one-line", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + strings.Repeat("[a](missing.md) `x` ", n) + "\n")
	}},
	{"code-spans-one-line", func(n int) map[string]string {
		// Runs of 1, 2, 3 … backticks, none closed: about 10n bytes.
		var b strings.Builder
		for k := 1; b.Len() < 10*n; k++ {
			b.WriteString(strings.Repeat("`", k) + " ")
		}
		return skillTree(scalingHead + "---\n[a](x.md) " + b.String() + " [b](y.md)\n")
	}},
	{"suppressions", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + repeat(n, func(i int) string {
			return fmt.Sprintf("[x](m%d.md) <!-- skillopt: disable-line=SK043 -->\n<!-- skillopt: disable=SK043 -->\n", i)
		}))
	}},
	{"suppressions-one-line", func(n int) map[string]string {
		return skillTree(scalingHead + "---\n" + strings.Repeat("<!-- skillopt: disable=SK043 --> [x](m.md) ", n) + "\n")
	}},
	{"agent-names", func(n int) map[string]string {
		return map[string]string{
			".pi/agents/a.md":      "---\nname: a\nskills: " + repeat(n, func(i int) string { return fmt.Sprintf("s%d,", i) }) + "last\nskillPath: skills\n---\nbody\n",
			".pi/agents/b.md":      "---\nname: b\nskills:\n" + repeat(n, func(i int) string { return fmt.Sprintf("  - s%d\n", i) }) + "---\nbody\n",
			"skills/s1/SKILL.md":   "---\nname: s1\ndescription: One.\n---\nx\n",
			".pi/agents/c.md":      "---\nname: c\nskills: [" + repeat(n, func(i int) string { return fmt.Sprintf("s%d, ", i%7) }) + "s1]\n---\nbody\n",
			"skills/bad/SKILL.md":  "---\nname: bad\n---\nx\n",
			"skills/dup1/SKILL.md": "---\nname: s2\ndescription: Two.\n---\nx\n",
			"skills/dup2/SKILL.md": "---\nname: s2\ndescription: Two.\n---\nx\n",
		}
	}},
	{"agent-paths", func(n int) map[string]string {
		tree := map[string]string{
			".pi/agents/a.md": "---\nname: a\nskills: [s1]\nskillPath:\n" + repeat(n, func(i int) string { return "  - ../../skills\n" }) + "---\nbody\n",
		}
		for i := range 20 {
			tree[fmt.Sprintf("skills/s%d/SKILL.md", i)] = fmt.Sprintf("---\nname: s%d\ndescription: Skill %d.\n---\nx\n", i, i)
		}
		return tree
	}},
}

func writeScalingTree(tb testing.TB, s scalingShape, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, text := range s.files(n) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// lintAndFix lints a tree and computes its fixes, unsafe ones included,
// as `skillopt lint --fix --unsafe-fixes` does before writing.
func lintAndFix(tb testing.TB, dir string) {
	tb.Helper()
	rep, err := run(tb, load(tb, ""), lint.Options{Paths: []string{dir}})
	if err != nil {
		tb.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		tb.Fatal(rep.Errors)
	}
	if _, err := rep.Fixes(lint.FixOptions{Unsafe: true}); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkLintScaling lints and fixes every scaling shape at n and 4n:
// the time per operation of the larger should be about four times the
// smaller's.
func BenchmarkLintScaling(b *testing.B) {
	for _, s := range scalingShapes {
		for _, n := range []int{5_000, 20_000} {
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				dir := writeScalingTree(b, s, n)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					lintAndFix(b, dir)
				}
			})
		}
	}
}

// allocated returns the bytes allocated while fn runs, the least of three
// runs: what the runtime or a lazy initialisation allocates meanwhile is
// not the input's.
func allocated(fn func()) uint64 {
	least := uint64(0)
	for i := range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; i == 0 || n < least {
			least = n
		}
	}
	return least
}

// Memory follows the size of the input: linting and fixing each scaling
// shape at 4n allocates less than 5 times what it does at n (4 times for
// linear work plus the fixed costs; a quadratic step would make it 16).
// Bytes allocated are a deterministic stand-in for the work done, unlike
// times.
func TestLintScalingAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("lints inputs of thousands of fields and lines")
	}
	// Sizes where the default is too small for a shape's costs to be in
	// proportion yet: the token count of SK041 allocates for pieces of 128
	// bytes or more, and at 1,500 few runs of backticks are that long.
	sizes := map[string]int{"code-spans-one-line": 6000}
	for _, s := range scalingShapes {
		n := 1500
		if m, ok := sizes[s.name]; ok {
			n = m
		}
		t.Run(s.name, func(t *testing.T) {
			// A first run loads what later runs share (the tokenizer,
			// compiled patterns).
			lintAndFix(t, writeScalingTree(t, s, 10))
			small, large := writeScalingTree(t, s, n), writeScalingTree(t, s, 4*n)
			a := allocated(func() { lintAndFix(t, small) })
			b := allocated(func() { lintAndFix(t, large) })
			ratio := float64(b) / float64(a)
			t.Logf("n=%d: %d bytes, 4n: %d bytes (%.2f×)", n, a, b, ratio)
			if ratio >= 5 {
				t.Errorf("4n allocates %.1f× what n does (%d and %d bytes): more than linear in n", ratio, b, a)
			}
		})
	}
}
