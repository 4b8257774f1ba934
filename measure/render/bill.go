package render

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
)

// billLines describe a conversation's bill for the top of a report: the
// cache account, the chains and the most expensive avoidable events as
// rows (turn, chain, kind, cost, detail).
func billLines(cv *measure.Conversation) (lines []string, head string, rows [][]string) {
	b := cv.Bill
	if b == nil {
		return nil, "", nil
	}
	src := map[string]string{"provider": "the provider's usage", "predicted": "predicted", "provider and predicted": "the provider's usage where known, else predicted"}[b.Source]
	s := fmt.Sprintf("cache (%s): hit rate %s, read %s, written %s, uncached %s, output %s", src, units.Fixed(b.HitRate, 1)+" %",
		units.Thousands(b.Read), units.Thousands(b.Written), units.Thousands(b.Uncached), units.Thousands(b.Output))
	if b.ReadToOutput != nil {
		s += fmt.Sprintf(" (%s cache reads per output token)", units.Fixed(*b.ReadToOutput, 1))
	}
	lines = append(lines, s)
	if b.Cost != nil {
		lines = append(lines, fmt.Sprintf("cost %s; %s without the cache, which saved %s", Cost(b.Cost), Cost(b.NoCache), Cost(b.Saved)))
	}
	if len(cv.Chains) > 1 {
		side := 0
		mainDesc := ""
		for _, c := range cv.Chains {
			if c.Role == "main" {
				mainDesc = fmt.Sprintf("chain %d, %s, %s turns", c.Chain, measure.ModelText(c.Model), units.Thousands(c.Turns))
			} else {
				side++
			}
		}
		lines = append(lines, fmt.Sprintf("chains: %d (main: %s; %d side)", len(cv.Chains), mainDesc, side))
	}
	var ev []string
	for _, e := range b.Events {
		ev = append(ev, fmt.Sprintf("%s %s", e.Kind, units.Thousands(e.Turns)))
	}
	lines = append(lines, "cache events: "+strings.Join(ev, ", "))
	if len(b.Top) == 0 {
		if b.Cost != nil {
			lines = append(lines, "no avoidable cache event")
		}
		return lines, "", nil
	}
	head = fmt.Sprintf("the %d most expensive avoidable cache events: %s", len(b.Top), Cost(b.TopCost))
	if len(b.Top) == 1 {
		head = "the one avoidable cache event: " + Cost(b.TopCost)
	}
	if b.TopPct != nil {
		head += fmt.Sprintf(", %s %% of the cost", units.Fixed(*b.TopPct, 1))
	}
	if b.AvoidableCost != nil && b.TopCost != nil && *b.AvoidableCost > *b.TopCost {
		head += fmt.Sprintf(" (every avoidable event: %s)", Cost(b.AvoidableCost))
	}
	for _, e := range b.Top {
		rows = append(rows, []string{fmt.Sprint(e.Turn), fmt.Sprint(e.Chain), e.Kind, Cost(e.Cost), e.Detail})
	}
	head += "; " + topRulesText(b)
	return lines, head, rows
}

// topRulesText says what the rules would save over the turns of the top
// events.
func topRulesText(b *measure.Bill) string {
	r := b.TopRules
	if r == nil {
		return "the rules change none of these turns"
	}
	var turns []string
	for _, t := range r.Turns {
		turns = append(turns, fmt.Sprint(t))
	}
	which := "turn " + turns[0]
	if len(turns) > 1 {
		which = "turns " + strings.Join(turns, ", ")
	}
	verb := "saving " + Cost(r.Saved)
	if *r.Saved < 0 {
		c := -*r.Saved
		verb = "adding " + Cost(&c)
	}
	return fmt.Sprintf("the rules change %s: predicted %s → %s, %s", which, Cost(r.Before), Cost(r.After), verb)
}

// eventLine describes a turn's cache event, "" for growth.
func eventLine(t measure.ConvTurn) string {
	e := t.Event
	if e == nil || e.Kind == measure.EventGrowth {
		return ""
	}
	return fmt.Sprintf("cache: chain %d, hit %s %%, %s %s: %s", t.Chain, units.Fixed(t.Bill.HitRate, 1), e.Kind, Cost(e.Cost), e.Detail)
}

// eventCell is a turn's cache event in a table cell.
func eventCell(t measure.ConvTurn) string {
	e := t.Event
	if e == nil {
		return ""
	}
	s := fmt.Sprintf("chain %d: %s %s", t.Chain, e.Kind, Cost(e.Cost))
	if e.Kind != measure.EventGrowth {
		s += ": " + e.Detail
	}
	return s
}

// sectionsText writes a composition as "tools 10,000 (62 %), system 4,000
// (25 %), …".
func sectionsText(p *measure.PrefixSections) string {
	if p == nil || len(p.Sections) == 0 {
		return "nothing read"
	}
	var parts []string
	for _, s := range p.Sections {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", s.Kind, units.Thousands(s.Tokens), sharePct(s.Tokens, p.Read)))
	}
	return strings.Join(parts, ", ")
}

func sharePct(part, whole int) string {
	if whole == 0 {
		return "0 %"
	}
	return units.Fixed(float64(part)*100/float64(whole), 0) + " %"
}
