package record

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/measure/units"
)

// WriteSummary prints what a run recorded: requests, the providers'
// token counts (input split into cached, written and uncached, and
// output), their cost from the price table, the cache hit rate and the
// command that measures the capture file at path.
func (s Stats) WriteSummary(w io.Writer, path string) {
	n := units.Thousands
	fmt.Fprintf(w, "recorded %d of %d request(s) to %s", s.Recorded, s.Requests, path)
	var notes []string
	if s.NotRecorded > 0 {
		notes = append(notes, fmt.Sprintf("%d without a JSON body or over %d MiB, forwarded only", s.NotRecorded, MaxRecordedBody>>20))
	}
	if s.UpstreamError > 0 {
		notes = append(notes, fmt.Sprintf("%d upstream error(s)", s.UpstreamError))
	}
	if s.Aborted > 0 {
		notes = append(notes, fmt.Sprintf("%d ended by the client", s.Aborted))
	}
	for i, note := range notes {
		if i == 0 {
			fmt.Fprint(w, " (")
		} else {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprint(w, note)
		if i == len(notes)-1 {
			fmt.Fprint(w, ")")
		}
	}
	fmt.Fprintln(w)
	if s.WriteFailures > 0 {
		fmt.Fprintf(w, "  %d exchange(s) could not be written: %v\n", s.WriteFailures, s.WriteErr)
	}
	if s.WithUsage == 0 {
		fmt.Fprintln(w, "  no response reported usage")
	} else {
		fmt.Fprintf(w, "  provider usage of %d response(s): input %s (cached %s, written %s, uncached %s), output %s\n",
			s.WithUsage, n(s.Input), n(s.Cached), n(s.Written), n(s.Uncached), n(s.Output))
		if s.Input > 0 {
			fmt.Fprintf(w, "  cache hit rate: %.1f %% of input tokens read from the cache\n", 100*float64(s.Cached)/float64(s.Input))
		}
		switch {
		case s.Priced == 0:
			fmt.Fprintln(w, "  cost: unknown (no model of the price table)")
		case s.Priced < s.WithUsage:
			fmt.Fprintf(w, "  cost: $%.4f for %d of them (the other models have no price)\n", s.Cost, s.Priced)
		default:
			fmt.Fprintf(w, "  cost: $%.4f (price table)\n", s.Cost)
		}
	}
	if s.Recorded > 0 {
		fmt.Fprintf(w, "measure it: skillopt measure --conversation %s\n", path)
	}
}
