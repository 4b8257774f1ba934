package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/price"
)

// sessionDir is a long absolute directory, as a coding agent's session
// files have.
const sessionDir = "/home/developer/.pi/agent/sessions/--home-developer-src-project--/"

// longConversation is a synthetic conversation of n turns shaped like a
// long coding-agent session: the prompt grows from 40,000 to about
// 205,000 tokens, each turn reads the one before it from the cache and
// writes what it adds, and the rules make every prompt 18 % smaller. The
// captured requests break the prefix every 97th turn; a rule breaks it
// once, on turn 2, and says why. Turns 400 to 412 are of a model without
// a price, and each capture is named by a long absolute path and a line.
func longConversation(n int) *measure.Conversation {
	p := price.Builtin().Lookup("claude-sonnet-4-5")
	cv := &measure.Conversation{Tokens: measure.ConvTokens{Encoding: "test-quarter-bytes"}}
	var prev [2]int
	for i := range n {
		turn := i + 1
		in := 40000 + i*165000/max(n-1, 1) + (i*7919)%2000
		t := measure.ConvTurn{Turn: turn, Capture: fmt.Sprintf("%s2025-11-30T09-12-44-512Z_0199ad2e-7c1b-7d4a.jsonl:%d", sessionDir, 2*turn+1),
			Provider: "anthropic", Vendor: "anthropic", Model: "claude-sonnet-4-5", Price: p}
		if turn >= 400 && turn <= 412 {
			t.Model, t.Price = "my-own-claude", nil
		}
		for k, s := range []*measure.Side{&t.Before, &t.After} {
			s.Input = in
			if k == 1 {
				s.Input = in * 82 / 100
			}
			s.Bytes = 4 * s.Input
			s.Cached = min(prev[k], s.Input)
			broke := k == 0 && turn%97 == 0 || k == 1 && turn == 2
			if broke {
				s.Break = &measure.Break{Pointer: "/messages/0/content/0/text", Offset: 120, Previous: prev[k], Kept: prev[k] / 10}
				s.Cached = prev[k] / 10
				if k == 1 {
					s.Break.Pointer, s.Break.Rule, s.Break.RuleName = "/system/0/text", "SO998", "test.trim-system"
					s.Break.Reason = "a shorter system prompt is written once and read on every later turn"
				}
			}
			s.Written = s.Input - s.Cached - 12
			s.Uncached = 12
			if t.Price != nil {
				c := p.Cost(price.Tokens{Read: s.Cached, Write: s.Written, Uncached: s.Uncached, Output: -1})
				s.Cost = &c
				if broke {
					bc := p.Cost(price.Tokens{Write: prev[k] - s.Break.Kept, Output: -1}) - p.Cost(price.Tokens{Read: prev[k] - s.Break.Kept, Output: -1})
					s.Break.Cost = &bc
				}
			}
			prev[k] = s.Input
		}
		cv.Turns = append(cv.Turns, t)
	}
	total(cv)
	for _, t := range cv.Turns {
		if t.After.Break != nil && t.After.Break.Rule != "" {
			cv.Total.RuleBreaks++
		}
	}
	last := cv.Turns[n-1]
	cv.Largest = &measure.LargestRequest{Turn: last.Turn, Capture: last.Capture, Sections: []measure.SectionUse{
		{Kind: "system", Before: 12000, After: 3000}, {Kind: "tool-results", Before: last.Before.Input - 40000, After: last.After.Input - 31000}, {Kind: "human", Before: 28000, After: 28000}}}
	return cv
}

func htmlOf(t *testing.T, cv *measure.Conversation) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteConversationHTML(&b, cv); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestHTMLLongConversation checks the page of a 453-turn conversation: a
// headline with the cost, one chart width whatever the length (a pair of
// bars per five turns, said in the legend), a cumulative cost chart that
// says which turns have no price, the turns that matter listed above the
// full table, which is folded away, and short capture names.
func TestHTMLLongConversation(t *testing.T) {
	cv := longConversation(453)
	page := htmlOf(t, cv)
	tot := cv.Total
	if tot.PricedTurns != 440 || len(tot.Unpriced) != 1 || tot.Before.Breaks != 4 || tot.After.Breaks != 1 {
		t.Fatalf("the synthetic conversation is not what the test expects: %+v", tot)
	}
	headline := regexp.MustCompile(`<p class="headline" id="headline"><span class="figure">([^<]*)</span>`).FindStringSubmatch(page)
	if want := Cost(tot.Before.Cost) + " → " + Cost(tot.After.Cost); headline == nil || headline[1] != want {
		t.Errorf("headline %q, want %q", headline, want)
	}
	// Nothing from elsewhere, no script, nothing that scrolls sideways.
	for _, bad := range []string{"<script", "src=", "href=", "url(", "@import", "overflow-x", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if got := strings.Count(page, `http`); got != strings.Count(page, `xmlns="http://www.w3.org/2000/svg"`) {
		t.Errorf("the page names %d addresses besides the SVG namespace", got-strings.Count(page, `xmlns="http://www.w3.org/2000/svg"`))
	}
	if per := turnsPerBar(453); per != 5 {
		t.Fatalf("turnsPerBar(453) = %d, want 5", per)
	}
	if got := strings.Count(page, `<g class="bar">`); got != 2*91 {
		t.Errorf("%d bars, want two for each of 91 groups of five turns", got)
	}
	for _, s := range []string{
		`width="1100" height="348"`,
		"each pair of bars is the mean of 5 turns (turns 1–5, 6–10, …, 451–453)",
		">input tokens per turn</text>",
		">US dollars, cumulative</text>",
		">turn</text>",
		">200,000</text>", ">$15</text>",
		"before: " + Cost(tot.Before.Cost), "after: " + Cost(tot.After.Cost),
		"summed turn by turn for 440 of 453 turns; 13 turns of my-own-claude have no price",
		"turn without a price",
		"turn 2 after: prefix break at /system/0/text by SO998 test.trim-system, +$",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	// A break mark over each pair of bars with a break, and one on the
	// cost chart per break.
	if got := strings.Count(page, `class="break"`); got != 2*(tot.Before.Breaks+tot.After.Breaks) {
		t.Errorf("%d break marks, want %d", got, 2*(tot.Before.Breaks+tot.After.Breaks))
	}
	listed := checkTurnsThatMatter(t, cv, page)
	if !strings.Contains(page, `<details id="all-turns">`+"\n<summary>All 453 turns</summary>") || strings.Contains(page, "<details open") {
		t.Error("the full table is not folded away")
	}
	all := page[strings.Index(page, `<details id="all-turns">`):]
	if got := strings.Count(all[:strings.Index(all, "</details>")], "<tr><td>"); got != 453 {
		t.Errorf("the full table has %d turns", got)
	}
	// Short names in the cells, the full name in a title.
	full := cv.Turns[411].Capture
	cell := `<td class="name" title="` + full + `">2025-11-…ad2e-7c1b-7d4a.jsonl:825</td>`
	if !strings.Contains(page, cell) {
		t.Errorf("no cell %s", cell)
	}
	if got := strings.Count(page, sessionDir); got != 453+len(listed)+1 {
		t.Errorf("the directory appears %d times, want once in the title of each row of the two tables and of the largest request", got)
	}
}

// checkTurnsThatMatter checks the list of the turns that matter on the
// page of a long conversation and returns its rows.
func checkTurnsThatMatter(t *testing.T, cv *measure.Conversation, page string) []string {
	t.Helper()
	// The turns that matter: the five breaks and the ten most expensive
	// turns after the rules (none of them unpriced), then every turn
	// folded away.
	wantWhy := map[int][]string{}
	var priced []measure.ConvTurn
	for _, turn := range cv.Turns {
		if turn.Before.Break != nil {
			wantWhy[turn.Turn] = append(wantWhy[turn.Turn], "break before")
		}
		if b := turn.After.Break; b != nil {
			wantWhy[turn.Turn] = append(wantWhy[turn.Turn], "break after ("+b.Rule+")")
		}
		if turn.After.Cost != nil {
			priced = append(priced, turn)
		}
	}
	sort.SliceStable(priced, func(i, j int) bool { return *priced[i].After.Cost > *priced[j].After.Cost })
	for k, turn := range priced[:10] {
		wantWhy[turn.Turn] = append(wantWhy[turn.Turn], fmt.Sprintf("cost #%d", k+1))
	}
	var want []string
	for _, turn := range cv.Turns {
		if w, ok := wantWhy[turn.Turn]; ok {
			want = append(want, fmt.Sprintf("%d %s", turn.Turn, strings.Join(w, "; ")))
		}
	}
	matter := page[strings.Index(page, "<h2>Turns that matter</h2>"):strings.Index(page, `<details id="all-turns">`)]
	var listed []string
	for _, r := range regexp.MustCompile(`<tr><td>(\d+)</td><td class="name">([^<]*)</td>`).FindAllStringSubmatch(matter, -1) {
		listed = append(listed, r[1]+" "+r[2])
	}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Errorf("turns that matter:\n%s\nwant\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	if len(want) < 14 || !strings.Contains(strings.Join(want, "\n"), "2 break after (SO998); cost #") {
		t.Fatalf("the synthetic conversation no longer has the breaks and costs the test expects: %q", want)
	}
	return listed
}

// TestHTMLUnpriced: without any price the headline counts tokens and the
// page says why there is no cost chart.
func TestHTMLUnpriced(t *testing.T) {
	cv := longConversation(30)
	for i := range cv.Turns {
		t := &cv.Turns[i]
		t.Model, t.Price, t.Before.Cost, t.After.Cost = "my-own-claude", nil, nil, nil
	}
	cv.Total = measure.ConvTotal{}
	total(cv)
	page := htmlOf(t, cv)
	want := `<span class="figure">` + arrow(cv.Total.Before.Input, cv.Total.After.Input) + `</span> input tokens`
	if !strings.Contains(page, want) {
		t.Errorf("headline lacks %q", want)
	}
	if strings.Contains(page, `id="cost"`) || !strings.Contains(page, "No turn has a price, so there is no cost to chart; 30 turns of my-own-claude have no price") {
		t.Error("an unpriced conversation draws a cost chart or does not say why it has none")
	}
	if !strings.Contains(page, "the 10 largest by input tokens after the rules") || !strings.Contains(page, "input #1") {
		t.Error("without prices the turns that matter are not ranked by tokens")
	}
}

// TestHTMLEscapesNames: a capture name is untrusted in the cell, the
// title and the chart.
func TestHTMLEscapesNames(t *testing.T) {
	cv := longConversation(20)
	cv.Turns[19].Capture = `/tmp/"><script>alert(1)</script>/x.jsonl:3`
	cv.Largest.Capture = cv.Turns[19].Capture
	page := htmlOf(t, cv)
	if strings.Contains(page, "<script") || !strings.Contains(page, `title="/tmp/&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/x.jsonl:3"`) {
		t.Errorf("a hostile capture name is not escaped")
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"turn-1.json": "turn-1.json",
		"/work/shared/corpus/provider-examples/pi/pi-mono-fixture_session-v1_large-session.jsonl:1019": "pi-mono-…_large-session.jsonl:1019",
		"/work/shared/corpus/provider-examples/pi/pi-mono-fixture_session-v1_large-session.jsonl:3":    "pi-mono-…_large-session.jsonl:3",
		`C:\captures\run.har#12`:  "run.har#12",
		"dir/requests.jsonl#3:12": "requests.jsonl#3:12",
		"a/b/":                    "a/b/",
		"/x/a-very-long-name-that-ends-in-digits-2025":    "a-very-l…-ends-in-digits-2025",
		"/x/ééééééééééééééééééééééééééééééééééééé.json#4": "éééééééé…ééééééééééééééé.json#4",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTurnChartFits: at any length the bars fit the chart, a bar each
// while there is room.
func TestTurnChartFits(t *testing.T) {
	for _, c := range []struct{ n, per int }{{1, 1}, {124, 1}, {125, 2}, {248, 2}, {249, 5}, {453, 5}, {500, 5}, {1000, 10}, {2600, 25}, {100000, 1000}} {
		per := turnsPerBar(c.n)
		bars := (c.n + per - 1) / per
		if per != c.per || bars*minGroup > chartRight-chartLeft {
			t.Errorf("turnsPerBar(%d) = %d (%d bars), want %d", c.n, per, bars, c.per)
		}
	}
	for top, want := range map[float64]string{205159: "0 50000 100000 150000 200000", 18.3: "0 5 10 15", 0.0019: "0 0.0005 0.001 0.0015", 7: "0 2 4 6", 1: "0 0.2 0.4 0.6 0.8 1", 25: "0 5 10 15 20 25", 3: "0 1 2 3"} {
		var got []string
		for _, v := range ticks(top) {
			got = append(got, strconv.FormatFloat(math.Round(v*1e9)/1e9, 'f', -1, 64))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("ticks(%v) = %v, want %s", top, got, want)
		}
	}
	for _, c := range []struct {
		v, step float64
		want    string
	}{{10, 5, "$10"}, {0.5, 0.25, "$0.50"}, {0.001, 0.0005, "$0.0010"}, {7.5, 2.5, "$7.5"}} {
		if got := dollars(c.v, c.step); got != c.want {
			t.Errorf("dollars(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

// TestReportsShowSameFigures: the figures of the page's headline and
// turn table are those of the text and Markdown reports, rounded alike,
// and the JSON report's unrounded.
func TestReportsShowSameFigures(t *testing.T) {
	cv := longConversation(453)
	tot := cv.Total
	var text, md, js bytes.Buffer
	if err := WriteConversationText(&text, cv); err != nil {
		t.Fatal(err)
	}
	if err := WriteConversationMarkdown(&md, cv); err != nil {
		t.Fatal(err)
	}
	if err := WriteConversationJSON(&js, cv); err != nil {
		t.Fatal(err)
	}
	page := htmlOf(t, cv)
	figures := []string{
		Cost(tot.Before.Cost) + " → " + Cost(tot.After.Cost),
		fmt.Sprintf("%s (%.2f %%)", Cost(tot.Saved), *tot.SavedPct),
		arrow(tot.Before.Input, tot.After.Input),
		Cost(cv.Turns[1].After.Break.Cost),
		Cost(cv.Turns[452].Before.Cost) + " → " + Cost(cv.Turns[452].After.Cost),
		arrow(cv.Turns[452].Before.Cached, cv.Turns[452].After.Cached),
	}
	for _, f := range figures {
		for name, report := range map[string]string{"html": page, "text": text.String(), "markdown": md.String()} {
			if !strings.Contains(report, f) {
				t.Errorf("the %s report lacks %q", name, f)
			}
		}
	}
	var back struct{ Conversation measure.Conversation }
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if b := back.Conversation.Total; Cost(b.Before.Cost) != Cost(tot.Before.Cost) || Cost(b.After.Cost) != Cost(tot.After.Cost) || b.PricedTurns != tot.PricedTurns {
		t.Errorf("the JSON report's total %+v differs from %+v", b, tot)
	}
}

// TestTurnsThatMatterCapsBreaks: a conversation that breaks its prefix on
// most turns lists the first breaks and says how many more the full
// table holds.
func TestTurnsThatMatterCapsBreaks(t *testing.T) {
	cv := longConversation(120)
	breaks := 0
	for i := range cv.Turns {
		turn := &cv.Turns[i]
		if i%2 == 1 {
			turn.Before.Break = &measure.Break{Pointer: "/messages/0"}
		}
		if turn.Before.Break != nil || turn.After.Break != nil {
			breaks++
		}
	}
	picked, why, more := turnsThatMatter(cv)
	if more != breaks-matterBreaks {
		t.Errorf("%d more, want %d", more, breaks-matterBreaks)
	}
	listedBreaks := 0
	for _, p := range picked {
		if strings.Contains(why[p.Turn], "break") {
			listedBreaks++
		}
	}
	if listedBreaks != matterBreaks {
		t.Errorf("%d breaks listed, want %d", listedBreaks, matterBreaks)
	}
	if page := htmlOf(t, cv); !strings.Contains(page, fmt.Sprintf(" %d more turn(s) with a prefix break are in the full table only.", breaks-matterBreaks)) {
		t.Error("the page does not say how many breaks it leaves out")
	}
}
