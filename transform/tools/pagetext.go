package tools

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/escape"
)

// WriteText writes a page Probe returned, for the capture named name, as
// `skillopt tools search` shows it: what matched, the tools ranked with
// their scores, what the deferral decided, what the page activates, what
// is declared then and the cursor of the next page. Text from the capture
// is escaped for a terminal.
func (p *Page) WriteText(w io.Writer, name string) {
	name = escape.Text(name)
	d := p.Deferral
	which := "deferred"
	if d.Decision != "defer" {
		which = "deferrable"
	}
	if p.Searched == 0 {
		fmt.Fprintf(w, "%s: no %s tools to search\n", name, which)
	} else {
		fmt.Fprintf(w, "%s: %q matches %d of %d %s tools\n", name, p.Query, p.Matches, p.Searched, which)
	}
	width := 0
	for _, t := range p.Tools {
		width = max(width, utf8.RuneCountInString(escape.Text(t.Name)))
	}
	for _, t := range p.Tools {
		n := escape.Text(t.Name)
		fmt.Fprintf(w, "  %s %8.3f\n", n+strings.Repeat(" ", max(width-utf8.RuneCountInString(n), 0)), t.Score)
	}
	switch d.Decision {
	case "defer":
		fmt.Fprintf(w, "deferral: defers %d of %d tools\n", d.Deferred, d.Deferred+d.Kept)
	default:
		fmt.Fprintf(w, "deferral: defers nothing (%s)\n", escape.Text(d.Reason))
	}
	if len(p.Activated) > 0 {
		fmt.Fprintf(w, "activates: %s\n", textList(p.Activated))
	}
	if d.Decision == "defer" {
		fmt.Fprintf(w, "declared after activation (%d): %s\n", len(p.Active), textList(p.Active))
	} else {
		fmt.Fprintf(w, "declared (%d): %s\n", len(p.Active), textList(p.Active))
	}
	if p.Cursor != nil {
		fmt.Fprintf(w, "next page: --cursor %s\n", escape.Text(*p.Cursor))
	}
}

// textList joins names from a capture with ", ", each escaped for one
// line of text.
func textList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = escape.Text(n)
	}
	return strings.Join(out, ", ")
}
