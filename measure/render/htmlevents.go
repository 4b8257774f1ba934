package render

import (
	"bufio"
	"fmt"
	"math"

	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure"
)

// The cache events on the turn chart: below its horizontal axis, one row
// per kind of event the conversation has (growth left out), under a
// legend of the kinds' colours and counts, a mark in the kind's colour at
// every turn with that event and the event in its tooltip.

// EventColors are the marks' colours by kind; none is near the bars'.
var EventColors = map[string]string{
	measure.EventColdStart:  "#78909c",
	measure.EventTTL:        "#ef6c00",
	measure.EventPrefix:     "#c62828",
	measure.EventModel:      "#6a1b9a",
	measure.EventCompaction: "#00838f",
	measure.EventRetry:      "#ad1457",
	measure.EventMiss:       "#212121",
}

// eventKinds are the kinds a row is drawn for, in row order.
var eventKinds = []string{measure.EventColdStart, measure.EventTTL, measure.EventPrefix, measure.EventModel, measure.EventCompaction, measure.EventRetry, measure.EventMiss}

const (
	// eventTop is where the rows start below the turn chart's plot, under
	// the axis title; eventRow is a row's height.
	eventTop = ChartHeight - 4
	eventRow = 14
)

// eventRows are the kinds the conversation has a row for, with how many
// turns had each.
func eventRows(cv *measure.Conversation) (kinds []string, counts map[string]int) {
	counts = map[string]int{}
	for _, t := range cv.Turns {
		if t.Event != nil {
			counts[t.Event.Kind]++
		}
	}
	for _, k := range eventKinds {
		if counts[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	return kinds, counts
}

// turnChartHeight is the turn chart's height with its rows of events.
func turnChartHeight(cv *measure.Conversation) int {
	kinds, _ := eventRows(cv)
	if len(kinds) == 0 {
		return ChartHeight
	}
	return eventTop + 20 + eventRow*len(kinds)
}

// writeEventRows draws the rows of cache events on the turn axis a,
// under a legend of their kinds.
func writeEventRows(w *bufio.Writer, cv *measure.Conversation, a turnAxis) {
	kinds, counts := eventRows(cv)
	if len(kinds) == 0 {
		return
	}
	y := eventTop + 12
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="12" fill="%s">cache events:</text>`+"\n", chartLeft, y, colorInk)
	x := chartLeft + 90
	for _, k := range kinds {
		label := fmt.Sprintf("%s %d", k, counts[k])
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11" fill="%s">%s</text>`+"\n",
			x, y-9, EventColors[k], x+14, y, colorInk, label)
		x += 14 + 6*len(label) + 14
	}
	// Room for the note with every kind present: the legend is at most
	// 90 + 7·28 + 6·(93 + 7 digits) = 886 pixels past chartLeft.
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="11" fill="%s">(growth left out)<title>a row per kind of event, a mark per turn with the event in its tooltip; growth, the normal case, is left out</title></text>`+"\n", x, y, colorInk)
	mark := math.Max(2, math.Min(8, a.slot-1))
	for r, k := range kinds {
		ry := eventTop + 18 + r*eventRow
		color := EventColors[k]
		fmt.Fprintf(w, `<g class="events %s">`+"\n", k)
		for i, t := range cv.Turns {
			if t.Event == nil || t.Event.Kind != k {
				continue
			}
			title := fmt.Sprintf("turn %d, chain %d: %s %s: %s", t.Turn, t.Chain, k, Cost(t.Event.Cost), t.Event.Detail)
			fmt.Fprintf(w, `<rect class="event" x="%.1f" y="%d" width="%.1f" height="10" fill="%s"><title>%s</title></rect>`+"\n",
				a.x(i)-mark/2, ry, mark, color, escape.HTML(title))
		}
		w.WriteString("</g>\n")
	}
}
