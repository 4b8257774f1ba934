package toolbench

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure/units"
)

// Report is the result of one benchmark run.
type Report struct {
	Rule     string `json:"rule"`
	RuleName string `json:"rule_name"`
	// Set is where the set came from: a folder or "built-in".
	Set     string      `json:"set"`
	Tools   int         `json:"tools"`
	Results []SetResult `json:"results"`
	Ranking Ranking     `json:"ranking"`
}

// SetResult is the run over one list of prompts.
type SetResult struct {
	// Name is "held-out" or "tuned".
	Name    string `json:"name"`
	Prompts int    `json:"prompts"`
	Rows    []Row  `json:"rows"`
}

// Names and descriptions of the prompt lists.
const (
	HeldOut = "held-out"
	Tuned   = "tuned"
)

var setNotes = map[string]string{
	HeldOut: "written and labelled without running them through the ranking",
	Tuned:   "the prompts the ranking was tuned on",
}

// WriteText writes the report as tables, one per prompt list, and with
// cases every prompt's outcome.
func WriteText(w io.Writer, r *Report, cases bool) error {
	fmt.Fprintf(w, "tool deferral (%s %s): %d tools (%s set)\n", r.Rule, r.RuleName, r.Tools, escape.Text(r.Set))
	for _, s := range r.Results {
		fmt.Fprintf(w, "\n%s prompts (%d, %s):\n", s.Name, s.Prompts, setNotes[s.Name])
		rows := [][]string{{"provider", "confident", "fail-open", "recall confident", "recall fail-open", "native", "initial", "saved", "activated", "searches", "failures", "larger", "plan µs"}}
		for _, r := range s.Rows {
			rows = append(rows, []string{r.Provider,
				fmt.Sprintf("%d (%.0f %%)", r.Confident, r.ConfidentPct), fmt.Sprint(r.FailOpen),
				recallCell(r.ConfidentRecall), recallCell(r.FailOpenRecall),
				units.Size(r.NativeBytes), units.Size(r.InitialBytes), fmt.Sprintf("%.1f %%", bench.Pct(r.NativeBytes-r.InitialBytes, r.NativeBytes)),
				units.Size(r.ActivatedBytes), fmt.Sprint(r.SearchCalls), fmt.Sprint(r.ActivationFailures), fmt.Sprint(r.Larger), fmt.Sprintf("%.0f", r.PlanMicros)})
		}
		if err := bench.WriteTable(w, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nrecall: labelled tools declared in the transformed request or returned by one search with the prompt as query\n")
	fmt.Fprintf(w, "planning one request over %d tools: %.0f µs cold (index built), %.0f µs warm (index cached)\n", r.Ranking.Tools, r.Ranking.ColdMicros, r.Ranking.WarmMicros)
	if !cases {
		return nil
	}
	for _, s := range r.Results {
		for _, row := range s.Rows {
			fmt.Fprintf(w, "\n%s, %s:\n", s.Name, row.Provider)
			for _, k := range row.Cases {
				state := fmt.Sprintf("deferred %d", k.Deferred)
				switch {
				case k.FailOpen:
					state = "fail open"
				case k.Deferred == 0:
					state = "kept all"
				}
				id := escape.Text(k.ID)
				fmt.Fprintf(w, "  %s%s %-12s tools %7s → %7s bytes  needed %d: kept %d, found %d", id, strings.Repeat(" ", max(22-utf8.RuneCountInString(id), 0)), state,
					units.Thousands(k.NativeBytes), units.Thousands(k.InitialBytes), k.Needed, k.Kept, k.Found)
				if len(k.Missing) > 0 {
					missing := make([]string, len(k.Missing))
					for i, m := range k.Missing {
						missing[i] = escape.Text(m)
					}
					fmt.Fprintf(w, ", missing %s", strings.Join(missing, ", "))
				}
				fmt.Fprintln(w)
			}
		}
	}
	return nil
}

// recallCell renders a recall as "97.6 % (40/41)", or "-" when no
// labelled tool counts.
func recallCell(r Recall) string {
	if r.Share == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f %% (%d/%d)", 100**r.Share, r.Recalled, r.Needed)
}
