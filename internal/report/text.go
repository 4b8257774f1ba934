package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// ANSI colours of the text format.
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
	bold   = "1"
)

// writeText writes one finding per line, `PLACE: [POINTER: ]RULE severity:
// message`, where PLACE is file:line:col (or the capture's name when its
// position is unknown); then the summary line. Captures with a schema
// verdict (validate) get a line of their own, their findings indented
// below it. A validation of several captures lists only the problems:
// invalid captures and warnings, not valid captures or info notes, which
// the summary line counts.
func writeText(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	paint := opts.paint
	finding := func(indent string, d Diagnostic) {
		sev := d.Severity.String()
		switch d.Severity {
		case rules.Error:
			sev = paint(red, sev)
		case rules.Warning:
			sev = paint(yellow, sev)
		default:
			sev = paint(cyan, sev)
		}
		place := escape.Text(where(d))
		if place != "" {
			place = paint(bold, place) + ": "
		}
		mark := ""
		if d.Fix == "safe" {
			mark = " " + paint(cyan, "[*]")
		}
		fmt.Fprintf(bw, "%s%s%s %s: %s%s\n", indent, place, paint(bold, escape.Text(d.Rule)), sev, escape.Text(d.Message), mark)
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
		name := escape.Text(in.Name)
		if *in.Valid {
			if !problemsOnly {
				fmt.Fprintf(bw, "%s: %s (%s)\n", name, paint(green, "valid "+escape.Text(in.Provider)), escape.Text(in.Reason))
			}
			continue
		}
		listed[in.Name] = true
		ds := byCapture[in.Name]
		fmt.Fprintf(bw, "%s: %s (%s), %d error(s)\n", name, paint(red, "invalid "+escape.Text(in.Provider)), escape.Text(in.Reason), len(ds))
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

// paint wraps s in an ANSI colour when the options ask for colour.
func (o Options) paint(code, s string) string {
	if !o.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
