package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// sections runs pipeline on c and collects every tool rule's section.
func sections(t *testing.T, c *capture.Capture, pipeline []*rules.Rule, env *rules.Env) []*rules.Detail {
	t.Helper()
	res, err := rules.Run(c, pipeline, env)
	if err != nil {
		t.Fatal(err)
	}
	var out []*rules.Detail
	for _, r := range pipeline {
		d, err := r.Detail(rules.DetailInput{Rule: r, Result: res, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// The tool_deferral section comes once per capture, from the first tool
// rule of the pipeline, and projects both rules.
func TestDetailOncePerPipeline(t *testing.T) {
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(prPrompt)))
	for _, pipeline := range [][]*rules.Rule{{Defer}, {NativeDefer}, {Defer, NativeDefer}, {NativeDefer, Defer}} {
		got := sections(t, c, pipeline, nil)
		if len(got) != 1 || got[0].Key != "tool_deferral" {
			t.Fatalf("%s: %d sections", pipeline[0].ID, len(got))
		}
		var rep Report
		data, err := json.Marshal(got[0].Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Tools != len(testCatalog) || rep.FailOpen || len(rep.Rules) != 2 || rep.Rules[0].Rule != "SO201" || rep.Rules[1].Rule != "SO202" {
			t.Errorf("%+v", rep)
		}
		for _, s := range rep.Rules {
			ran := s.Rule == pipeline[0].ID || len(pipeline) == 2
			if s.InPipeline != ran {
				t.Errorf("%s: in pipeline %v, want %v", s.Rule, s.InPipeline, ran)
			}
		}
		if text, md := got[0].Data.Text(), got[0].Data.Markdown(); !strings.HasPrefix(text, "  tool deferral: ") || !strings.HasPrefix(md, "- tool deferral: ") {
			t.Errorf("text %q markdown %q", text, md)
		}
	}
	// Nothing deferrable, no section.
	core := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog[:2], user(prPrompt)))
	if got := sections(t, core, []*rules.Rule{Defer}, nil); len(got) != 0 {
		t.Errorf("section for core tools only: %+v", got)
	}
}

// SO201's own option native reaches the rule and its projection: on
// Anthropic the deferred definitions stay on the wire.
func TestNativeOptionOfDefer(t *testing.T) {
	b, err := rules.Bind([]rules.Owner{{Name: "tools", Options: Defaults}, {Name: "SO201", Options: Defer.Options}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if err := config.DecodeWith("s.toml", []byte("[tools]\nnative = true\n"), cfg, b); err != nil {
		t.Fatal(err)
	}
	env := &rules.Env{Options: cfg.Options}
	c := readCapture(t, capture.Anthropic, conversation(capture.Anthropic, testCatalog, user(prPrompt)))
	res, err := rules.Run(c, []*rules.Rule{Defer}, env)
	if err != nil {
		t.Fatal(err)
	}
	after := SchemaOf(res.Final)
	if !res.Steps[0].Applied || after.Deferred == 0 || after.Search != "tool_search_tool_bm25" {
		t.Fatalf("native = true did not defer natively: %+v %v", after, res.Diagnostics)
	}
	pr := Project(c, env)
	if pr[0].After.WireBytes != pr[1].After.WireBytes || pr[0].After.VisibleBytes >= SchemaOf(c).VisibleBytes {
		t.Errorf("projection of SO201 with native = true: %+v, SO202 %+v", pr[0].After, pr[1].After)
	}
	if plain := Project(c, nil); plain[0].After.WireBytes >= SchemaOf(c).WireBytes {
		t.Errorf("default SO201 projection keeps the wire bytes: %+v", plain[0].After)
	}
}

// TestNextRule: a tool rule outside the pipeline is proposed when,
// projected on the capture, it hides more schema than the pipeline does.
func TestNextRule(t *testing.T) {
	r := &Report{NativeBytes: 10000, VisibleBytes: 6000, Rules: []RuleSaving{
		{Rule: "SO201", Name: "tools.defer", InPipeline: true, Applied: true, SavedVisible: 4000, VisibleBytes: 6000},
		{Rule: "SO202", Name: "tools.native-defer", Deferred: 7, SavedVisible: 9000, VisibleBytes: 1000},
	}}
	s := nextRule(r)
	if s == nil || s.Rule != "SO202" || s.SavedBytes != 5000 || !strings.HasPrefix(s.Action, "add SO202 (tools.native-defer)") ||
		!strings.Contains(s.Effect, "defer 7 tools") {
		t.Fatalf("suggestion %+v", s)
	}
	// Not when it would hide less than the pipeline already does.
	r.Rules[1].SavedVisible = 3000
	if s := nextRule(r); s != nil {
		t.Fatalf("suggestion %+v", s)
	}
}
