package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/render"
	"github.com/skillopt/skillopt/rules"
)

// measureWith runs pipeline over a case under a dry run, as `skillopt
// measure` does, and returns the capture's report.
func measureWith(t *testing.T, pipeline ...*rules.Rule) *measure.CaptureReport {
	t.Helper()
	env, _ := outEnv(t, nil)
	env.DryRun = true
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, pipeline...)
	return measure.Measure(res, measure.Options{Env: env})
}

// TestDetailOncePerPipeline: the output section describes every SO3xx
// step; it is added once, by the first of them, whichever that is.
func TestDetailOncePerPipeline(t *testing.T) {
	cr := measureWith(t, dedup, smart, sanitize)
	if len(cr.Details) != 1 || cr.Details[0].Key != "output" {
		t.Fatalf("details %+v", cr.Details)
	}
	d := cr.Details[0]
	var r report
	data, err := json.Marshal(d.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.ToolResults != 1 || r.Replaced != 1 || r.Handles != 1 || r.Recovery["go-test"] != 1 || len(r.Rules) != 3 || r.RetrieveToolBytes == 0 {
		t.Fatalf("report %+v", r)
	}
	// SO303 runs first and has nothing to do: it adds nothing, not even
	// the declaration, which comes with SO301's reduction.
	if r.Rules[0].Rule != "SO303" || r.Rules[0].Applied || r.Rules[0].SavedBytes != 0 || r.Rules[1].Rule != "SO301" || !r.Rules[1].Applied || r.Rules[1].SavedBytes <= 0 {
		t.Fatalf("rules %+v", r.Rules)
	}
	text, md := d.Data.Text(), d.Data.Markdown()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	// Rules that did nothing get no line: measure's savings table gives
	// their reason.
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "  output: 1 tool result(s), ") ||
		!strings.Contains(lines[0], "1 value(s) replaced, 1 archived original(s) (go-test 1); retrieve_output declaration ") ||
		!strings.HasPrefix(lines[1], "    SO301 output.smart         1 replaced, ") || !strings.HasSuffix(lines[1], "applied") {
		t.Fatalf("text:\n%s", text)
	}
	if md != "- "+strings.TrimPrefix(strings.SplitN(lines[0], "; retrieve_output", 2)[0], "  ")+"\n" {
		t.Fatalf("markdown %q", md)
	}
	// The section is a member "output" of the capture's JSON object.
	var b bytes.Buffer
	if err := render.WriteJSON(&b, measure.Summarize([]*measure.CaptureReport{cr}, nil)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"output": {`) || !strings.Contains(b.String(), `"retrieve_tool_bytes": `) {
		t.Fatalf("json:\n%s", b.String())
	}
}

func TestDetailAnyOutputRule(t *testing.T) {
	// A pipeline of one SO3xx rule that changes nothing still reports.
	cr := measureWith(t, headTail)
	if len(cr.Details) != 1 || !strings.HasSuffix(cr.Details[0].Data.Text(), "0 value(s) replaced, 0 archived original(s)\n") {
		t.Fatalf("details %+v", cr.Details)
	}
	// The rule says why it changed nothing.
	if s := cr.Savings[0]; s.Why() != `output.history_strategy is "recent"` {
		t.Fatalf("reason %q", s.Why())
	}
	// No SO3xx rule, no section.
	if cr := measureWith(t); len(cr.Details) != 0 {
		t.Fatalf("details without output rules: %+v", cr.Details)
	}
}
