package measure

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// OutputReport details what the output and history rules (SO3xx) do to a
// capture: which tool results they replaced, with what, and what each rule
// saved. Under measure nothing is archived; handles are the digests the
// originals would be stored under.
type OutputReport struct {
	// ToolResults and ToolResultBytes describe the tool results as read.
	ToolResults     int `json:"tool_results"`
	ToolResultBytes int `json:"tool_result_bytes"`
	// Replaced counts the values (tool results, assistant texts, history
	// arrays) the rules replaced.
	Replaced int `json:"replaced"`
	// Recovery counts the recovery texts in the result by kind: the line
	// reducer's name for reduced results, "columnar", "duplicate",
	// "overflow", "history".
	Recovery map[string]int `json:"recovery"`
	// Handles is the number of distinct archived originals the result
	// names.
	Handles int `json:"handles"`
	// RetrieveToolBytes is what the retrieve_output declaration added.
	RetrieveToolBytes int                `json:"retrieve_tool_bytes"`
	Rules             []OutputRuleSaving `json:"rules"`
}

// OutputRuleSaving is what one output or history rule did.
type OutputRuleSaving struct {
	Rule        string  `json:"rule"`
	Name        string  `json:"name"`
	Applied     bool    `json:"applied"`
	Replaced    int     `json:"replaced"`
	BytesBefore int     `json:"bytes_before"`
	BytesAfter  int     `json:"bytes_after"`
	SavedBytes  int     `json:"saved_bytes"`
	SavedPct    float64 `json:"saved_pct"`
	Dropped     string  `json:"dropped,omitempty"`
}

// outputReport returns the output detail of a pipeline result, or nil when
// the pipeline has no output or history rule.
func outputReport(res *rules.Result, opts Options) *OutputReport {
	r := &OutputReport{Recovery: map[string]int{}, Rules: []OutputRuleSaving{}}
	for _, st := range res.Steps {
		if !strings.HasPrefix(st.Rule.ID, "SO3") {
			continue
		}
		s := OutputRuleSaving{Rule: st.Rule.ID, Name: st.Rule.Name, Applied: st.Applied, BytesBefore: st.BytesBefore, BytesAfter: st.BytesAfter, Dropped: st.Dropped}
		s.SavedBytes = st.BytesBefore - st.BytesAfter
		s.SavedPct = pct(s.SavedBytes, st.BytesBefore)
		for _, ch := range st.Changes {
			if ch.BytesBefore == 0 || strings.HasSuffix(ch.Pointer, "/-") {
				r.RetrieveToolBytes += ch.BytesAfter
				continue
			}
			s.Replaced++
		}
		r.Replaced += s.Replaced
		r.Rules = append(r.Rules, s)
	}
	if len(r.Rules) == 0 {
		return nil
	}
	for _, s := range res.Original.Segments() {
		if s.Kind == capture.SecToolResults {
			r.ToolResults++
			r.ToolResultBytes += s.End - s.Start
		}
	}
	handles := map[string]bool{}
	for _, t := range transform.RecoveryTexts(res.Final) {
		k := t.Kind
		if t.Reducer != "" {
			k = t.Reducer
		}
		r.Recovery[k]++
		handles[t.Handle] = true
	}
	r.Handles = len(handles)
	return r
}

// writeOutputText renders the output detail for a terminal.
func writeOutputText(w io.Writer, o *OutputReport) {
	if o == nil {
		return
	}
	fmt.Fprintf(w, "  output: %d tool result(s), %s; %d value(s) replaced, %d archived original(s)", o.ToolResults, Size(o.ToolResultBytes), o.Replaced, o.Handles)
	if len(o.Recovery) > 0 {
		fmt.Fprintf(w, " (%s)", recoveryList(o.Recovery))
	}
	if o.RetrieveToolBytes > 0 {
		fmt.Fprintf(w, "; retrieve_output declaration %s", Size(o.RetrieveToolBytes))
	}
	fmt.Fprintln(w)
	for _, s := range o.Rules {
		state := "applied"
		switch {
		case s.Dropped != "":
			state = "dropped: " + s.Dropped
		case !s.Applied:
			state = "nothing to do"
		}
		fmt.Fprintf(w, "    %s %-18s %3d replaced, %s saved (%.1f %%), %s\n", s.Rule, s.Name, s.Replaced, Thousands(s.SavedBytes), s.SavedPct, state)
	}
}

// writeOutputMarkdown renders the output detail as a Markdown list.
func writeOutputMarkdown(w io.Writer, o *OutputReport) {
	if o == nil {
		return
	}
	fmt.Fprintf(w, "- output: %d tool result(s), %s; %d value(s) replaced, %d archived original(s)", o.ToolResults, Size(o.ToolResultBytes), o.Replaced, o.Handles)
	if len(o.Recovery) > 0 {
		fmt.Fprintf(w, " (%s)", recoveryList(o.Recovery))
	}
	fmt.Fprintln(w)
}

func recoveryList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
