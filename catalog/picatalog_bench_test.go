package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParsePiCatalog reads a Pi catalog of 10,000 skills (about
// 2.5 MB), a few descriptions with XML entities.
func BenchmarkParsePiCatalog(b *testing.B) {
	var t strings.Builder
	t.WriteString("<available_skills>\n")
	for i := range 10000 {
		desc := fmt.Sprintf("Use when the task needs tool %d: reads the project, runs the checks and reports what failed, with file and line, before anything is changed.", i)
		if i%50 == 0 {
			desc += " Handles &lt;html&gt; &amp; more."
		}
		fmt.Fprintf(&t, "  <skill>\n    <name>tool-%d-helper</name>\n    <description>%s</description>\n    <location>/home/u/.pi/skills/tool-%d/SKILL.md</location>\n  </skill>\n", i, desc, i)
	}
	t.WriteString("</available_skills>\n")
	text := t.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if n := len(ParsePiCatalog(text)); n != 10000 {
			b.Fatalf("%d skills", n)
		}
	}
}
