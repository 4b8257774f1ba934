package ruleset

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "regenerate docs/rules from the rule values")

// TestRuleDocs keeps docs/rules/<ID>.md in step with the documentation on
// the rule values (go test ./internal/ruleset -update-docs regenerates them).
func TestRuleDocs(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "rules")
	want := map[string]string{}
	var index strings.Builder
	index.WriteString("# Rules\n\nGenerated from the rule values; do not edit (`go test ./internal/ruleset -update-docs`).\n\n| ID | name | kind | severity | summary |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range All() {
		row := DocOf(r)
		want[r.ID+".md"] = "# " + strings.TrimPrefix(row.Markdown(), "## ")
		index.WriteString("| [" + r.ID + "](" + r.ID + ".md) | `" + r.Name + "` | " + row.Kind + " | " + row.Severity + " | " + row.Summary + " |\n")
	}
	index.WriteString("\n## Lossy rules\n\nThese transforms may remove content that they neither archive nor leave in the request; every other transform keeps what it removes (in the archive, or elsewhere in the request), and the engine drops a step of one that does not.\n\n")
	for _, r := range All() {
		if r.Engine.Lossy {
			index.WriteString("- [" + r.ID + "](" + r.ID + ".md) `" + r.Name + "`\n")
		}
	}
	want["README.md"] = index.String()
	if *updateDocs {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range want {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(want) {
		t.Errorf("docs/rules has %d files, want %d (go test ./internal/ruleset -update-docs)", len(entries), len(want))
	}
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != text {
			t.Errorf("docs/rules/%s is out of date (go test ./internal/ruleset -update-docs)", name)
		}
	}
}
