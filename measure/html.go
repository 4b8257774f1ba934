package measure

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/skillopt/skillopt/internal/escape"
)

// The chart's geometry and colours; the browser test checks a screenshot
// against them.
const (
	ChartWidth   = 760
	ChartHeight  = 320
	chartLeft    = 70
	chartRight   = 740
	chartTop     = 40 // the plot area starts below the legend
	chartBottom  = 280
	ChartPlotTop = chartTop
	// ChartPlotHeight is the height of the tallest bar.
	ChartPlotHeight = chartBottom - chartTop

	ColorCached   = "#2e7d32"
	ColorWritten  = "#f9a825"
	ColorUncached = "#5c6bc0"
	colorBefore   = "#9e9e9e"
	colorAfter    = "#6d4c41"
	colorInk      = "#222222"
	colorBreak    = "#c62828"
	colorAxis     = "#bdbdbd"
)

// WriteConversationHTML writes a conversation report as one
// self-contained page: inline style and SVG, no scripts, nothing loaded
// from elsewhere. It holds a stacked bar chart of every turn's cached,
// written and uncached tokens before and after the rules, the section
// breakdown of the largest request, and the tables of the text report.
func WriteConversationHTML(w io.Writer, cv *Conversation) error {
	bw := bufio.NewWriter(w)
	e := escape.HTML
	fmt.Fprintf(bw, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>skillopt: conversation cost</title>
<style>
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: %[1]s; background: #ffffff; margin: 16px 24px; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border-bottom: 1px solid #e0e0e0; padding: 3px 8px; text-align: right; white-space: nowrap; }
th:nth-child(2), td:nth-child(2), td.text, th.text { text-align: left; }
td.text { white-space: normal; min-width: 16em; }
ul { margin: 4px 0; padding-left: 20px; }
svg { display: block; }
.muted { color: #616161; }
</style>
</head>
<body>
<h1>Conversation cost: before → after the rules</h1>
`, colorInk)
	tot := cv.Total
	fmt.Fprintf(bw, "<p>%d request(s). Cost %s → %s", len(cv.Turns), e(Cost(tot.Before.Cost)), e(Cost(tot.After.Cost)))
	if tot.Saved != nil && tot.SavedPct != nil {
		fmt.Fprintf(bw, ", saved %s (%.2f %%)", e(Cost(tot.Saved)), *tot.SavedPct)
	}
	bw.WriteString(e(pricedNote(tot)))
	fmt.Fprintf(bw, ". Prefix breaks %d → %d, %d by a rule.</p>\n<ul>\n", tot.Before.Breaks, tot.After.Breaks, tot.RuleBreaks)
	for _, l := range summaryLines(cv) {
		fmt.Fprintf(bw, "<li>%s</li>\n", e(l))
	}
	bw.WriteString("</ul>\n<h2>Input tokens per turn</h2>\n")
	writeTurnChart(bw, cv)
	if cv.Largest != nil && len(cv.Largest.Sections) > 0 {
		fmt.Fprintf(bw, "<h2>Sections of the largest request (turn %d, %s)</h2>\n", cv.Largest.Turn, e(cv.Largest.Capture))
		writeSectionChart(bw, cv.Largest)
	}
	bw.WriteString("<h2>Turns</h2>\n<table>\n<tr><th>turn</th><th>capture</th><th>input</th><th>cached</th><th>written</th><th>uncached</th><th>cost</th><th class=\"text\">prefix break</th></tr>\n")
	for _, t := range cv.Turns {
		fmt.Fprintf(bw, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s → %s</td><td class=\"text\">%s</td></tr>\n",
			t.Turn, e(t.Capture), e(arrow(t.Before.Input, t.After.Input)), e(arrow(t.Before.Cached, t.After.Cached)),
			e(arrow(t.Before.Written, t.After.Written)), e(arrow(t.Before.Uncached, t.After.Uncached)),
			e(Cost(t.Before.Cost)), e(Cost(t.After.Cost)), e(breakCell(t)))
	}
	fmt.Fprintf(bw, "<tr><th>total</th><td></td><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s → %s</th><th class=\"text\">%d → %d</th></tr>\n</table>\n",
		e(arrow(tot.Before.Input, tot.After.Input)), e(arrow(tot.Before.Cached, tot.After.Cached)),
		e(arrow(tot.Before.Written, tot.After.Written)), e(arrow(tot.Before.Uncached, tot.After.Uncached)),
		e(Cost(tot.Before.Cost)), e(Cost(tot.After.Cost)), tot.Before.Breaks, tot.After.Breaks)
	var usage []ConvTurn
	for _, t := range cv.Turns {
		if t.Usage != nil {
			usage = append(usage, t)
		}
	}
	if len(usage) > 0 {
		bw.WriteString("<h2>Provider usage</h2>\n<p class=\"muted\">What the provider reported (authoritative), beside the prediction before the rules.</p>\n<table>\n<tr><th>turn</th><th>input</th><th>cached</th><th>written</th><th>output</th><th>cost</th><th>predicted input error</th></tr>\n")
		for _, t := range usage {
			u := t.Usage
			pe := ""
			if t.Error != nil {
				pe = fmt.Sprintf("%+.1f %%", t.Error.InputPct)
			}
			fmt.Fprintf(bw, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				t.Turn, Thousands(u.Input), Thousands(u.Cached), Thousands(u.Written), Thousands(u.Output), e(Cost(u.Cost)), e(pe))
		}
		bw.WriteString("</table>\n")
	}
	for _, n := range append(breakNotes(cv), cv.Notes...) {
		fmt.Fprintf(bw, "<p class=\"muted\">Note: %s</p>\n", e(n))
	}
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

// writeTurnChart draws two stacked bars per turn, before and after the
// rules: cached at the bottom, then written, then uncached. The tallest
// bar is ChartPlotHeight pixels high.
func writeTurnChart(w *bufio.Writer, cv *Conversation) {
	top := 0
	for _, t := range cv.Turns {
		top = max(top, t.Before.Input, t.After.Input)
	}
	n := len(cv.Turns)
	// Two bars of at least 2 px and the gaps around them take 6 px a
	// turn: a long conversation widens the chart (the page scrolls).
	right, width := chartRight, ChartWidth
	if n*6 > chartRight-chartLeft {
		right = chartLeft + n*6
		width = right + ChartWidth - chartRight
	}
	fmt.Fprintf(w, `<div style="overflow-x: auto"><svg id="turns" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="input tokens per turn, before and after the rules">`+"\n",
		width, ChartHeight, width, ChartHeight)
	// Legend, above the plot.
	x := chartLeft
	for _, l := range []struct{ color, label string }{{ColorCached, "cached"}, {ColorWritten, "written"}, {ColorUncached, "uncached"}} {
		fmt.Fprintf(w, `<rect x="%d" y="8" width="12" height="12" fill="%s"/><text x="%d" y="19" font-size="12" fill="%s">%s</text>`+"\n", x, l.color, x+16, colorInk, l.label)
		x += 90
	}
	fmt.Fprintf(w, `<text x="%d" y="19" font-size="12" fill="%s">left bar: before, right bar: after; <tspan fill="%s">✕</tspan> prefix break</text>`+"\n", x+10, colorInk, colorBreak)
	// Axis and scale.
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1"/>`+"\n", chartLeft, chartBottom, right, chartBottom, colorAxis)
	if top > 0 {
		for _, f := range []float64{0.5, 1} {
			y := chartBottom - int(math.Round(f*ChartPlotHeight))
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="11" text-anchor="end" fill="%s">%s</text>`+"\n", chartLeft-6, y+4, colorInk, Thousands(int(math.Round(f*float64(top)))))
		}
	}
	if n == 0 || top == 0 {
		w.WriteString("</svg></div>\n")
		return
	}
	group := float64(right-chartLeft) / float64(n)
	bar := int(math.Min(36, math.Max(2, group*0.35)))
	gap := max(bar/4, 1)
	scale := float64(ChartPlotHeight) / float64(top)
	px := func(v int) int { return int(math.Round(float64(v) * scale)) }
	for i, t := range cv.Turns {
		center := chartLeft + int(math.Round(group*(float64(i)+0.5)))
		for k, s := range []Side{t.Before, t.After} {
			bx := center - gap/2 - bar
			if k == 1 {
				bx = center + (gap+1)/2
			}
			c, cw, all := px(s.Cached), px(s.Cached+s.Written), px(s.Input)
			segs := []struct {
				from, to int
				color    string
			}{{0, c, ColorCached}, {c, cw, ColorWritten}, {cw, all, ColorUncached}}
			for _, sg := range segs {
				if sg.to <= sg.from {
					continue
				}
				fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>turn %d %s: %s tokens</title></rect>`+"\n",
					bx, chartBottom-sg.to, bar, sg.to-sg.from, sg.color, t.Turn, []string{"before", "after"}[k], Thousands(s.Input))
			}
			if s.Break != nil {
				// A prefix break: a mark above the bar.
				fmt.Fprintf(w, `<text x="%d" y="%d" font-size="12" font-weight="bold" text-anchor="middle" fill="%s">✕<title>prefix break at %s</title></text>`+"\n",
					bx+bar/2, chartBottom-all-4, colorBreak, escape.HTML(pointerText(s.Break.Pointer)))
			}
		}
		if every := max(1, int(math.Ceil(40/group))); i%every == 0 || n <= 40 {
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="11" text-anchor="middle" fill="%s">%d</text>`+"\n", center, chartBottom+16, colorInk, t.Turn)
		}
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="11" text-anchor="middle" fill="%s">turn</text>`+"\n", (chartLeft+chartRight)/2, chartBottom+34, colorInk)
	w.WriteString("</svg></div>\n")
}

// writeSectionChart draws one pair of horizontal bars per section of the
// largest request: its tokens before and after the rules.
func writeSectionChart(w *bufio.Writer, l *LargestRequest) {
	secs := sortedSections(l)
	top := 0
	for _, s := range secs {
		top = max(top, s.Before, s.After)
	}
	const rowH, labelW, barW = 30, 110, 480
	height := 30 + rowH*len(secs)
	fmt.Fprintf(w, `<svg id="sections" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="tokens per section of the largest request">`+"\n",
		ChartWidth, height, ChartWidth, height)
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
			fmt.Fprintf(w, `<text x="%d" y="%d" font-size="10" fill="%s">%s</text>`+"\n", labelW+width+6, by+10, colorInk, Thousands(v))
		}
	}
	w.WriteString("</svg>\n")
}
