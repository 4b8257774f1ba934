package rules

import (
	"strings"
	"testing"
)

// TestEngineFailsUnkeptRemoval: a trial rule that drops a tool result's
// text without archiving it is dropped by the engine unless it is declared
// lossy; archiving the text, or leaving an exact copy in the request, keeps
// the step.
func TestEngineFailsUnkeptRemoval(t *testing.T) {
	long := strings.Repeat("line of output ", 40)
	in := `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":"` + long + `"},{"role":"user","content":[{"type":"text","text":"` + long + `"}]},{"role":"user","content":"other ` + long + `"}]}`
	// drop replaces /messages/at/content with a short marker; archive says
	// whether it archives what it removes.
	drop := func(at string, archive bool, engine Engine) *Rule {
		return &Rule{ID: "SO399", Name: "trial.drop", Kind: Transform, Doc: "Trial.", Engine: engine, Run: func(p *Pass) error {
			d := p.Capture.Doc
			n, err := d.Lookup("/messages/" + at + "/content")
			if err != nil || d.Kind(n) == 0 || len(d.Raw(n)) < 20 {
				return nil
			}
			if archive {
				p.Archived("other " + long)
			}
			p.Edit(Edit{Pointer: "/messages/" + at + "/content", NewJSON: []byte(`"[dropped]"`)})
			return nil
		}}
	}
	for _, tc := range []struct {
		name    string
		rule    *Rule
		applied bool
	}{
		{"drops without archiving", drop("2", false, Engine{}), false},
		{"drops a block without archiving", drop("1", false, Engine{}), true}, // an exact copy of its text is in message 0
		{"declared lossy", drop("2", false, Engine{Lossy: true}), true},
		{"archives what it drops", drop("2", true, Engine{}), true},
		{"an exact copy stays", drop("0", false, Engine{}), true},
	} {
		res, err := Run(read(t, in), []*Rule{tc.rule}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Steps[0]
		if s.Applied != tc.applied {
			t.Errorf("%s: applied %v (%s), want %v", tc.name, s.Applied, s.Dropped, tc.applied)
		}
		if !tc.applied {
			if !strings.Contains(s.Dropped, "/messages/2/content") || !strings.Contains(s.Dropped, "neither archived nor kept") {
				t.Errorf("%s: dropped for %q", tc.name, s.Dropped)
			}
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != Error {
				t.Errorf("%s: diagnostics %+v, want one error", tc.name, res.Diagnostics)
			}
		}
	}
}
