package tools

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// Schema sums up the tool declarations of a capture as sent (wire) and
// as the model sees them: a declaration marked defer_loading is not shown
// to the model on Anthropic, and only its name and description are on
// OpenAI Responses.
type Schema struct {
	Declared     int
	Deferred     int
	WireBytes    int
	VisibleBytes int
	// Search names the search tool the capture declares, if any.
	Search string
}

// SchemaOf measures the tool declarations of c.
func SchemaOf(c *capture.Capture) Schema {
	var s Schema
	d := c.Doc
	for _, t := range transform.ToolDecls(c) {
		n := t.Bytes(d)
		s.Declared++
		s.WireBytes += n
		if t.Search && s.Search == "" {
			s.Search = t.Name
		}
		if !t.Deferred {
			s.VisibleBytes += n
			continue
		}
		s.Deferred++
		if c.Provider == capture.OpenAIResponses {
			s.VisibleBytes += len(d.Raw(d.Get(t.Node, "name"))) + len(d.Raw(t.Desc))
		}
	}
	return s
}

// DeclaredTool is one top-level tool declaration of a capture, as sent.
type DeclaredTool struct {
	Name string
	// Bytes is the size of the declaration in the body.
	Bytes int
	// Deferred is true when the declaration carries defer_loading: true,
	// so the provider loads it on demand.
	Deferred bool
}

// DeclaredTools lists the top-level tool declarations of c in body order:
// which tools a request declares and what each costs.
func DeclaredTools(c *capture.Capture) []DeclaredTool {
	decls := transform.ToolDecls(c)
	out := make([]DeclaredTool, len(decls))
	for i := range decls {
		out[i] = DeclaredTool{Name: decls[i].Name, Bytes: decls[i].Bytes(c.Doc), Deferred: decls[i].Deferred}
	}
	return out
}

// Projection is what one tool rule would do to a capture on its own.
type Projection struct {
	Rule *rules.Rule
	Plan *Plan
	// After measures the capture with the rule's edits applied (the
	// capture as it is when the rule changes nothing).
	After Schema
	// Deferred counts the tools the rule removes or marks deferred.
	Deferred int
	// Message is what the rule would report.
	Message string
}

// CountDeferred counts the tools of orig that final no longer declares or
// newly marks deferred.
func CountDeferred(orig, final *capture.Capture) int {
	t := toolDiffOf(&rules.Result{Original: orig, Final: final})
	return len(t.removed) + len(t.natively)
}

// Project runs the decision and edits of SO201 and SO202 on c, each on
// its own and without the engine's guards, so a report can show what each
// would save on the wire and in what the model sees. env supplies the
// settings and SO201's own options (nil: the defaults).
func Project(c *capture.Capture, env *rules.Env) []Projection {
	s := SettingsOf(env)
	var out []Projection
	for _, r := range []*rules.Rule{Defer, NativeDefer} {
		native := r == NativeDefer || env.OptionsOf(Defer.Options).(*deferOptions).Native
		plan, edits, msg := deferral(c, s, native)
		pr := Projection{Rule: r, Plan: plan, Message: msg, After: SchemaOf(c)}
		if len(edits) > 0 {
			if next, _, err := rules.Apply(c, edits); err == nil {
				pr.After = SchemaOf(next)
				pr.Deferred = CountDeferred(c, next)
			}
		}
		out = append(out, pr)
	}
	return out
}
