package schemas

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// classRunExprs are expressions of the shape classRun matches, besides
// the schemas' own, and some of other shapes it must leave to regexp.
var classRunExprs = []string{
	`^[a-z]{2,4}$`, `^x[^a-c]*$`, `^[0-9]?$`, `^pre_[\p{L}]{1,3}$`, `^[a-zA-Z0-9_-]{0,}$`, `^(?:[ab])+$`, `^[a-z]+?$`,
	// Not of the shape:
	`\S`, `^[a-z]+`, `[a-z]+$`, `^(?i)abc[a-z]+$`, `^[a-z]+[0-9]+$`, `^a|b$`, `^$`, `^[a-z]+\z`, `(?m)^[a-z]+$`,
}

// schemaPatterns returns the patterns of the embedded schemas.
func schemaPatterns(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.schema.json")
	if err != nil || len(paths) == 0 {
		t.Fatal("no schemas", err)
	}
	re := regexp.MustCompile(`"pattern": *"((?:[^"\\]|\\.)*)"`)
	var out []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			out = append(out, strings.ReplaceAll(m[1], `\\`, `\`))
		}
	}
	return out
}

// TestClassRunIsRegexp compares the class-run match with package regexp
// on every schema pattern and the expressions above, for random strings
// around the bounds: ASCII, other scripts, bytes that are not UTF-8.
func TestClassRunIsRegexp(t *testing.T) {
	exprs := append(schemaPatterns(t), classRunExprs...)
	alphabet := []string{"a", "b", "z", "A", "Z", "0", "9", "_", "-", ":", ".", "/", " ", "\n", "é", "ж", "\xff", "\xe2\x82", "srvtoolu_", "tunnel_", "pre_", "x", "skillopt-tags/"}
	r := rand.New(rand.NewPCG(13, 14))
	fast := 0
	for _, expr := range exprs {
		want := regexp.MustCompile(expr)
		m, ok := compileClassRun(expr)
		if !ok {
			continue
		}
		fast++
		for range 3000 {
			var b strings.Builder
			for range r.IntN(40) + r.IntN(2)*r.IntN(300) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			s := b.String()
			if got := m.matchString(s); got != want.MatchString(s) {
				t.Fatalf("%s on %q: %v, regexp says %v", expr, s, got, !got)
			}
		}
		// The bounds themselves.
		for n := max(m.min-1, 0); n <= m.min+1 || m.max >= 0 && n <= m.max+1 && n < 400; n++ {
			s := m.prefix + strings.Repeat(string(m.ranges[0]), n)
			if got := m.matchString(s); got != want.MatchString(s) {
				t.Fatalf("%s on %d runes: %v, regexp says %v", expr, n, got, !got)
			}
		}
	}
	if fast < 10 {
		t.Fatalf("only %d expressions of the shape", fast)
	}
	for _, expr := range []string{`\S`, `^[a-z]+`, `^(?i)abc[a-z]+$`, `^[a-z]+[0-9]+$`, `(?m)^[a-z]+$`} {
		if _, ok := compileClassRun(expr); ok {
			t.Errorf("%s taken for a class run", expr)
		}
	}
}

// FuzzClassRun: on any string, the class-run match of each expression of
// the shape says what package regexp says.
func FuzzClassRun(f *testing.F) {
	exprs := append([]string{`^srvtoolu_[a-zA-Z0-9_]+$`, `^[a-zA-Z0-9_-]{1,128}$`, `^[a-zA-Z0-9_:.-]{1,128}$`, `^tunnel_[a-z0-9]{32}$`, `^[a-z][a-z-]*$`}, classRunExprs...)
	for _, s := range []string{"", "srvtoolu_x", "abc", "é", "\xff", "tunnel_0123456789abcdef0123456789abcdef"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, expr := range exprs {
			m, ok := compileClassRun(expr)
			if !ok {
				continue
			}
			if got, want := m.matchString(s), regexp.MustCompile(expr).MatchString(s); got != want {
				t.Fatalf("%s on %q: %v, regexp says %v", expr, s, got, want)
			}
		}
	})
}
