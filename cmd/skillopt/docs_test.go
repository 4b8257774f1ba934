package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/internal/ruleset"
)

// TestRuleDocs keeps docs/rules/<ID>.md in step with the documentation on
// the rule values (go test ./cmd/skillopt -update regenerates them).
func TestRuleDocs(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "rules")
	want := map[string][]byte{}
	var index strings.Builder
	index.WriteString("# Rules\n\nGenerated from the rule values; do not edit (`go test ./cmd/skillopt -update`).\n\n| ID | name | kind | severity | summary |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range ruleset.All() {
		row := rowOf(r)
		want[r.ID+".md"] = []byte("# " + strings.TrimPrefix(RuleMarkdown(row), "## "))
		index.WriteString("| [" + r.ID + "](" + r.ID + ".md) | `" + r.Name + "` | " + row.Kind + " | " + row.Severity + " | " + row.Summary + " |\n")
	}
	index.WriteString("\n## Lossy rules\n\nThese transforms may remove content that they neither archive nor leave in the request; every other transform keeps what it removes (in the archive, or elsewhere in the request), and the engine drops a step of one that does not.\n\n")
	for _, r := range ruleset.All() {
		if r.Engine.Lossy {
			index.WriteString("- [" + r.ID + "](" + r.ID + ".md) `" + r.Name + "`\n")
		}
	}
	want["README.md"] = []byte(index.String())
	golden.CheckDir(t, dir, want)
}
