package ruledoc

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	pages := []Page{{ID: "SO101", Name: "compact-index", Kind: "transform", Severity: "info", Summary: "a compact index"},
		{ID: "SO102", Name: "tag-directory", Kind: "transform", Severity: "info", Summary: "a tag directory"}}
	write := func(pages []Page, format string, explain bool) string {
		var b strings.Builder
		if err := Write(&b, pages, format, explain, 78); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	table := write(pages, "text", false)
	if lines := strings.Split(strings.TrimSpace(table), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") || !strings.HasPrefix(lines[1], "SO101  compact-index") {
		t.Errorf("table:\n%s", table)
	}
	// A list of one rule is a table; an explained rule is its page.
	if one := write(pages[:1], "text", false); !strings.HasPrefix(one, "ID ") {
		t.Errorf("a list of one:\n%s", one)
	}
	var b strings.Builder
	if err := pages[0].Text(&b, 78); err != nil {
		t.Fatal(err)
	}
	if got := write(pages[:1], "text", true); got != b.String() {
		t.Errorf("explained:\n%s\nwant\n%s", got, b.String())
	}
	var doc struct{ Rules []Page }
	if err := json.Unmarshal([]byte(write(pages, "json", true)), &doc); err != nil || len(doc.Rules) != 2 {
		t.Errorf("json: %v, %d rules", err, len(doc.Rules))
	}
	if md := write(pages, "markdown", false); md != pages[0].Markdown(2)+pages[1].Markdown(2) {
		t.Errorf("markdown:\n%s", md)
	}
}
