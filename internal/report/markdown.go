package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/escape"
)

// writeMarkdown writes the report for a pull-request comment: a heading,
// the summary, the captures with a schema verdict, and a table of the
// findings. Every row stays on one line (GitHub turns line breaks into
// hard breaks), and text from inputs is escaped so that it renders as
// itself.
func writeMarkdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### %s %s\n\n", r.Tool, escape.Markdown(r.Command))
	if s := summaryLine(r); s != "" {
		fmt.Fprintf(bw, "%s\n\n", escape.Markdown(s))
	}
	if r.Incomplete {
		bw.WriteString("**Incomplete:** some inputs could not be read or checked; the findings cover the others.\n\n")
	}
	verdicts := false
	for _, in := range r.Inputs {
		verdicts = verdicts || in.Valid != nil
	}
	if verdicts {
		bw.WriteString("| capture | provider | schema |\n| --- | --- | --- |\n")
		for _, in := range r.Inputs {
			if in.Valid == nil {
				continue
			}
			verdict := "invalid"
			if *in.Valid {
				verdict = "valid"
			}
			fmt.Fprintf(bw, "| %s | %s | %s |\n", escape.MarkdownCode(in.Name), escape.Markdown(in.Provider), verdict)
		}
		bw.WriteString("\n")
	}
	if len(r.Diagnostics) == 0 {
		bw.WriteString("No findings.\n")
		return bw.Flush()
	}
	bw.WriteString("| severity | rule | where | message |\n| --- | --- | --- | --- |\n")
	for _, d := range r.Diagnostics {
		place := escape.MarkdownCode(where(d))
		if d.Capture != "" && d.Line > 0 && !d.Exact {
			place += " (in the string holding the body)"
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", d.Severity, escape.MarkdownCode(d.Rule), place, escape.Markdown(d.Message))
	}
	return bw.Flush()
}
