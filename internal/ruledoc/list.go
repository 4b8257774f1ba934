package ruledoc

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// Write writes pages as `skillopt rules` prints them: json (every page,
// {"rules": [...]}), markdown (every page under a level-2 heading), or
// text, where the page of a rule explained (explain, one page) is its
// whole documentation wrapped to width, and a list is a table of ID, name,
// kind, default severity and summary.
func Write(w io.Writer, pages []Page, format string, explain bool, width int) error {
	switch {
	case format == "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Rules []Page `json:"rules"`
		}{pages})
	case format == "markdown":
		for _, p := range pages {
			if _, err := fmt.Fprint(w, p.Markdown(2)); err != nil {
				return err
			}
		}
		return nil
	case explain && len(pages) == 1:
		return pages[0].Text(w, width)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tSEVERITY\tSUMMARY")
	for _, p := range pages {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Kind, p.Severity, p.Summary)
	}
	return tw.Flush()
}
