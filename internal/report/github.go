package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// writeGitHub writes one GitHub Actions workflow command per finding,
// `::error file=F,line=L,col=C,title=RULE::message` (`::warning` and
// `::notice` for the lower severities), then the summary line. The runner
// reads `%`, CR and LF as escapes in the message, and also `:` and `,` in
// property values, so they are escaped. Lines are concatenated, never used
// as a format string, so a `%25` in a message stays as it is.
func writeGitHub(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		bw.WriteString(annotation(d))
		bw.WriteByte('\n')
	}
	if s := summaryLine(r); s != "" && !opts.Quiet {
		bw.WriteString(s)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// annotation renders one workflow command.
func annotation(d Diagnostic) string {
	cmd := "notice"
	switch d.Severity {
	case rules.Error:
		cmd = "error"
	case rules.Warning:
		cmd = "warning"
	}
	var props []string
	if d.File != "" {
		props = append(props, "file="+escapeProperty(d.File))
		if d.Line > 0 {
			props = append(props, "line="+strconv.Itoa(d.Line), "col="+strconv.Itoa(d.Column))
		}
	}
	props = append(props, "title="+escapeProperty(d.Rule))
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + escapeData(plainMessage(d))
}

// plainMessage is the message with what the location fields cannot carry:
// the capture's pointer, and the capture's name when its file is unknown.
func plainMessage(d Diagnostic) string {
	if d.Capture == "" {
		return d.Message
	}
	prefix := ""
	if d.File == "" {
		prefix = d.Capture + ": "
	}
	if d.Pointer != "" {
		prefix += d.Pointer + ": "
	}
	return prefix + d.Message
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeData escapes a workflow command's message: the controls as
// escape.Lines shows them (the log would act on colours and other escape
// sequences), then the runner's own escapes.
func escapeData(s string) string { return dataEscaper.Replace(escape.Lines(s)) }

// escapeProperty escapes a workflow command's property value, one line.
func escapeProperty(s string) string { return propertyEscaper.Replace(escape.Text(s)) }
