package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
)

// TestHTMLEventRows: the turn chart has a row per kind of cache event the
// conversation has, growth left out, under a legend of the kinds with
// their counts, and a mark per event whose tooltip is the event.
func TestHTMLEventRows(t *testing.T) {
	cv := converse(t, ttlRequests(t), measure.ConversationOptions{})
	page := htmlOf(t, cv)
	chart := page[strings.Index(page, `<svg id="turns"`):]
	chart = chart[:strings.Index(chart, "</svg>")]
	if h := turnChartHeight(cv); h != eventTop+20+2*eventRow || !strings.Contains(chart, fmt.Sprintf(`height="%d" viewBox="0 0 %d %d"`, h, ChartWidth, h)) {
		t.Errorf("the chart is not %d pixels high with two rows of events", h)
	}
	for _, s := range []string{
		`fill="` + EventColors[measure.EventColdStart] + `"/><text x="188" y="` + fmt.Sprint(eventTop+12) + `" font-size="11" fill="#222222">cold-start 1</text>`,
		`>ttl-expired 1</text>`,
		`>(growth left out)<title>`,
	} {
		if !strings.Contains(chart, s) {
			t.Errorf("the chart lacks %q", s)
		}
	}
	if strings.Contains(chart, `events growth`) {
		t.Error("growth has a row")
	}
	marks := regexp.MustCompile(`<g class="events ([a-z-]+)">\n((?:<rect class="event"[^\n]*\n)*)</g>`).FindAllStringSubmatch(chart, -1)
	if len(marks) != 2 || marks[0][1] != measure.EventColdStart || marks[1][1] != measure.EventTTL {
		t.Fatalf("rows %q, want cold-start then ttl-expired", marks)
	}
	ttl := marks[1][2]
	if strings.Count(ttl, "<rect") != 1 || !strings.Contains(ttl, `fill="`+EventColors[measure.EventTTL]+`"><title>turn 3, chain 1: ttl-expired $`) ||
		!strings.Contains(ttl, "7m30s after turn 2, past the 5m0s cache lifetime") {
		t.Errorf("the ttl-expired row: %s", ttl)
	}
	// The mark stands under its turn.
	a := newTurnAxis(len(cv.Turns))
	if want := fmt.Sprintf(`x="%.1f"`, a.x(2)-4); !strings.Contains(ttl, want) {
		t.Errorf("the ttl-expired mark is not at %s: %s", want, ttl)
	}
}

// TestEventColors: every kind but growth has a colour of its own, none
// that of a bar.
func TestEventColors(t *testing.T) {
	seen := map[string]string{ColorCached: "cached", ColorWritten: "written", ColorUncached: "uncached"}
	for _, k := range eventKinds {
		c := EventColors[k]
		if c == "" {
			t.Errorf("%s has no colour", k)
		}
		if other, ok := seen[c]; ok {
			t.Errorf("%s has the colour of %s", k, other)
		}
		seen[c] = k
	}
	if _, ok := EventColors[measure.EventGrowth]; ok {
		t.Error("growth has a colour")
	}
}
