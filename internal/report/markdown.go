package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes the report for a pull-request comment: a heading,
// the summary, the captures with a schema verdict, and a table of the
// findings. Every row stays on one line (GitHub turns line breaks into
// hard breaks), and text from inputs is escaped so that it renders as
// itself.
func writeMarkdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### %s %s\n\n", r.Tool, mdText(r.Command))
	if s := summaryLine(r); s != "" {
		fmt.Fprintf(bw, "%s\n\n", mdText(s))
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
			fmt.Fprintf(bw, "| %s | %s | %s |\n", mdCode(in.Name), mdText(in.Provider), verdict)
		}
		bw.WriteString("\n")
	}
	if len(r.Diagnostics) == 0 {
		bw.WriteString("No findings.\n")
		return bw.Flush()
	}
	bw.WriteString("| severity | rule | where | message |\n| --- | --- | --- | --- |\n")
	for _, d := range r.Diagnostics {
		place := mdCode(where(d))
		if d.Capture != "" && d.Line > 0 && !d.Exact {
			place += " (in the string holding the body)"
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", d.Severity, mdCode(d.Rule), place, mdText(d.Message))
	}
	return bw.Flush()
}

// mdText escapes text for a Markdown table cell: the characters that could
// start emphasis, code, links, HTML, entities, strikethrough, math or a
// cell break are backslash-escaped (with [ and ] escaped, parentheses and
// ! cannot form a link or image), and line breaks become spaces.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\r', '\n':
			b.WriteByte(' ')
			continue
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&', '$':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode renders s as a code span inside a table cell: a fence longer than
// any run of backticks in s, pipes escaped (GitHub splits cells before it
// reads code spans), line breaks as spaces.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`).Replace(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
