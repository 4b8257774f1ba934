package tools

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// detail is the tool_deferral section of measure's report, given by
// whichever tool rule comes first in the pipeline.
func detail(in rules.DetailInput) (*rules.Detail, error) {
	for _, st := range in.Result.Steps {
		if st.Rule == Defer || st.Rule == NativeDefer {
			if st.Rule != in.Rule {
				return nil, nil
			}
			break
		}
	}
	r := report(in.Result, in.Env)
	if r == nil {
		return nil, nil
	}
	d := &rules.Detail{Key: "tool_deferral", Data: r}
	if s := nextRule(r); s != nil {
		d.Next = append(d.Next, *s)
	}
	return d, nil
}

// nextRule proposes the tool rule outside the pipeline that, projected on
// the capture, hides the most tool schema from the model beyond what the
// pipeline does; nil when none would.
func nextRule(r *Report) *rules.Suggestion {
	done := r.NativeBytes - r.VisibleBytes // what the pipeline hides now
	var best *RuleSaving
	for i, s := range r.Rules {
		if !s.InPipeline && s.SavedVisible > done && (best == nil || s.SavedVisible > best.SavedVisible) {
			best = &r.Rules[i]
		}
	}
	if best == nil {
		return nil
	}
	return &rules.Suggestion{Rule: best.Rule,
		Action:     fmt.Sprintf("add %s (%s) to rules.pipeline or --rules", best.Rule, best.Name),
		Effect:     fmt.Sprintf("it would defer %d tools, and the model would see %s of tool schema instead of %s", best.Deferred, units.Size(best.VisibleBytes), units.Size(r.VisibleBytes)),
		SavedBytes: best.SavedVisible - done}
}

// Report details the tool declarations of a capture and what tool
// deferral does to them. Wire bytes are the declarations as sent;
// model-visible bytes leave out what a provider does not show the model
// (definitions marked defer_loading), so native deferral shows up as a
// wire cost with a visible saving.
type Report struct {
	Tools int `json:"tools"`
	// NativeBytes is the tool declarations as captured.
	NativeBytes int `json:"native_tool_schema_bytes"`
	// InitialBytes and VisibleBytes are the declarations after the
	// pipeline: on the wire, and as the model sees them.
	InitialBytes int `json:"initial_tool_schema_bytes"`
	VisibleBytes int `json:"visible_tool_schema_bytes"`
	// Deferred counts the tools the pipeline removed or marked deferred.
	Deferred int `json:"deferred"`
	// FailOpen is set when weak, empty or unrelated signal keeps every
	// tool for this request; Decision says what was decided and why.
	FailOpen  bool     `json:"fail_open"`
	Decision  string   `json:"decision"`
	Predicted []string `json:"predicted,omitempty"`
	// Rules projects each tool rule on its own.
	Rules []RuleSaving `json:"rules"`
}

// RuleSaving is what one tool rule alone does to the declarations.
type RuleSaving struct {
	Rule         string  `json:"rule"`
	Name         string  `json:"name"`
	Deferred     int     `json:"deferred"`
	WireBytes    int     `json:"wire_bytes"`
	VisibleBytes int     `json:"visible_bytes"`
	SavedWire    int     `json:"saved_wire_bytes"`
	SavedVisible int     `json:"saved_visible_bytes"`
	SavedPct     float64 `json:"saved_visible_pct"`
	// InPipeline and Applied say whether the rule ran and whether the
	// engine kept its result; Dropped gives the engine's reason otherwise.
	InPipeline bool   `json:"in_pipeline"`
	Applied    bool   `json:"applied"`
	Dropped    string `json:"dropped,omitempty"`
}

// report returns the tools detail of a pipeline result, or nil when the
// capture declares no tool that could be deferred.
func report(res *rules.Result, env *rules.Env) *Report {
	c := res.Original
	before := SchemaOf(c)
	if before.Declared == 0 {
		return nil
	}
	projections := Project(c, env)
	plan := projections[0].Plan
	if plan.Skip == "no deferrable tools" || plan.Skip == "no tool declarations" {
		return nil
	}
	after := SchemaOf(res.Final)
	r := &Report{
		Tools:        before.Declared,
		NativeBytes:  before.WireBytes,
		InitialBytes: after.WireBytes,
		VisibleBytes: after.VisibleBytes,
		Deferred:     CountDeferred(c, res.Final),
		FailOpen:     plan.FailOpen != "",
		Predicted:    plan.Predicted,
		Rules:        []RuleSaving{},
	}
	switch {
	case plan.FailOpen != "":
		r.Decision = "fail open: " + plan.FailOpen
	case plan.Skip != "":
		r.Decision = "unchanged: " + plan.Skip
	default:
		r.Decision = fmt.Sprintf("confident: best match %s (%s); %d of %d tools deferrable", plan.Best, units.Fixed(plan.BestScore, 2), len(plan.Deferred), len(plan.Tools))
	}
	for _, pr := range projections {
		s := RuleSaving{Rule: pr.Rule.ID, Name: pr.Rule.Name, Deferred: pr.Deferred, WireBytes: pr.After.WireBytes, VisibleBytes: pr.After.VisibleBytes}
		s.SavedWire = before.WireBytes - pr.After.WireBytes
		s.SavedVisible = before.VisibleBytes - pr.After.VisibleBytes
		s.SavedPct = units.Percent(s.SavedVisible, before.VisibleBytes)
		for _, st := range res.Steps {
			if st.Rule.ID == pr.Rule.ID {
				s.InPipeline, s.Applied, s.Dropped = true, st.Applied, st.Dropped
			}
		}
		r.Rules = append(r.Rules, s)
	}
	return r
}

// writeText renders a tool report for a terminal.
// Text is the section for a terminal.
func (r *Report) Text() string {
	var b strings.Builder
	writeText(&b, r)
	return b.String()
}

// Markdown is the section as Markdown.
func (r *Report) Markdown() string {
	var b strings.Builder
	writeMarkdown(&b, r)
	return b.String()
}

func writeText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "  tool deferral: %d tools, %s as captured; after the pipeline %s on the wire, %s visible to the model, %d deferred\n",
		r.Tools, units.Size(r.NativeBytes), units.Size(r.InitialBytes), units.Size(r.VisibleBytes), r.Deferred)
	fmt.Fprintf(w, "    %s\n", r.Decision)
	for _, s := range r.Rules {
		state := "not in pipeline"
		switch {
		case s.Applied:
			state = "applied"
		case s.Dropped != "":
			state = "dropped: " + s.Dropped
		case s.InPipeline:
			state = "no change"
		}
		fmt.Fprintf(w, "    %s %-18s wire %10s (%s)  visible %10s (%s)  %s\n", s.Rule, s.Name,
			units.Size(s.WireBytes), signed(-s.SavedWire), units.Size(s.VisibleBytes), signed(-s.SavedVisible), state)
	}
}

// writeMarkdown renders a tool report as a Markdown list.
func writeMarkdown(w io.Writer, r *Report) {
	fmt.Fprintf(w, "- tool deferral: %d tools, %s → %s on the wire, %s visible; %d deferred; %s\n",
		r.Tools, units.Thousands(r.NativeBytes), units.Thousands(r.InitialBytes), units.Thousands(r.VisibleBytes), r.Deferred, mdEscaper.Replace(r.Decision))
	var parts []string
	for _, s := range r.Rules {
		parts = append(parts, fmt.Sprintf("%s wire %s / visible %s bytes", s.Rule, signed(-s.SavedWire), signed(-s.SavedVisible)))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "  - alone: %s\n", strings.Join(parts, "; "))
	}
}

func signed(n int) string {
	if n > 0 {
		return "+" + units.Thousands(n)
	}
	return units.Thousands(n)
}

// mdEscaper keeps text inside a Markdown list item or table cell.
var mdEscaper = strings.NewReplacer("|", `\|`, "`", "'")
