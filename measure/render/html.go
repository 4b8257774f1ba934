package render

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
)

// The charts' geometry and colours; the browser test checks a screenshot
// against them. Every chart is ChartWidth pixels wide whatever the
// number of turns: past what fits, a pair of bars stands for several
// turns (turnsPerBar).
const (
	ChartWidth   = 1100
	ChartHeight  = chartBottom + 48
	chartLeft    = 84
	chartRight   = 1080
	chartTop     = 52 // the plot area starts below the two legend lines
	chartBottom  = 300
	ChartPlotTop = chartTop
	// ChartPlotHeight is the height of the tallest bar.
	ChartPlotHeight = chartBottom - chartTop
	// minGroup is the narrowest a pair of bars and its gap may be.
	minGroup = 8

	// The cumulative cost chart shares the turn chart's horizontal axis.
	costTop    = 36
	costBottom = 216
	costHeight = costBottom + 48

	ColorCached   = "#2e7d32"
	ColorWritten  = "#f9a825"
	ColorUncached = "#5c6bc0"
	colorBefore   = "#9e9e9e"
	colorAfter    = "#6d4c41"
	colorInk      = "#222222"
	colorBreak    = "#c62828"
	colorAxis     = "#bdbdbd"
	colorGrid     = "#eeeeee"
)

// matterTop is how many of the most expensive turns the report lists
// above the full table; matterBreaks is how many turns with a prefix
// break it lists there at most.
const (
	matterTop    = 10
	matterBreaks = 50
	// openTurns is the longest conversation whose full turn table is
	// shown open, without a list of the turns that matter.
	openTurns = matterTop
)

// WriteConversationHTML writes a conversation report as one
// self-contained page: inline style and SVG, no scripts, nothing loaded
// from elsewhere. Its headline is the total cost before → after the
// rules; it holds a stacked bar chart of the cached, written and
// uncached tokens per turn before and after the rules (a pair of bars
// for several turns in a long conversation), the cumulative cost, the
// section breakdown of the largest request, the turns that matter (prefix
// breaks and the most expensive turns) and the full tables of the text
// report, folded away when long.
func WriteConversationHTML(w io.Writer, cv *measure.Conversation) error {
	bw := bufio.NewWriter(w)
	writeHTMLHead(bw, "skillopt: conversation cost", "")
	bw.WriteString("<h1>Conversation cost: before → after the rules</h1>\n")
	writeHeadline(bw, cv.Total)
	writeConversationHTML(bw, cv, htmlPart{h: "h2"})
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

// htmlPart is where a conversation's report sits on a page: the level
// of its headings ("h2" on a page of its own) and what its element ids
// end with ("" on a page of its own).
type htmlPart struct {
	h, id string
}

// writeHTMLHead writes the page up to the opening of its body: the
// title and the style sheet, with css added to it.
func writeHTMLHead(bw *bufio.Writer, title, css string) {
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%[2]s</title>
<style>
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: %[1]s; background: #ffffff; margin: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.headline { margin: 4px 0 8px; }
.figure { font-size: 28px; font-weight: 600; font-variant-numeric: tabular-nums; margin-right: 12px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #e0e0e0; padding: 3px 6px; text-align: right; white-space: nowrap; }
td.name, td.text, th.text { text-align: left; }
td.text { white-space: normal; min-width: 14em; max-width: 40em; overflow-wrap: anywhere; }
ul { margin: 4px 0; padding-left: 20px; }
svg { display: block; max-width: 100%%; height: auto; }
summary { cursor: pointer; font-weight: 600; margin: 8px 0; }
.muted { color: #616161; }
%[3]s</style>
</head>
<body>
`, colorInk, escape.HTML(title), css)
}

// writeHeadline writes the headline of a page: the total cost before →
// after the rules.
func writeHeadline(bw *bufio.Writer, tot measure.ConvTotal) {
	e := escape.HTML
	bw.WriteString(`<p class="headline" id="headline">`)
	if tot.Before.Cost != nil && tot.After.Cost != nil {
		fmt.Fprintf(bw, `<span class="figure">%s → %s</span> `, e(Cost(tot.Before.Cost)), e(Cost(tot.After.Cost)))
		if tot.Saved != nil && tot.SavedPct != nil {
			fmt.Fprintf(bw, "saved %s (%s %%); ", e(Cost(tot.Saved)), units.Fixed(*tot.SavedPct, 2))
		}
		fmt.Fprintf(bw, "input tokens %s", e(arrow(tot.Before.Input, tot.After.Input)))
	} else {
		fmt.Fprintf(bw, `<span class="figure">%s</span> input tokens; no turn has a price`, e(arrow(tot.Before.Input, tot.After.Input)))
	}
	bw.WriteString("</p>\n")
}

// writeConversationHTML writes the report of one conversation below the
// headline: the summary, the charts and the tables.
func writeConversationHTML(bw *bufio.Writer, cv *measure.Conversation, part htmlPart) {
	e := escape.HTML
	h := part.h
	tot := cv.Total
	fmt.Fprintf(bw, "<p>%d request(s). Cost %s → %s", len(cv.Turns), e(Cost(tot.Before.Cost)), e(Cost(tot.After.Cost)))
	if tot.Saved != nil && tot.SavedPct != nil {
		fmt.Fprintf(bw, ", saved %s (%s %%)", e(Cost(tot.Saved)), units.Fixed(*tot.SavedPct, 2))
	}
	bw.WriteString(e(pricedNote(tot)))
	fmt.Fprintf(bw, ". Prefix breaks %d → %d, %d by a rule.</p>\n<ul>\n", tot.Before.Breaks, tot.After.Breaks, tot.RuleBreaks)
	for _, l := range summaryLines(cv) {
		fmt.Fprintf(bw, "<li>%s</li>\n", e(l))
	}
	fmt.Fprintf(bw, "</ul>\n<%s>Input tokens per turn</%[1]s>\n", h)
	writeTurnChart(bw, cv, part.id)
	fmt.Fprintf(bw, "<%s>Cumulative cost</%[1]s>\n", h)
	writeCostChart(bw, cv, part.id)
	if cv.Largest != nil && len(cv.Largest.Sections) > 0 {
		fmt.Fprintf(bw, "<%s>Sections of the largest request (turn %d, %s)</%[1]s>\n", h, cv.Largest.Turn, nameSpan(cv.Largest.Capture))
		writeSectionChart(bw, cv.Largest, part.id)
	}
	n := len(cv.Turns)
	if n <= openTurns {
		fmt.Fprintf(bw, "<%s>Turns</%[1]s>\n", h)
		writeTurnTable(bw, cv, cv.Turns, nil, true)
	} else {
		picked, why, more := turnsThatMatter(cv)
		fmt.Fprintf(bw, "<%s>Turns that matter</%[1]s>\n<p class=\"muted\">", h)
		rank := "cost after the rules"
		if tot.PricedTurns == 0 {
			rank = "input tokens after the rules"
		}
		fmt.Fprintf(bw, "The turns with a prefix break and the %d largest by %s, in turn order; every turn is in the full table below.", matterTop, rank)
		if more > 0 {
			fmt.Fprintf(bw, " %d more turn(s) with a prefix break are in the full table only.", more)
		}
		bw.WriteString("</p>\n")
		writeTurnTable(bw, cv, picked, why, false)
		fmt.Fprintf(bw, "<details id=\"all-turns%s\">\n<summary>All %d turns</summary>\n", part.id, n)
		writeTurnTable(bw, cv, cv.Turns, nil, true)
		bw.WriteString("</details>\n")
	}
	var usage []measure.ConvTurn
	for _, t := range cv.Turns {
		if t.Usage != nil {
			usage = append(usage, t)
		}
	}
	if len(usage) > 0 {
		fmt.Fprintf(bw, "<%s>Provider usage</%[1]s>\n<p class=\"muted\">What the provider reported (authoritative), beside the prediction before the rules.</p>\n", h)
		if tot.Usage != nil {
			fmt.Fprintf(bw, "<p>%s</p>\n", e(usageLine(tot.Usage, tot.Error)))
		}
		folded := len(usage) > openTurns
		if folded {
			fmt.Fprintf(bw, "<details id=\"all-usage%s\">\n<summary>Provider usage of %d turns</summary>\n", part.id, len(usage))
		}
		bw.WriteString("<table>\n<tr><th>turn</th><th>input</th><th>cached</th><th>written</th><th>output</th><th>cost</th><th>predicted input error</th></tr>\n")
		for _, t := range usage {
			u := t.Usage
			pe := ""
			if t.Error != nil {
				pe = fmt.Sprintf("%+.1f %%", t.Error.InputPct)
			}
			fmt.Fprintf(bw, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				t.Turn, units.Thousands(u.Input), units.Thousands(u.Cached), units.Thousands(u.Written), units.Thousands(u.Output), e(Cost(u.Cost)), e(pe))
		}
		bw.WriteString("</table>\n")
		if folded {
			bw.WriteString("</details>\n")
		}
	}
	for _, n := range append(breakNotes(cv), cv.Notes...) {
		fmt.Fprintf(bw, "<p class=\"muted\">Note: %s</p>\n", e(n))
	}
}

// shortName is a capture name for a table cell: its file's base name and
// the line or entry that follows it (":12", "#3", "#3:12"), the middle
// of a long base name elided.
func shortName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	j := len(s)
	for {
		k := j
		for k > 0 && s[k-1] >= '0' && s[k-1] <= '9' {
			k--
		}
		if k == j || k == 0 || s[k-1] != ':' && s[k-1] != '#' {
			break
		}
		j = k - 1
	}
	stem, suffix := s[:j], s[j:]
	const head, tail = 8, 20
	if r := []rune(stem); len(r) > head+tail+1 {
		stem = string(r[:head]) + "…" + string(r[len(r)-tail:])
	}
	return stem + suffix
}

// nameSpan is a capture's short name with the full name as its title.
func nameSpan(name string) string {
	short := shortName(name)
	if short == name {
		return escape.HTML(name)
	}
	return fmt.Sprintf(`<span title="%s">%s</span>`, attrHTML(name), escape.HTML(short))
}

// attrHTML escapes a capture's text for a quoted attribute value:
// escape.HTML, and '=' as a character reference, so that no part of the
// value reads as an attribute of its own ("x onerror=…") even to a
// reader that does not follow the quotes.
func attrHTML(s string) string { return strings.ReplaceAll(escape.HTML(s), "=", "&#61;") }

// writeTurnTable writes a table of the given turns; why, when not nil,
// adds a column saying why each is listed, and total a row of totals.
func writeTurnTable(w *bufio.Writer, cv *measure.Conversation, turns []measure.ConvTurn, why map[int]string, total bool) {
	e := escape.HTML
	w.WriteString("<table>\n<tr><th>turn</th>")
	if why != nil {
		w.WriteString(`<th class="text">listed for</th>`)
	}
	w.WriteString("<th class=\"text\">capture</th><th>input</th><th>cached</th><th>written</th><th>uncached</th><th>cost</th><th class=\"text\">prefix break</th></tr>\n")
	for _, t := range turns {
		fmt.Fprintf(w, "<tr><td>%d</td>", t.Turn)
		if why != nil {
			fmt.Fprintf(w, `<td class="name">%s</td>`, e(why[t.Turn]))
		}
		title := ""
		if short := shortName(t.Capture); short != t.Capture {
			title = fmt.Sprintf(` title="%s"`, attrHTML(t.Capture))
		}
		fmt.Fprintf(w, "<td class=\"name\"%s>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s → %s</td><td class=\"text\">%s</td></tr>\n",
			title, e(shortName(t.Capture)), e(arrow(t.Before.Input, t.After.Input)), e(arrow(t.Before.Cached, t.After.Cached)),
			e(arrow(t.Before.Written, t.After.Written)), e(arrow(t.Before.Uncached, t.After.Uncached)),
			e(Cost(t.Before.Cost)), e(Cost(t.After.Cost)), e(breakCell(t)))
	}
	if total {
		tot := cv.Total
		fmt.Fprintf(w, "<tr><th>total</th><td></td><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s → %s</th><th class=\"text\">%d → %d</th></tr>\n",
			e(arrow(tot.Before.Input, tot.After.Input)), e(arrow(tot.Before.Cached, tot.After.Cached)),
			e(arrow(tot.Before.Written, tot.After.Written)), e(arrow(tot.Before.Uncached, tot.After.Uncached)),
			e(Cost(tot.Before.Cost)), e(Cost(tot.After.Cost)), tot.Before.Breaks, tot.After.Breaks)
	}
	w.WriteString("</table>\n")
}

// turnsThatMatter picks the turns with a prefix break (the first
// matterBreaks of them; more counts the others) and the matterTop most
// expensive after the rules (by input tokens when no turn has a price),
// in turn order, with why each is listed.
func turnsThatMatter(cv *measure.Conversation) (picked []measure.ConvTurn, why map[int]string, more int) {
	reasons := make([][]string, len(cv.Turns))
	breaks := 0
	for i, t := range cv.Turns {
		var sides []string
		if t.Before.Break != nil {
			sides = append(sides, "before")
		}
		if b := t.After.Break; b != nil {
			s := "after"
			if b.Rule != "" {
				s += " (" + b.Rule + ")"
			}
			sides = append(sides, s)
		}
		if len(sides) == 0 {
			continue
		}
		if breaks++; breaks > matterBreaks {
			more++
			continue
		}
		reasons[i] = append(reasons[i], "break "+strings.Join(sides, ", "))
	}
	priced := cv.Total.PricedTurns > 0
	var order []int
	for i, t := range cv.Turns {
		if !priced || t.After.Cost != nil {
			order = append(order, i)
		}
	}
	key := func(i int) float64 {
		if priced {
			return *cv.Turns[i].After.Cost
		}
		return float64(cv.Turns[i].After.Input)
	}
	sort.SliceStable(order, func(a, b int) bool { return key(order[a]) > key(order[b]) })
	label := "cost #"
	if !priced {
		label = "input #"
	}
	for k, i := range order[:min(matterTop, len(order))] {
		reasons[i] = append(reasons[i], label+strconv.Itoa(k+1))
	}
	why = map[int]string{}
	for i, r := range reasons {
		if len(r) > 0 {
			picked = append(picked, cv.Turns[i])
			why[cv.Turns[i].Turn] = strings.Join(r, "; ")
		}
	}
	return picked, why, more
}

// turnsPerBar is how many turns one pair of bars of the turn chart
// stands for: 1 while every turn gets minGroup pixels, else the smallest
// of 2, 5, 10, 20, 25, 50, 100, … that makes the bars fit.
func turnsPerBar(n int) int {
	fit := (chartRight - chartLeft) / minGroup
	if n <= fit {
		return 1
	}
	return niceInt((n + fit - 1) / fit)
}

// niceInt is the smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, …
// at least v.
func niceInt(v int) int {
	for m := 1; ; m *= 10 {
		cs := []int{m, 2 * m, 5 * m}
		if m >= 10 {
			cs = []int{m, 2 * m, 5 * m / 2, 5 * m}
		}
		for _, c := range cs {
			if c >= v {
				return c
			}
		}
	}
}

// niceStep is a tick step for an axis from 0 to top: the smallest of 1,
// 2, 2.5 and 5 times a power of ten that makes at most five steps.
func niceStep(top float64) float64 {
	if top <= 0 {
		return 1
	}
	raw := top / 5
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*p >= raw*(1-1e-9) {
			return f * p
		}
	}
	return 10 * p
}

// ticks are the multiples of niceStep(top) from 0 up to top.
func ticks(top float64) []float64 {
	step := niceStep(top)
	var out []float64
	for k := 0; float64(k)*step <= top*(1+1e-9); k++ {
		out = append(out, float64(k)*step)
	}
	return out
}

// dollars writes an axis label: a dollar amount with as many decimals as
// the step needs.
func dollars(v, step float64) string {
	if v == 0 {
		return "$0"
	}
	dec := 0
	for s := step; s < 1 && dec < 6; s *= 10 {
		dec++
	}
	if f := step * math.Pow(10, float64(dec)); math.Abs(f-math.Round(f)) > 1e-6 {
		dec++ // 2.5, 0.25, …
	}
	return "$" + strconv.FormatFloat(v, 'f', dec, 64)
}

// turnAxis maps turn indexes to x: the plot spans slots turns (a whole
// number of bars), each slot pixels wide.
type turnAxis struct {
	n, per, bars int
	slot         float64
}

func newTurnAxis(n int) turnAxis {
	per := turnsPerBar(n)
	bars := (n + per - 1) / per
	a := turnAxis{n: n, per: per, bars: bars}
	if bars > 0 {
		a.slot = float64(chartRight-chartLeft) / float64(bars*per)
	}
	return a
}

// x is the centre of turn i.
func (a turnAxis) x(i int) float64 { return chartLeft + (float64(i)+0.5)*a.slot }

// writeXAxis draws the turn numbers under a plot whose bottom is at y.
func (a turnAxis) writeXAxis(w *bufio.Writer, cv *measure.Conversation, y int) {
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1"/>`+"\n", chartLeft, y, chartRight, y, colorAxis)
	if a.n == 0 {
		return
	}
	// A label every step turns, at least 48 pixels apart.
	step := niceInt(int(math.Ceil(48 / a.slot)))
	for i, t := range cv.Turns {
		if i != 0 && t.Turn%step != 0 {
			continue
		}
		if i != 0 && a.x(i)-a.x(0) < 24 {
			continue // too close to turn 1's label
		}
		x := a.x(i)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="1"/><text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="%s">%d</text>`+"\n",
			x, y, x, y+4, colorAxis, x, y+16, colorInk, t.Turn)
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="%s">turn</text>`+"\n", (chartLeft+chartRight)/2, y+36, colorInk)
}

// writeYAxis draws grid lines and labels from 0 to top on a plot from
// bottom up to plotTop, and the axis title.
func writeYAxis(w *bufio.Writer, top float64, bottom, plotTop int, label func(v, step float64) string, title string) {
	if top > 0 {
		step := niceStep(top)
		for _, v := range ticks(top) {
			y := bottom - int(math.Round(v/top*float64(bottom-plotTop)))
			if v > 0 {
				fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1"/>`, chartLeft, y, chartRight, y, colorGrid)
			}
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="11" text-anchor="end" fill="%s">%s</text>`+"\n", chartLeft-6, y+4, colorInk, label(v, step))
		}
	}
	mid := (bottom + plotTop) / 2
	fmt.Fprintf(w, `<text x="14" y="%d" font-size="12" text-anchor="middle" transform="rotate(-90 14 %d)" fill="%s">%s</text>`+"\n", mid, mid, colorInk, title)
}

// breakTitle describes one side's prefix break for a tooltip.
func breakTitle(t measure.ConvTurn, side string, b *measure.Break) string {
	s := fmt.Sprintf("turn %d %s: prefix break at %s", t.Turn, side, measure.PointerText(b.Pointer))
	if b.Rule != "" {
		s += " by " + b.Rule + " " + b.RuleName
		if b.Cost != nil {
			s += ", " + signedCost(*b.Cost)
		}
		if b.Reason != "" {
			s += ": " + b.Reason
		}
	}
	return s
}

// writeTurnChart draws two stacked bars per turn, before and after the
// rules: cached at the bottom, then written, then uncached. In a
// conversation longer than the chart has room for, a pair of bars stands
// for turnsPerBar turns and shows their mean. The tallest bar is
// ChartPlotHeight pixels high.
func writeTurnChart(w *bufio.Writer, cv *measure.Conversation, id string) {
	n := len(cv.Turns)
	a := newTurnAxis(n)
	type mean struct{ input, cached, written float64 }
	means := make([][2]mean, a.bars)
	top := 0.0
	for b := range means {
		from, to := b*a.per, min(n, (b+1)*a.per)
		for k := range 2 {
			var m mean
			for _, t := range cv.Turns[from:to] {
				s := [2]measure.Side{t.Before, t.After}[k]
				m.input += float64(s.Input)
				m.cached += float64(s.Cached)
				m.written += float64(s.Written)
			}
			c := float64(to - from)
			m = mean{m.input / c, m.cached / c, m.written / c}
			means[b][k] = m
			top = max(top, m.input)
		}
	}
	height := turnChartHeight(cv)
	fmt.Fprintf(w, `<svg id="turns%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="input tokens per turn, before and after the rules">`+"\n",
		id, ChartWidth, height, ChartWidth, height)
	// Legend, above the plot.
	x := chartLeft
	for _, l := range []struct{ color, label string }{{ColorCached, "cached"}, {ColorWritten, "written"}, {ColorUncached, "uncached"}} {
		fmt.Fprintf(w, `<rect x="%d" y="6" width="12" height="12" fill="%s"/><text x="%d" y="17" font-size="12" fill="%s">%s</text>`+"\n", x, l.color, x+16, colorInk, l.label)
		x += 90
	}
	fmt.Fprintf(w, `<text x="%d" y="17" font-size="12" fill="%s">left bar: before, right bar: after the rules; <tspan fill="%s">✕</tspan> prefix break</text>`+"\n", x+10, colorInk, colorBreak)
	per := "one pair of bars per turn"
	if a.per > 1 {
		last := fmt.Sprintf("%d–%d", (a.bars-1)*a.per+1, n)
		if (a.bars-1)*a.per+1 == n {
			last = strconv.Itoa(n)
		}
		per = fmt.Sprintf("%d turns, too many for a bar each: each pair of bars is the mean of %d turns (turns 1–%d, %d–%d, …, %s)", n, a.per, a.per, a.per+1, 2*a.per, last)
	}
	fmt.Fprintf(w, `<text x="%d" y="36" font-size="12" fill="%s">%s</text>`+"\n", chartLeft, colorInk, per)
	writeYAxis(w, top, chartBottom, chartTop, func(v, _ float64) string { return units.Thousands(int(math.Round(v))) }, "input tokens per turn")
	a.writeXAxis(w, cv, chartBottom)
	writeEventRows(w, cv, a)
	if n == 0 || top == 0 {
		w.WriteString("</svg>\n")
		return
	}
	group := float64(chartRight-chartLeft) / float64(a.bars)
	bar := int(math.Min(36, math.Max(2, group*0.4)))
	gap := max(bar/4, 1)
	scale := float64(ChartPlotHeight) / top
	px := func(v float64) int { return int(math.Round(v * scale)) }
	for b, pair := range means {
		from, to := b*a.per, min(n, (b+1)*a.per)
		center := chartLeft + int(math.Round(group*(float64(b)+0.5)))
		what := fmt.Sprintf("turn %d", cv.Turns[from].Turn)
		if to-from > 1 {
			what = fmt.Sprintf("turns %d–%d", cv.Turns[from].Turn, cv.Turns[to-1].Turn)
		}
		for k, m := range pair {
			side := []string{"before", "after"}[k]
			bx := center - gap/2 - bar
			if k == 1 {
				bx = center + (gap+1)/2
			}
			c, cw, all := px(m.cached), px(m.cached+m.written), px(m.input)
			tokens := units.Thousands(int(math.Round(m.input))) + " tokens"
			if to-from > 1 {
				tokens = "mean " + tokens + " a turn"
			}
			fmt.Fprintf(w, `<g class="bar"><title>%s %s: %s (cached %s, written %s, uncached %s)</title>`, what, side, tokens,
				units.Thousands(int(math.Round(m.cached))), units.Thousands(int(math.Round(m.written))), units.Thousands(int(math.Round(m.input-m.cached-m.written))))
			for _, sg := range []struct {
				from, to int
				color    string
			}{{0, c, ColorCached}, {c, cw, ColorWritten}, {cw, all, ColorUncached}} {
				if sg.to > sg.from {
					fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, bx, chartBottom-sg.to, bar, sg.to-sg.from, sg.color)
				}
			}
			w.WriteString("</g>\n")
			var breaks []string
			for _, t := range cv.Turns[from:to] {
				if br := [2]*measure.Break{t.Before.Break, t.After.Break}[k]; br != nil {
					breaks = append(breaks, breakTitle(t, side, br))
				}
			}
			if len(breaks) > 0 {
				// A prefix break: a mark above the bar.
				fmt.Fprintf(w, `<text class="break" x="%d" y="%d" font-size="12" font-weight="bold" text-anchor="middle" fill="%s">✕<title>%s</title></text>`+"\n",
					bx+bar/2, chartBottom-all-4, colorBreak, escape.HTML(strings.Join(breaks, "\n")))
			}
		}
	}
	w.WriteString("</svg>\n")
}

// writeCostChart draws the cost before and after the rules, summed turn
// by turn over the turns that have a price, on the turn chart's
// horizontal axis.
func writeCostChart(w *bufio.Writer, cv *measure.Conversation, id string) {
	tot := cv.Total
	e := escape.HTML
	if tot.PricedTurns == 0 || tot.Before.Cost == nil || tot.After.Cost == nil {
		fmt.Fprintf(w, "<p class=\"muted\">No turn has a price, so there is no cost to chart%s.</p>\n", e(pricedNote(tot)))
		return
	}
	fmt.Fprintf(w, "<p class=\"muted\">US dollars, before and after the rules, summed turn by turn%s.</p>\n", e(pricedNote(tot)))
	n := len(cv.Turns)
	a := newTurnAxis(n)
	cum := make([][2]float64, n)
	var sum [2]float64
	for i, t := range cv.Turns {
		if t.Before.Cost != nil && t.After.Cost != nil {
			sum[0] += *t.Before.Cost
			sum[1] += *t.After.Cost
		}
		cum[i] = sum
	}
	top := 0.0
	for _, c := range cum {
		top = max(top, c[0], c[1])
	}
	fmt.Fprintf(w, `<svg id="cost%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="cumulative cost before and after the rules">`+"\n",
		id, ChartWidth, costHeight, ChartWidth, costHeight)
	x := chartLeft
	for k, l := range []struct{ color, label string }{{colorBefore, "before: " + Cost(tot.Before.Cost)}, {colorAfter, "after: " + Cost(tot.After.Cost)}} {
		dash := ""
		if k == 0 {
			dash = ` stroke-dasharray="6 3"`
		}
		fmt.Fprintf(w, `<line x1="%d" y1="12" x2="%d" y2="12" stroke="%s" stroke-width="2"%s/><text x="%d" y="17" font-size="12" fill="%s">%s</text>`+"\n", x, x+20, l.color, dash, x+26, colorInk, e(l.label))
		x += 160
	}
	fmt.Fprintf(w, `<text x="%d" y="17" font-size="12" fill="%s"><tspan fill="%s">✕</tspan> prefix break`, x, colorInk, colorBreak)
	if len(tot.Unpriced) > 0 {
		fmt.Fprintf(w, `; <tspan fill="%s">▮</tspan> turn without a price (adds nothing)`, colorAxis)
	}
	w.WriteString("</text>\n")
	writeYAxis(w, top, costBottom, costTop, dollars, "US dollars, cumulative")
	a.writeXAxis(w, cv, costBottom)
	y := func(v float64) float64 {
		if top == 0 {
			return costBottom
		}
		return costBottom - v/top*float64(costBottom-costTop)
	}
	for i, t := range cv.Turns {
		if t.Before.Cost == nil || t.After.Cost == nil {
			fmt.Fprintf(w, `<rect x="%.1f" y="%d" width="%.1f" height="5" fill="%s"><title>turn %d: %s has no price</title></rect>`+"\n",
				a.x(i)-a.slot/2, costBottom-6, max(a.slot, 1), colorAxis, t.Turn, e(t.Model))
		}
	}
	for k, color := range []string{colorBefore, colorAfter} {
		var pts strings.Builder
		fmt.Fprintf(&pts, "%d,%d", chartLeft, costBottom)
		for i := range cum {
			fmt.Fprintf(&pts, " %.1f,%.1f", a.x(i), y(cum[i][k]))
		}
		dash := ""
		if k == 0 {
			dash = ` stroke-dasharray="6 3"`
		}
		fmt.Fprintf(w, `<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s/>`+"\n",
			[]string{"before", "after"}[k], pts.String(), color, dash)
	}
	for i, t := range cv.Turns {
		for k, br := range [2]*measure.Break{t.Before.Break, t.After.Break} {
			if br == nil {
				continue
			}
			fmt.Fprintf(w, `<text class="break" x="%.1f" y="%.1f" font-size="11" font-weight="bold" text-anchor="middle" fill="%s">✕<title>%s</title></text>`+"\n",
				a.x(i), y(cum[i][k])+4, colorBreak, e(breakTitle(t, []string{"before", "after"}[k], br)))
		}
	}
	w.WriteString("</svg>\n")
}

// writeSectionChart draws one pair of horizontal bars per section of the
// largest request: its tokens before and after the rules.
func writeSectionChart(w *bufio.Writer, l *measure.LargestRequest, id string) {
	secs := sortedSections(l)
	top := 0
	for _, s := range secs {
		top = max(top, s.Before, s.After)
	}
	const rowH, labelW, barW, width = 30, 110, 480, 760
	height := 30 + rowH*len(secs)
	fmt.Fprintf(w, `<svg id="sections%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="tokens per section of the largest request">`+"\n",
		id, width, height, width, height)
	fmt.Fprintf(w, `<rect x="%d" y="6" width="12" height="12" fill="%s"/><text x="%d" y="17" font-size="12" fill="%s">before</text>`, labelW, colorBefore, labelW+16, colorInk)
	fmt.Fprintf(w, `<rect x="%d" y="6" width="12" height="12" fill="%s"/><text x="%d" y="17" font-size="12" fill="%s">after</text>`+"\n", labelW+80, colorAfter, labelW+96, colorInk)
	for i, s := range secs {
		y := 28 + i*rowH
		fmt.Fprintf(w, `<text x="%d" y="%d" font-size="12" text-anchor="end" fill="%s">%s</text>`+"\n", labelW-8, y+14, colorInk, escape.HTML(s.Kind))
		for k, v := range []int{s.Before, s.After} {
			width := 0
			if top > 0 {
				width = int(math.Round(float64(v) * barW / float64(top)))
			}
			color := []string{colorBefore, colorAfter}[k]
			by := y + k*12
			if width > 0 {
				fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="11" fill="%s"/>`, labelW, by, width, color)
			}
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="10" fill="%s">%s</text>`+"\n", labelW+width+6, by+10, colorInk, units.Thousands(v))
		}
	}
	w.WriteString("</svg>\n")
}
