package output

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// report is the "output" section of measure's report: which tool results
// the output and history rules (SO3xx) replaced, with what, and what each
// rule saved. Under measure nothing is archived; handles are the digests
// the originals would be stored under.
type report struct {
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
	RetrieveToolBytes int          `json:"retrieve_tool_bytes"`
	Rules             []ruleSaving `json:"rules"`
}

// ruleSaving is what one output or history rule did.
type ruleSaving struct {
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

// isOutputStep reports whether a step belongs to the family: the section
// covers every SO3xx step of the pipeline.
func isOutputStep(st rules.Step) bool { return strings.HasPrefix(st.Rule.ID, "SO3") }

// detail is the Detail of every SO3xx transform. The section describes
// them all, so only the first of them in the pipeline adds it.
func detail(in rules.DetailInput) (*rules.Detail, error) {
	for _, st := range in.Result.Steps {
		if isOutputStep(st) {
			if st.Rule != in.Rule {
				return nil, nil
			}
			break
		}
	}
	r := newReport(in.Result)
	if r == nil {
		return nil, nil
	}
	return &rules.Detail{Key: "output", Data: r}, nil
}

// newReport returns the output detail of a pipeline result, or nil when
// the pipeline has no output or history rule.
func newReport(res *rules.Result) *report {
	r := &report{Recovery: map[string]int{}, Rules: []ruleSaving{}}
	for _, st := range res.Steps {
		if !isOutputStep(st) {
			continue
		}
		s := ruleSaving{Rule: st.Rule.ID, Name: st.Rule.Name, Applied: st.Applied, BytesBefore: st.BytesBefore, BytesAfter: st.BytesAfter, Dropped: st.Dropped}
		s.SavedBytes = st.BytesBefore - st.BytesAfter
		s.SavedPct = units.Percent(s.SavedBytes, st.BytesBefore)
		for _, ch := range st.Changes {
			if isAddition(ch) {
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
	for _, t := range recoveryTexts(res.Final) {
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

// recoveryText is a provider-visible text an output or history rule left
// in a capture.
type recoveryText struct {
	Pointer string
	// Kind is "reduced", "columnar", "duplicate", "overflow" or "history".
	Kind string
	// Reducer names the line reducer of a reduced result.
	Reducer string
	Handle  string
}

// recoveryTexts lists the recovery texts of c in body order.
func recoveryTexts(c *capture.Capture) []recoveryText {
	var out []recoveryText
	for _, l := range labels(c) {
		rt := recoveryText{Pointer: l.pointer, Handle: l.handle}
		switch l.kind {
		case kindSmart:
			rt.Kind, rt.Reducer = "reduced", reduce.ReducerOf(l.text)
		case kindColumnar:
			rt.Kind = "columnar"
		case kindDuplicate:
			rt.Kind = "duplicate"
		case kindOverflow:
			rt.Kind = "overflow"
		case kindHistory:
			rt.Kind = "history"
		}
		out = append(out, rt)
	}
	return out
}

// summary is the first line of the section, without its bullet.
func (o *report) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "output: %d tool result(s), %s; %d value(s) replaced, %d archived original(s)", o.ToolResults, units.Size(o.ToolResultBytes), o.Replaced, o.Handles)
	if len(o.Recovery) > 0 {
		fmt.Fprintf(&b, " (%s)", recoveryList(o.Recovery))
	}
	return b.String()
}

// Text renders the section for a terminal.
func (o *report) Text() string {
	var b strings.Builder
	b.WriteString("  " + o.summary())
	if o.RetrieveToolBytes > 0 {
		fmt.Fprintf(&b, "; retrieve_output declaration %s", units.Size(o.RetrieveToolBytes))
	}
	b.WriteString("\n")
	for _, s := range o.Rules {
		state := "applied"
		switch {
		case s.Dropped != "":
			state = "dropped: " + s.Dropped
		case !s.Applied:
			// The savings table gives the rule's reason.
			continue
		}
		fmt.Fprintf(&b, "    %s %-18s %3d replaced, %s saved (%s), %s\n", s.Rule, s.Name, s.Replaced, units.Thousands(s.SavedBytes), units.PercentText(s.SavedBytes, s.BytesBefore), state)
	}
	return b.String()
}

// Markdown renders the section as a Markdown list item.
func (o *report) Markdown() string { return "- " + o.summary() + "\n" }

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
