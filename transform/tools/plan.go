package tools

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/transform"
)

// Plan is the per-request decision of the tool-deferral rules: which
// declared tools stay, which are deferred behind the search tool, and why.
type Plan struct {
	// Tools lists every declared tool name in declaration order.
	Tools []string
	// Kept and Deferred partition Tools (Deferred is empty when nothing is
	// deferred).
	Kept, Deferred []string
	// Protected says why a kept tool could not be deferred: "core",
	// "always", "used" (called in the history), "activated" (loaded by an
	// earlier search), "builtin" (not a plain function declaration) or
	// "skillopt" (a tool another skillopt rule declares).
	Protected map[string]string
	// Predicted lists the tools kept because the query ranks them, best
	// first.
	Predicted []string
	// Query is the genuine human text ranked: the conversation's first
	// (tools.selection = "conversation") or the latest ("request"); Terms
	// its normalised terms.
	Query string
	Terms []string
	// Best is the top-ranked deferrable tool and its score.
	Best      string
	BestScore float64
	// FailOpen is the reason every tool stays although some could have
	// been deferred: weak, empty or unrelated signal ("" otherwise).
	FailOpen string
	// Skip says why the rule has nothing to decide (no tools, none
	// deferrable, already deferred, saving too small); "" otherwise.
	Skip string
	// Deferrable lists, in declaration order, the tools no protection
	// keeps: those the decision may defer, whatever it decided (empty when
	// it skips before judging protections).
	Deferrable []string

	// Listed are the tools optimizer_tool_search names as available: the
	// deferred ones, and with a per-conversation selection also those the
	// conversation has activated or called since, so that its description
	// stays the same from turn to turn.
	Listed []string

	decls    []transform.ToolDecl
	index    *toolIndex
	settings *Settings
}

// Deferring reports whether the plan defers anything.
func (p *Plan) Deferring() bool { return len(p.Deferred) > 0 }

// Decide decides, for one request, which tools stay declared under s. It
// never edits the capture.
func Decide(c *capture.Capture, s *Settings) *Plan {
	p := &Plan{Protected: map[string]string{}, settings: s}
	p.decls = transform.ToolDecls(c)
	if p.Skip = p.declSkip(c); p.Skip != "" {
		p.Kept = p.Tools
		return p
	}
	perConversation := s.Selection != "request"
	candidates, ranked := p.classify(c, s, perConversation)
	injected := ""
	if perConversation {
		p.Query = firstQueryText(c)
	} else {
		p.Query = queryText(c)
		injected = startedByInjected(c)
	}
	p.Terms = toolQueryTerms(p.Query)
	if p.Skip = p.sizeSkip(c, s, candidates, ranked); p.Skip != "" {
		p.Kept = p.Tools
		return p
	}
	p.index = toolBuildIndex(c.Doc, p.decls)
	if p.FailOpen = p.signalFailOpen(injected); p.FailOpen != "" {
		p.Kept = p.Tools
		return p
	}
	hits := p.index.search(p.Query, p.Terms, func(n string) bool { return ranked[n] })
	if p.FailOpen = p.confidenceFailOpen(hits, s); p.FailOpen != "" {
		p.Kept = p.Tools
		return p
	}
	p.predict(hits, s, candidates, ranked)
	return p
}

// declSkip lists the declared tools and says why the request is left
// alone before any tool is looked at ("" when it is not).
func (p *Plan) declSkip(c *capture.Capture) string {
	if len(p.decls) == 0 {
		return "no tool declarations"
	}
	skip := ""
	for _, t := range p.decls {
		p.Tools = append(p.Tools, t.Name)
		if t.Search || t.Deferred {
			skip = "tools are already deferred"
		}
	}
	if transform.DeclaredAs(c, transform.SearchToolName, isSearchDesc) == transform.Foreign {
		// Deferring would send the model to a tool that does something
		// else to find the deferred ones.
		skip = "the request already has a tool named " + transform.SearchToolName + " that skillopt did not declare"
	}
	return skip
}

// classify records why each protected tool stays and returns the tools
// that may be deferred now (candidates) and those the decision ranks:
// with a per-conversation selection also those used or activated since,
// so that the decision is the first turn's.
func (p *Plan) classify(c *capture.Capture, s *Settings, perConversation bool) (candidates, ranked map[string]bool) {
	h := history(c)
	core := toolLowerSet(s.Core)
	always := toolLowerSet(s.Always)
	candidates, ranked = map[string]bool{}, map[string]bool{}
	for _, t := range p.decls {
		switch {
		case !t.Function:
			p.Protected[t.Name] = "builtin"
		case toolOwned(t.Name):
			p.Protected[t.Name] = "skillopt"
		case core[strings.ToLower(t.Name)], t.Name == piToolSearch:
			p.Protected[t.Name] = "core"
		case always[strings.ToLower(t.Name)]:
			p.Protected[t.Name] = "always"
		case h.Called[t.Name]:
			p.Protected[t.Name] = "used"
			ranked[t.Name] = perConversation
		case h.Activated[t.Name]:
			p.Protected[t.Name] = "activated"
			ranked[t.Name] = perConversation
		default:
			candidates[t.Name] = true
			ranked[t.Name] = true
			p.Deferrable = append(p.Deferrable, t.Name)
		}
	}
	return candidates, ranked
}

// sizeSkip says why there is nothing to decide: no candidate, or
// deferring everything could not save min_saving bytes, so the signal
// does not matter.
func (p *Plan) sizeSkip(c *capture.Capture, s *Settings, candidates, ranked map[string]bool) string {
	if len(candidates) == 0 {
		return "no deferrable tools"
	}
	total := 0
	for i := range p.decls {
		if ranked[p.decls[i].Name] {
			total += p.decls[i].Bytes(c.Doc)
		}
	}
	if total < s.MinSaving {
		return fmt.Sprintf("deferrable tools total %d bytes, less than min_saving %d", total, s.MinSaving)
	}
	return ""
}

// signalFailOpen says why the latest turn gives no routing signal ("" when
// it does).
func (p *Plan) signalFailOpen(injected string) string {
	switch {
	case injected != "":
		// The seed's custom-message start: no routing signal of the
		// person's; the earlier human text is not about this turn.
		return "the latest turn was started by " + injected + ", not by a person"
	case strings.TrimSpace(p.Query) == "":
		return "no genuine human text to rank tools by"
	case len(p.Terms) == 0:
		return "the latest human text has no searchable words"
	}
	return ""
}

// confidenceFailOpen records the best match and says why the hits are too
// weak to defer by ("" when they are not).
func (p *Plan) confidenceFailOpen(hits []toolHit, s *Settings) string {
	if len(hits) == 0 {
		return "unrelated signal: no word of the latest human text matches a deferrable tool"
	}
	// Confidence rests on each tool's own evidence, not on the boost a
	// sibling lends it.
	best := hits[0]
	for _, h := range hits[1:] {
		if h.Raw > best.Raw {
			best = h
		}
	}
	p.Best, p.BestScore = best.Name, best.Raw
	if !best.Exact && best.Raw < s.MinScore {
		return fmt.Sprintf("weak signal: best match %s scores %s, below min_score %s", best.Name, units.Fixed(best.Raw, 2), units.Fixed(s.MinScore, 2))
	}
	return ""
}

// predict picks the tools the hits predict and splits the rest into
// listed, deferred and kept.
func (p *Plan) predict(hits []toolHit, s *Settings, candidates, ranked map[string]bool) {
	predicted := map[string]bool{}
	for _, h := range hits {
		if h.Exact || (len(p.Predicted) < s.MaxPredicted && h.Score >= s.Relative*hits[0].Score) {
			predicted[h.Name] = true
			p.Predicted = append(p.Predicted, h.Name)
		}
	}
	for _, t := range p.decls {
		if ranked[t.Name] && !predicted[t.Name] {
			p.Listed = append(p.Listed, t.Name)
		}
		if candidates[t.Name] && !predicted[t.Name] {
			p.Deferred = append(p.Deferred, t.Name)
		} else {
			p.Kept = append(p.Kept, t.Name)
		}
	}
	if len(p.Deferred) == 0 {
		p.Skip = "every deferrable tool is predicted"
	}
}

// piToolSearch is Pi's own built-in tool search: like the core tools it is
// how the model reaches the rest, so it always stays declared.
const piToolSearch = "tool_search"

// toolOwned reports whether name is a tool skillopt's other rules declare
// (the catalog's skill_search, the output rules' retrieve_output): they are
// how a model reaches what those rules moved out of the request, so they are
// never deferred, and their appearance is not a tool this family added.
func toolOwned(name string) bool {
	return name == catalog.SearchToolName || name == "retrieve_output"
}

func toolLowerSet(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

// undefer turns a plan into "keep everything" with the given skip reason.
func (p *Plan) undefer(reason string) {
	p.Skip = reason
	p.Kept = p.Tools
	p.Deferred = nil
	p.Listed = nil
}

// deferredSet returns the deferred names as a set.
func (p *Plan) deferredSet() map[string]bool {
	m := make(map[string]bool, len(p.Deferred))
	for _, n := range p.Deferred {
		m[n] = true
	}
	return m
}
