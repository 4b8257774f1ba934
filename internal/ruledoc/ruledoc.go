// Package ruledoc renders the documentation of a rule from its value: the
// title, what it checks, why, an example, its options and the version
// that introduced it. `skillopt rules ID` prints it and docs/rules/ holds
// it as Markdown; both come from here.
//
// The examples are not written by hand: the tests of this package take
// each rule's first test case where it fires (testdata/rules/ID/) and keep
// an excerpt of its input with what the rule reported or changed in
// examples.json, which the program embeds. `go test ./internal/ruledoc
// -update` regenerates it and docs/rules/.
package ruledoc

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// Example shows a rule at work on one of its test cases.
type Example struct {
	// Case is the case's folder, testdata/rules/ID/CASE.
	Case string `json:"case"`
	// Where says what Input is an excerpt of ("input.json at /tools/0").
	Where string `json:"where"`
	// Input is the excerpt of the case's input; empty when Output, a
	// diff, shows the input around what changed.
	Input string `json:"input,omitempty"`
	// Lang is the Markdown language of Input ("json", "markdown").
	Lang string `json:"lang,omitempty"`
	// Result says what Output is ("reports", "changes it").
	Result string `json:"result"`
	// Output is what the rule reported (its diagnostics), or the diff of
	// what it changed.
	Output string `json:"output"`
}

//go:embed examples.json
var examplesJSON []byte

var examples = sync.OnceValues(func() (map[string]*Example, error) {
	m := map[string]*Example{}
	if err := json.Unmarshal(examplesJSON, &m); err != nil {
		return nil, fmt.Errorf("ruledoc: examples.json: %w", err)
	}
	return m, nil
})

// ExampleOf returns the generated example of a rule, nil when it has none
// (invariants, which check the engine's own results, have no input case).
func ExampleOf(id string) *Example {
	m, err := examples()
	if err != nil {
		panic(err) // embedded and tested: only a broken build gets here
	}
	return m[id]
}

// Page is the documentation of one rule.
type Page struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Title    string         `json:"title"`
	Summary  string         `json:"summary"`
	Doc      string         `json:"doc"`
	Why      string         `json:"why"`
	Since    string         `json:"since"`
	Options  []rules.Option `json:"options,omitempty"`
	Requires []string       `json:"requires,omitempty"`
	Lossy    bool           `json:"lossy,omitempty"`
	Example  *Example       `json:"example,omitempty"`
}

// PageOf is the page of r, with the options the registry binds for it.
func PageOf(r *rules.Rule, options []rules.Option) Page {
	return Page{
		ID: r.ID, Name: r.Name, Kind: r.Kind.String(), Severity: r.Severity.String(),
		Title: r.Title, Summary: r.Summary(), Doc: r.Doc, Why: r.Why, Since: r.Since,
		Options: options, Requires: r.RequiredIDs(), Lossy: r.Engine.Lossy,
		Example: ExampleOf(r.ID),
	}
}

const lossyNote = "Lossy: it may remove content that it neither archives nor leaves in the request."

// noExample is said of a rule without an example case.
const noExample = "Invariants check what the transforms produced; they have no input of their own. Their tests are in the package of their family."

// Markdown renders the page with its title at the given heading level
// (1 for a page of its own, 2 inside a list of rules).
func (p Page) Markdown(level int) string {
	h := strings.Repeat("#", level)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s `%s`: %s\n\n", h, p.ID, p.Name, p.Title)
	fmt.Fprintf(&b, "Kind: %s. Default severity: %s. Since: %s.", p.Kind, p.Severity, p.Since)
	if len(p.Requires) > 0 {
		fmt.Fprintf(&b, " Requires: %s.", strings.Join(p.Requires, ", "))
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "%s# What it checks\n\n%s\n\n", h, p.Doc)
	if p.Lossy {
		b.WriteString(lossyNote + "\n\n")
	}
	fmt.Fprintf(&b, "%s# Why\n\n%s\n\n", h, p.Why)
	fmt.Fprintf(&b, "%s# Example\n\n", h)
	if e := p.Example; e != nil {
		if e.Input != "" {
			fmt.Fprintf(&b, "From the test case `%s`, %s:\n\n", e.Case, e.Where)
			b.WriteString(fence(e.Input, e.Lang))
			fmt.Fprintf(&b, "\nThe rule %s:\n\n", e.Result)
		} else {
			fmt.Fprintf(&b, "On the test case `%s` (%s), the rule %s:\n\n", e.Case, e.Where, e.Result)
		}
		lang := ""
		if strings.HasPrefix(e.Result, "changes") {
			lang = "diff"
		}
		b.WriteString(fence(e.Output, lang))
		b.WriteString("\n")
	} else {
		b.WriteString(noExample + "\n\n")
	}
	if len(p.Options) > 0 {
		fmt.Fprintf(&b, "%s# Options\n\n| option | default | meaning |\n| --- | --- | --- |\n", h)
		for _, o := range p.Options {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.Name(), o.Default, o.Doc)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// fence puts text in a Markdown code block whose fence no line of it
// closes.
func fence(text, lang string) string {
	f := "```"
	for strings.Contains(text, f) {
		f += "`"
	}
	return f + lang + "\n" + strings.TrimSuffix(text, "\n") + "\n" + f + "\n"
}

// Text writes the page for a terminal, its prose folded to width columns.
func (p Page) Text(w io.Writer, width int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", p.ID, p.Name, p.Title)
	fmt.Fprintf(&b, "%s, default severity %s, since %s", p.Kind, p.Severity, p.Since)
	if len(p.Requires) > 0 {
		fmt.Fprintf(&b, ", requires %s", strings.Join(p.Requires, ", "))
	}
	b.WriteString("\n\nWhat it checks\n")
	b.WriteString(escape.Wrap("  ", p.Doc, width) + "\n")
	if p.Lossy {
		b.WriteString(escape.Wrap("  ", lossyNote, width) + "\n")
	}
	b.WriteString("\nWhy\n")
	b.WriteString(escape.Wrap("  ", p.Why, width) + "\n")
	b.WriteString("\nExample\n")
	if e := p.Example; e != nil {
		if e.Input != "" {
			fmt.Fprintf(&b, "  %s, %s:\n", e.Case, e.Where)
			b.WriteString(indent(escape.Lines(e.Input), "    "))
			fmt.Fprintf(&b, "  the rule %s:\n", e.Result)
		} else {
			fmt.Fprintf(&b, "  on %s (%s), the rule %s:\n", e.Case, e.Where, e.Result)
		}
		b.WriteString(indent(escape.Lines(e.Output), "    "))
	} else {
		b.WriteString(escape.Wrap("  ", noExample, width) + "\n")
	}
	if len(p.Options) > 0 {
		b.WriteString("\nOptions\n")
		for _, o := range p.Options {
			fmt.Fprintf(&b, "  %s (default %s)\n", o.Name(), o.Default)
			b.WriteString(escape.Wrap("      ", o.Doc, width) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func indent(text, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

// Index is docs/rules/README.md: every rule with its title, and the lossy
// ones.
func Index(pages []Page) string {
	var b strings.Builder
	b.WriteString("# Rules\n\nGenerated from the rule values and their test cases; do not edit (`go test ./internal/ruledoc -update`).\n\n| ID | name | kind | severity | title |\n| --- | --- | --- | --- | --- |\n")
	for _, p := range pages {
		fmt.Fprintf(&b, "| [%s](%s.md) | `%s` | %s | %s | %s |\n", p.ID, p.ID, p.Name, p.Kind, p.Severity, p.Title)
	}
	b.WriteString("\n## Lossy rules\n\nThese transforms may remove content that they neither archive nor leave in the request; every other transform keeps what it removes (in the archive, or elsewhere in the request), and the engine drops a step of one that does not.\n\n")
	for _, p := range pages {
		if p.Lossy {
			fmt.Fprintf(&b, "- [%s](%s.md) `%s`\n", p.ID, p.ID, p.Name)
		}
	}
	return b.String()
}
