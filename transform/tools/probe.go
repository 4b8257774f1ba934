package tools

import "github.com/skillopt/skillopt/capture"

// Deferral is what SO201 decided for a capture, told apart from what a
// search for a query returns.
type Deferral struct {
	// Decision is "defer" (some tools are deferred), "fail-open" (every
	// tool stays although some could be deferred) or "skip" (nothing to
	// decide).
	Decision string `json:"decision"`
	// Deferred and Kept count the tools deferred and kept.
	Deferred int `json:"deferred"`
	Kept     int `json:"kept"`
	// Reason says why nothing is deferred ("" when the decision is defer).
	Reason string `json:"reason,omitempty"`
}

// Probe answers what optimizer_tool_search returns for query over the
// capture's deferrable tools, whatever the deferral decided: when SO201
// defers, the search over the deferred tools (the page the model gets);
// when it fails open or skips, the search over every deferrable tool, as
// if they were deferred. Page.Searched counts the tools searched and
// Page.Deferral says what SO201 decided.
func Probe(c *capture.Capture, s *Settings, query, cursor string) (*Page, error) {
	plan := Decide(c, s)
	d := Deferral{Decision: "defer", Deferred: len(plan.Deferred), Kept: len(plan.Kept)}
	switch {
	case plan.FailOpen != "":
		d.Decision, d.Reason = "fail-open", FailOpenPrefix+plan.FailOpen
	case !plan.Deferring():
		d.Decision, d.Reason = "skip", plan.Skip
	}
	searched := plan
	if !plan.Deferring() && len(plan.Deferrable) > 0 {
		// Search as the model would once these tools were deferred; the
		// kept ones are those a protection keeps.
		cp := *plan
		cp.Deferred = plan.Deferrable
		deferrable := cp.deferredSet()
		cp.Kept = nil
		for _, n := range plan.Tools {
			if !deferrable[n] {
				cp.Kept = append(cp.Kept, n)
			}
		}
		if cp.index == nil {
			cp.index = toolBuildIndex(c.Doc, cp.decls)
		}
		searched = &cp
	}
	page, err := searched.Search(query, cursor)
	if err != nil {
		return nil, err
	}
	page.Searched, page.Deferred, page.Note = len(searched.Deferred), len(plan.Deferred), ""
	page.Deferral = &d
	if !plan.Deferring() {
		// Nothing is deferred: every tool is declared already and the
		// page activates none.
		page.Activated = []string{}
		page.Active = append([]string{}, plan.Tools...)
	}
	return page, nil
}
