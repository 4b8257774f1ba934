package ruledoc

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

func samplePage(e *Example) Page {
	r := &rules.Rule{ID: "SO999", Name: "request.sample", Kind: rules.Check, Severity: rules.Warning,
		Title: "A sample", Doc: "Finds a sample. More about it.", Why: "Samples cost.", Since: "9.9.9"}
	p := PageOf(r, []rules.Option{{Section: "validity", Key: "limit", Doc: "How many.", Default: "3"}})
	p.Example = e
	return p
}

func TestPageSections(t *testing.T) {
	e := &Example{Case: "testdata/rules/SO999/one", Where: "input.json at /tools", Input: "[\n  1\n]\n", Lang: "json", Result: "reports", Output: "warning /tools/0: a sample\n"}
	for name, tc := range map[string]struct {
		page Page
		want []string
	}{
		"markdown with example":    {samplePage(e), []string{"# SO999 `request.sample`: A sample\n", "Since: 9.9.9.", "## What it checks\n\nFinds a sample. More about it.\n", "## Why\n\nSamples cost.\n", "## Example\n\nFrom the test case `testdata/rules/SO999/one`, input.json at /tools:\n\n```json\n[\n  1\n]\n```\n", "The rule reports:\n\n```\nwarning /tools/0: a sample\n```\n", "| `validity.limit` | `3` | How many. |"}},
		"markdown without example": {samplePage(nil), []string{"## Example\n\n" + noExample}},
	} {
		got := tc.page.Markdown(1)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", name, w, got)
			}
		}
	}
	var b strings.Builder
	if err := samplePage(e).Text(&b, 60); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"SO999 request.sample: A sample\ncheck, default severity warning, since 9.9.9\n", "\nWhat it checks\n  Finds a sample.", "\nWhy\n  Samples cost.\n", "\nExample\n  testdata/rules/SO999/one, input.json at /tools:\n    [\n      1\n    ]\n  the rule reports:\n    warning /tools/0: a sample\n", "\nOptions\n  validity.limit (default 3)\n      How many.\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, b.String())
		}
	}
}

// A fence is longer than any run of backticks in the text it holds.
func TestFence(t *testing.T) {
	got := fence("a ``` b\n", "")
	if !strings.HasPrefix(got, "````\n") || !strings.HasSuffix(got, "\n````\n") {
		t.Errorf("fence: %q", got)
	}
}

func TestEmbeddedExamples(t *testing.T) {
	if _, err := examples(); err != nil {
		t.Fatal(err)
	}
}
