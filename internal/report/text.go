package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/rules"
)

// ANSI colours of the text format.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
)

// OneLine escapes what could break a line of output or drive the
// terminal: the control characters but tab (line breaks, escape sequences,
// DEL and the C1 controls) as \n, \r or \xNN, and bytes that are not
// UTF-8 as \xNN. Every finding stays on its own line.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports the C0 controls but tab, DEL and the C1 controls.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\t') || (r >= 0x7f && r < 0xa0)
}

// writeText writes one finding per line, `PLACE: [POINTER: ]RULE severity:
// message`, where PLACE is file:line:col (or the capture's name when its
// position is unknown); then the summary line. Captures with a schema
// verdict (validate) get a line of their own, their findings indented
// below it. A validation of several captures lists only the problems:
// invalid captures and warnings, not valid captures or info notes, which
// the summary line counts.
func writeText(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	finding := func(indent string, d Diagnostic) {
		sev := d.Severity.String()
		switch d.Severity {
		case rules.Error:
			sev = paint(red, sev)
		case rules.Warning:
			sev = paint(yellow, sev)
		}
		place := OneLine(where(d))
		if place != "" {
			place += ": "
		}
		mark := ""
		if d.Fix == "safe" {
			mark = " [*]"
		}
		fmt.Fprintf(bw, "%s%s%s %s: %s%s\n", indent, place, OneLine(d.Rule), sev, OneLine(d.Message), mark)
	}
	byCapture := map[string][]Diagnostic{}
	for _, d := range r.Diagnostics {
		if d.Capture != "" {
			byCapture[d.Capture] = append(byCapture[d.Capture], d)
		}
	}
	listed := map[string]bool{}
	problemsOnly := opts.Quiet || r.Summary.Invalid != nil && val(r.Summary.Captures) > 1
	for _, in := range r.Inputs {
		if in.Valid == nil {
			continue
		}
		name := OneLine(in.Name)
		if *in.Valid {
			if !problemsOnly {
				fmt.Fprintf(bw, "%s: %s (%s)\n", name, paint(green, "valid "+OneLine(in.Provider)), OneLine(in.Reason))
			}
			continue
		}
		listed[in.Name] = true
		ds := byCapture[in.Name]
		fmt.Fprintf(bw, "%s: %s, %d error(s)\n", name, paint(red, "invalid "+OneLine(in.Provider)), len(ds))
		for _, d := range ds {
			finding("  ", d)
		}
	}
	for _, d := range r.Diagnostics {
		if d.Capture != "" && listed[d.Capture] {
			continue
		}
		if problemsOnly && d.Severity < rules.Warning {
			continue
		}
		finding("", d)
	}
	if s := summaryLine(r); s != "" && !opts.Quiet {
		if problemsOnly && r.Summary.Invalid != nil && r.Summary.Info > 0 {
			s += fmt.Sprintf("; %s not shown (validate one capture, or --format json, to see them)", plural(r.Summary.Info, "info note"))
		}
		fmt.Fprintln(bw, s)
	}
	return bw.Flush()
}
