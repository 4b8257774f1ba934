package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/cache"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/measure/units"
)

// WriteConversationJSON writes a conversation report as one indented JSON
// object with a member "conversation".
func WriteConversationJSON(w io.Writer, cv *measure.Conversation) error {
	return writeJSON(w, struct {
		Conversation *measure.Conversation `json:"conversation"`
	}{cv})
}

// Cost renders a dollar amount, or "n/a" for an unavailable one.
func Cost(c *float64) string {
	if c == nil {
		return "n/a"
	}
	v := *c
	if v < 0 {
		return "-$" + units.Fixed(-v, 4)
	}
	return "$" + units.Fixed(v, 4)
}

func arrow(a, b int) string { return units.Thousands(a) + " → " + units.Thousands(b) }

// summaryLines describes the models, caches and prices of a conversation,
// one line each, and how the tokens were counted.
func summaryLines(cv *measure.Conversation) []string {
	type key struct{ vendor, model string }
	seen := map[key]bool{}
	var lines []string
	for _, t := range cv.Turns {
		k := key{t.Vendor, t.Model}
		if seen[k] {
			continue
		}
		seen[k] = true
		who := t.Model
		if who == "" {
			who = "unnamed model"
		}
		vendor := t.Vendor
		if vendor == "" {
			vendor = "unknown endpoint"
		}
		lines = append(lines, fmt.Sprintf("%s %s: cache %s; price %s", vendor, who, describeCache(t.Cache), describePrice(t.Price)))
	}
	exact := "estimated (not every model uses this encoding)"
	if cv.Tokens.Exact {
		exact = "the model's own encoding"
	}
	if n := cv.Tokens.Calibrated; n > 0 {
		exact += fmt.Sprintf(", calibrated for %s of %s turns from the provider's counts of the turns before them", units.Thousands(n), units.Thousands(len(cv.Turns)))
	}
	lines = append(lines, fmt.Sprintf("tokens: %s, %s; cached, written and uncached are predictions, before → after the rules", cv.Tokens.Encoding, exact))
	return lines
}

func describeCache(m cache.Model) string {
	switch m.Kind {
	case cache.Explicit:
		return fmt.Sprintf("explicit breakpoints (at most %d), prefix of at least %s tokens", m.MaxBreakpoints, units.Thousands(m.MinTokens))
	case cache.Prefix:
		s := "automatic prefix (no minimum documented)"
		if m.MinTokens > 0 {
			s = fmt.Sprintf("automatic prefix from %s tokens", units.Thousands(m.MinTokens))
		}
		if m.Step > 1 {
			s += fmt.Sprintf(" in steps of %d", m.Step)
		}
		if m.KeyRequired {
			s += ", with a prompt_cache_key only"
		}
		return s
	case cache.Units:
		return "automatic, whole earlier requests as prefix units"
	}
	return "none documented"
}

func describePrice(p *price.Price) string {
	if p == nil {
		return "unknown (cost unavailable)"
	}
	s := fmt.Sprintf("$%g in, $%g out, $%g cache read, $%g cache write", p.Input, p.Output, p.CacheRead, p.CacheWrite)
	if p.CacheWrite1h != p.CacheWrite {
		s += fmt.Sprintf(" ($%g for 1 h)", p.CacheWrite1h)
	}
	s += " per million tokens"
	if p.Source != "built-in" {
		s += " (from " + p.Source + ")"
	}
	return s
}

// breakCell describes the prefix breaks of a turn.
func breakCell(t measure.ConvTurn) string {
	var parts []string
	if b := t.Before.Break; b != nil {
		parts = append(parts, "before: "+measure.PointerText(b.Pointer))
	}
	if b := t.After.Break; b != nil {
		s := "after: " + measure.PointerText(b.Pointer)
		if b.Rule != "" {
			s += " by " + b.Rule + " " + b.RuleName
			if b.Cost != nil {
				s += ", " + signedCost(*b.Cost)
			}
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func usageLine(u *measure.Usage, e *measure.PredictionError) string {
	s := fmt.Sprintf("provider: input %s (cached %s, written %s, uncached %s), output %s, %s", units.Thousands(u.Input), units.Thousands(u.Cached), units.Thousands(u.Written), units.Thousands(u.Uncached), units.Thousands(u.Output), Cost(u.Cost))
	if u.CostSource != "" {
		s += " (" + u.CostSource + ")"
	}
	if e != nil {
		s += fmt.Sprintf("; predicted input %+.1f %%, cached %+d tokens", e.InputPct, e.Cached)
	}
	return s
}

// WriteConversationText writes a conversation report for a terminal: one
// row per turn and a total; notes are wrapped at escape.DefaultWidth.
func WriteConversationText(w io.Writer, cv *measure.Conversation) error {
	return writeConversationText(w, cv, TextOptions{})
}

// writeConversationText is WriteConversationText with notes wrapped at
// o.Width.
func writeConversationText(w io.Writer, cv *measure.Conversation, o TextOptions) error {
	fmt.Fprintf(w, "conversation: %d request(s)\n", len(cv.Turns))
	for _, l := range summaryLines(cv) {
		fmt.Fprintf(w, "  %s\n", escape.Text(l))
	}
	lines, head, top := billLines(cv)
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", escape.Text(l))
	}
	if l := cachedLine(cv.Cached); l != "" {
		fmt.Fprintf(w, "  %s\n", escape.Text(l))
	}
	if head != "" {
		fmt.Fprintf(w, "  %s\n", escape.Text(head))
		tr := [][]string{{"turn", "chain", "event", "cost", "detail"}}
		for _, r := range top {
			tr = append(tr, []string{r[0], r[1], r[2], r[3], escape.Text(r[4])})
		}
		if err := writeColumns(w, "    ", tr, nil); err != nil {
			return err
		}
	}
	var rows [][]string
	notes := map[int]string{} // a line printed after row i
	rows = append(rows, []string{"turn", "capture", "input", "cached", "written", "uncached", "cost", "prefix break"})
	for _, t := range cv.Turns {
		rows = append(rows, []string{strconv.Itoa(t.Turn), escape.Text(t.Capture),
			arrow(t.Before.Input, t.After.Input), arrow(t.Before.Cached, t.After.Cached),
			arrow(t.Before.Written, t.After.Written), arrow(t.Before.Uncached, t.After.Uncached),
			Cost(t.Before.Cost) + " → " + Cost(t.After.Cost), escape.Text(breakCell(t))})
		var note []string
		if t.Usage != nil {
			note = append(note, "      "+escape.Text(usageLine(t.Usage, t.Error)))
		}
		if l := eventLine(t); l != "" {
			note = append(note, "      "+escape.Text(l))
		}
		if t.Cached != nil && t.Cached.Read > 0 {
			note = append(note, "      "+escape.Text("cached prefix: "+sectionsText(t.Cached)))
		}
		if len(note) > 0 {
			notes[len(rows)-1] = strings.Join(note, "\n")
		}
	}
	tot := cv.Total
	rows = append(rows, []string{"total", "",
		arrow(tot.Before.Input, tot.After.Input), arrow(tot.Before.Cached, tot.After.Cached),
		arrow(tot.Before.Written, tot.After.Written), arrow(tot.Before.Uncached, tot.After.Uncached),
		Cost(tot.Before.Cost) + " → " + Cost(tot.After.Cost),
		fmt.Sprintf("%d → %d (%d by a rule)", tot.Before.Breaks, tot.After.Breaks, tot.RuleBreaks)})
	if err := writeColumns(w, "", rows, notes); err != nil {
		return err
	}
	if tot.Saved != nil {
		pct := 0.0
		if tot.SavedPct != nil {
			pct = *tot.SavedPct
		}
		fmt.Fprintf(w, "saved: %s (%s %%)%s\n", Cost(tot.Saved), units.Fixed(pct, 2), pricedNote(tot))
	} else {
		fmt.Fprintf(w, "saved: n/a%s\n", pricedNote(tot))
	}
	if tot.Usage != nil {
		fmt.Fprintf(w, "%s\n", escape.Text(usageLine(tot.Usage, tot.Error)))
	}
	for _, n := range breakNotes(cv) {
		fmt.Fprintln(w, escape.Wrap("note: ", n, o.Width))
	}
	for _, n := range cv.Notes {
		fmt.Fprintln(w, escape.Wrap("note: ", n, o.Width))
	}
	return nil
}

// writeColumns writes rows as aligned columns, each line after indent,
// the last cell unpadded, with notes[i] printed after row i.
func writeColumns(w io.Writer, indent string, rows [][]string, notes map[int]string) error {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for k, r := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, cell := range r {
			if i == len(r)-1 {
				b.WriteString(cell)
				break
			}
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
		if n, ok := notes[k]; ok {
			fmt.Fprintln(w, n)
		}
	}
	return nil
}

// pricedNote says which turns the costs cover when some model has no
// price, as in " for 440 of 453 turns; 13 turns of gpt-x have no price
// (…)"; "" when every turn is priced.
func pricedNote(t measure.ConvTotal) string {
	if len(t.Unpriced) == 0 {
		return ""
	}
	unpriced := t.Turns - t.PricedTurns
	var parts []string
	for i, u := range t.Unpriced {
		model := u.Model
		if model == "" {
			model = "an unnamed model"
		}
		n := units.Thousands(u.Turns)
		if i == 0 {
			n += " turn"
			if u.Turns != 1 {
				n += "s"
			}
		}
		parts = append(parts, n+" of "+escape.Text(model))
	}
	verb := "have"
	if unpriced == 1 {
		verb = "has"
	}
	lead := ""
	if t.PricedTurns > 0 {
		lead = fmt.Sprintf(" for %s of %s turns", units.Thousands(t.PricedTurns), units.Thousands(t.Turns))
	}
	return fmt.Sprintf("%s; %s %s no price (add the model under [prices] in skillopt.toml)", lead, strings.Join(parts, ", "), verb)
}

// breakNotes explain the breaks the rules made on purpose, with the
// reason the rule gave.
func breakNotes(cv *measure.Conversation) []string {
	var out []string
	for _, t := range cv.Turns {
		if b := t.After.Break; b != nil && b.Reason != "" {
			out = append(out, fmt.Sprintf("turn %d: %s changes the cached prefix once: %s", t.Turn, b.Rule, b.Reason))
		}
	}
	return out
}

// signedCost writes a break's cost as an addition: "+$0.0070", or says
// that the cache would have held nothing of it.
func signedCost(c float64) string {
	if c == 0 {
		return "no cache lost"
	}
	return "+" + Cost(&c)
}

// mdCell escapes text for a Markdown table cell or list item.
func mdCell(s string) string { return escape.Markdown(s) }

// WriteConversationMarkdown writes a conversation report for a pull
// request comment.
func WriteConversationMarkdown(w io.Writer, cv *measure.Conversation) error {
	fmt.Fprintf(w, "### skillopt measure --conversation\n\n")
	return writeConversationMarkdown(w, cv)
}

// writeConversationMarkdown writes a conversation report below its
// heading.
func writeConversationMarkdown(w io.Writer, cv *measure.Conversation) error {
	fmt.Fprintf(w, "%d request(s).", len(cv.Turns))
	if s := cv.Total.Saved; s != nil {
		pct := 0.0
		if cv.Total.SavedPct != nil {
			pct = *cv.Total.SavedPct
		}
		fmt.Fprintf(w, " Cost %s → %s, saved %s (%s %%)%s.", Cost(cv.Total.Before.Cost), Cost(cv.Total.After.Cost), Cost(s), units.Fixed(pct, 2), mdCell(pricedNote(cv.Total)))
	} else {
		fmt.Fprintf(w, " Cost unavailable%s.", mdCell(pricedNote(cv.Total)))
	}
	fmt.Fprintf(w, " Prefix breaks %d → %d, %d by a rule.\n\n", cv.Total.Before.Breaks, cv.Total.After.Breaks, cv.Total.RuleBreaks)
	for _, l := range summaryLines(cv) {
		fmt.Fprintf(w, "- %s\n", mdCell(l))
	}
	lines, head, top := billLines(cv)
	for _, l := range lines {
		fmt.Fprintf(w, "- %s\n", mdCell(l))
	}
	if l := cachedLine(cv.Cached); l != "" {
		fmt.Fprintf(w, "- %s\n", mdCell(l))
	}
	if head != "" {
		fmt.Fprintf(w, "\n%s:\n\n", mdCell(head))
		fmt.Fprintln(w, "| turn | chain | event | cost | detail |")
		fmt.Fprintln(w, "| ---: | ---: | --- | ---: | --- |")
		for _, r := range top {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3], mdCell(r[4]))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| turn | capture | input | cached | written | uncached | cost | prefix break | cache event |")
	fmt.Fprintln(w, "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
	for _, t := range cv.Turns {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s → %s | %s | %s |\n", t.Turn, mdCell(t.Capture),
			arrow(t.Before.Input, t.After.Input), arrow(t.Before.Cached, t.After.Cached),
			arrow(t.Before.Written, t.After.Written), arrow(t.Before.Uncached, t.After.Uncached),
			Cost(t.Before.Cost), Cost(t.After.Cost), mdCell(breakCell(t)), mdCell(eventCell(t)))
	}
	tot := cv.Total
	fmt.Fprintf(w, "| **total** | | %s | %s | %s | %s | %s → %s | %d → %d | |\n",
		arrow(tot.Before.Input, tot.After.Input), arrow(tot.Before.Cached, tot.After.Cached),
		arrow(tot.Before.Written, tot.After.Written), arrow(tot.Before.Uncached, tot.After.Uncached),
		Cost(tot.Before.Cost), Cost(tot.After.Cost), tot.Before.Breaks, tot.After.Breaks)
	writeCachedMarkdown(w, cv)
	var usage []measure.ConvTurn
	for _, t := range cv.Turns {
		if t.Usage != nil {
			usage = append(usage, t)
		}
	}
	if len(usage) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Provider usage (authoritative) beside the prediction before the rules:")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| turn | input | cached | written | output | cost | predicted input error |")
		fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		for _, t := range usage {
			u := t.Usage
			e := ""
			if t.Error != nil {
				e = fmt.Sprintf("%+.1f %%", t.Error.InputPct)
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", t.Turn, units.Thousands(u.Input), units.Thousands(u.Cached), units.Thousands(u.Written), units.Thousands(u.Output), Cost(u.Cost), mdCell(e))
		}
	}
	for _, n := range append(breakNotes(cv), cv.Notes...) {
		fmt.Fprintf(w, "\n_Note: %s_\n", mdCell(n))
	}
	return nil
}

// sortedSections returns the largest request's sections, largest first.
func sortedSections(l *measure.LargestRequest) []measure.SectionUse {
	out := append([]measure.SectionUse(nil), l.Sections...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Before > out[j].Before })
	return out
}

// cachedLine describes the composition of a conversation's cache reads,
// "" when no turn's request is known.
func cachedLine(p *measure.PrefixSections) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("cached prefix (%s read over %s turns with the request): %s", units.Thousands(p.Read), units.Thousands(p.Turns), sectionsText(p))
}

// writeCachedMarkdown writes a table of the cached prefix's sections per
// turn, one column per section the conversation read, nothing when no
// turn's request is known or nothing was read.
func writeCachedMarkdown(w io.Writer, cv *measure.Conversation) {
	sum := cv.Cached
	if sum == nil || len(sum.Sections) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Cached prefix by section (tokens read from the cache):")
	fmt.Fprintln(w)
	head, rule := "| turn | read |", "| ---: | ---: |"
	for _, s := range sum.Sections {
		head += " " + mdCell(s.Kind) + " |"
		rule += " ---: |"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	row := func(label string, p *measure.PrefixSections) {
		by := map[string]int{}
		for _, s := range p.Sections {
			by[s.Kind] = s.Tokens
		}
		line := fmt.Sprintf("| %s | %s |", label, units.Thousands(p.Read))
		for _, s := range sum.Sections {
			line += " " + units.Thousands(by[s.Kind]) + " |"
		}
		fmt.Fprintln(w, line)
	}
	for _, t := range cv.Turns {
		if t.Cached != nil {
			row(strconv.Itoa(t.Turn), t.Cached)
		}
	}
	row("**total**", sum)
}
