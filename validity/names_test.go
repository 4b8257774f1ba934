package validity

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestNamePatterns: each written-out tool-name form accepts exactly what
// the provider's documented expression accepts.
func TestNamePatterns(t *testing.T) {
	alphabet := "aZ09_-.:/ é\n\x00\xff"
	r := rand.New(rand.NewPCG(1, 1))
	names := []string{"", "a", "get_weather", "ns.tool:v1", "1tool", "-tool", ".x", "_x", "a b", "é", "tool\n", strings.Repeat("a", 64), strings.Repeat("a", 65),
		strings.Repeat("b", 128), strings.Repeat("b", 129), strings.Repeat("c", 256), strings.Repeat("c", 257), strings.Repeat("é", 40)}
	for len(names) < 3000 {
		var b strings.Builder
		for n := r.IntN(8); n > 0; n-- {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		if r.IntN(10) == 0 {
			b.WriteString(strings.Repeat("x", 60+r.IntN(200)))
		}
		names = append(names, b.String())
	}
	for _, p := range []*namePattern{openAIName, geminiName, mistralName} {
		re := regexp.MustCompile(p.String())
		for _, name := range names {
			if got, want := p.MatchString(name), re.MatchString(name); got != want {
				t.Errorf("%s on %q: %v, the expression says %v", p, name, got, want)
			}
		}
	}
}
