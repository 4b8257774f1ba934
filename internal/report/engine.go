package report

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// EngineNotes writes what the pipeline reported while it ran (dropped
// transforms, originals kept) one diagnostic after the other, as
// "skillopt: CAPTURE: RULE SEVERITY: message"; notes are prose, wrapped to
// width. Quiet keeps warnings and errors only.
func EngineNotes(w io.Writer, results []*rules.Result, quiet bool, width int) {
	for _, res := range results {
		for _, d := range res.Diagnostics {
			if quiet && d.Severity < rules.Warning {
				continue
			}
			prefix := fmt.Sprintf("skillopt: %s: %s %s: ", escape.Text(d.Capture), d.Rule, d.Severity)
			if d.Severity == rules.Info {
				fmt.Fprintln(w, escape.Wrap(prefix, d.Message, width))
				continue
			}
			fmt.Fprintf(w, "%s%s\n", prefix, escape.Text(d.Message))
		}
	}
}
