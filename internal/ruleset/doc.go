package ruleset

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/skillopt/skillopt/rules"
)

// Doc is a rule's documentation as `skillopt rules` shows it and
// docs/rules holds it.
type Doc struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Summary  string         `json:"summary"`
	Doc      string         `json:"doc"`
	Options  []rules.Option `json:"options,omitempty"`
	Requires []string       `json:"requires,omitempty"`
	Lossy    bool           `json:"-"`
}

// DocOf is the documentation of r, its options as the registry binds them.
func DocOf(r *rules.Rule) Doc {
	return Doc{ID: r.ID, Name: r.Name, Kind: r.Kind.String(), Severity: r.Severity.String(), Summary: r.Summary(), Doc: r.Doc, Options: Registry().OptionsOf(r), Requires: r.RequiredIDs(), Lossy: r.Engine.Lossy}
}

// Markdown renders one rule's documentation page.
func (r Doc) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s `%s`\n\n", r.ID, r.Name)
	fmt.Fprintf(&b, "Kind: %s. Default severity: %s.\n\n%s\n\n", r.Kind, r.Severity, r.Doc)
	if r.Lossy {
		b.WriteString("Lossy: it may remove content that it neither archives nor leaves in the request.\n\n")
	}
	if len(r.Options) > 0 {
		fmt.Fprintf(&b, "| option | default | meaning |\n| --- | --- | --- |\n")
		for _, o := range r.Options {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.Name(), o.Default, o.Doc)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// WriteText writes one rule's documentation for a terminal: its ID, name,
// kind and severity, the documentation folded to 78 columns, its options.
func (r Doc) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s %s (%s, default severity %s)\n\n%s\n", r.ID, r.Name, r.Kind, r.Severity, wrap(r.Doc, 78))
	for _, o := range r.Options {
		fmt.Fprintf(w, "\noption %s (default %s): %s\n", o.Name(), o.Default, o.Doc)
	}
}

// WriteTable writes the rules as a table: ID, name, kind, severity and
// summary.
func WriteTable(w io.Writer, docs []Doc) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tSEVERITY\tSUMMARY")
	for _, r := range docs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Kind, r.Severity, r.Summary)
	}
	tw.Flush()
}

// wrap breaks text into lines of at most width columns.
func wrap(text string, width int) string {
	var out strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		if col > 0 && col+1+len(w) > width {
			out.WriteByte('\n')
			col = 0
		} else if col > 0 {
			out.WriteByte(' ')
			col++
		}
		out.WriteString(w)
		col += len(w)
	}
	return out.String()
}
