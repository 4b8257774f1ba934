package measure

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillopt/skillopt/measure/cache"
)

// TestConverseAllSharedHead: two conversations share their tool
// declarations and system prompt; the second reads them from the cache
// the first wrote, as the provider keys its cache by prefix. A rule that
// changes the second conversation's tools loses that read, which the
// second conversation measured alone does not show. Past the cache's
// lifetime there is nothing to read.
func TestConverseAllSharedHead(t *testing.T) {
	system := longText("The system prompt", 6000)
	a := anthropicTurns(2, system)
	b := anthropicTurns(2, system)
	for i := range b {
		b[i].Messages[0].Content[0].Text = longText("Another person asks", 900)
	}
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	build := func(bodies []aBody, name string, start time.Duration, rewrite bool) []Request {
		var out []Request
		for i, body := range bodies {
			c := readBody(t, name, body)
			res := unchanged(c)
			if rewrite {
				// A per-conversation rule: the first tool is gone.
				body.Tools = body.Tools[1:]
				res.Final = readBody(t, name, body)
			}
			out = append(out, Request{Name: name, Result: res, Vendor: "anthropic", Model: body.Model, Time: t0.Add(start + time.Duration(i)*time.Minute), seq: i})
		}
		return out
	}
	opts := ConversationOptions{Counter: quarters{}, Encoding: "test-quarter-bytes"}
	for _, tc := range []struct {
		name  string
		start time.Duration
		cross bool
	}{{"within the lifetime", 3 * time.Minute, true}, {"past the lifetime", 30 * time.Minute, false}} {
		t.Run(tc.name, func(t *testing.T) {
			ra, rb := build(a, "a.json", 0, false), build(b, "b.json", tc.start, true)
			for i := range rb {
				rb[i].seq = len(ra) + i
			}
			convs, err := ConverseAll([]string{"a.json", "b.json"}, [][]Request{ra, rb}, opts)
			if err != nil {
				t.Fatal(err)
			}
			alone := converse(t, build(b, "b.json", tc.start, true), opts)
			first := convs[1].Turns[0]
			if !tc.cross {
				if first.Cross != nil || first.Before.Cached != 0 {
					t.Fatalf("read another conversation's cache past its lifetime: %+v %+v", first.Cross, first.Before)
				}
				if *convs[1].Total.Before.Cost != *alone.Total.Before.Cost {
					t.Errorf("past the lifetime the pool changes the cost: %v, alone %v", *convs[1].Total.Before.Cost, *alone.Total.Before.Cost)
				}
				return
			}
			if alone.Turns[0].Before.Cached != 0 {
				t.Fatalf("alone, the first turn reads %d tokens", alone.Turns[0].Before.Cached)
			}
			if first.Before.Cached == 0 || first.Cross == nil || first.Cross.Before == nil {
				t.Fatalf("the shared head is not read: %+v %+v", first.Before, first.Cross)
			}
			if x := first.Cross.Before; x.Conversation != "a.json" || x.Read != first.Before.Cached {
				t.Errorf("cross read %+v, want from a.json, %d tokens", x, first.Before.Cached)
			}
			if first.After.Cached != 0 || first.Cross.After != nil {
				t.Errorf("after the rule the head is still read: %+v %+v", first.After, first.Cross.After)
			}
			before, after := *convs[1].Total.Before.Cost, *convs[1].Total.After.Cost
			if after <= before {
				t.Errorf("the rule's lost read does not show: $%v → $%v", before, after)
			}
			if ab, aa := *alone.Total.Before.Cost, *alone.Total.After.Cost; aa > ab {
				t.Errorf("alone the conversation was expected to look cheaper after the rule: $%v → $%v", ab, aa)
			}
			if n := strings.Join(convs[1].Notes, "\n"); !strings.Contains(n, "from the cache of a.json (turn 2)") {
				t.Errorf("notes do not say where the turn read: %s", n)
			}
			if convs[0].Turns[0].Cross != nil {
				t.Errorf("the first conversation reads a later one's cache")
			}
		})
	}
}

// TestConverseAllKeepsTurnOrder: a conversation whose requests' times run
// out of the input's order (a request started a moment before the one
// listed ahead of it) is accounted in its own order, as Converse accounts
// it: the pool orders conversations among each other, not the turns of one.
func TestConverseAllKeepsTurnOrder(t *testing.T) {
	bodies := anthropicTurns(4, longText("The system prompt", 3000))
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	var reqs []Request
	for i, body := range bodies {
		c := readBody(t, "a.json", body)
		at := t0.Add(time.Duration(i) * time.Second)
		if i == 2 {
			at = t0.Add(time.Second - time.Millisecond) // before request 1
		}
		reqs = append(reqs, Request{Name: "a.json", Result: unchanged(c), Vendor: "anthropic", Model: body.Model, Time: at, seq: i})
	}
	opts := ConversationOptions{Counter: quarters{}, Encoding: "test-quarter-bytes"}
	convs, err := ConverseAll([]string{"a.json"}, [][]Request{reqs}, opts)
	if err != nil {
		t.Fatal(err)
	}
	alone := converse(t, reqs, opts)
	for k := range alone.Turns {
		got, want := convs[0].Turns[k], alone.Turns[k]
		if got.Before.Cached != want.Before.Cached || got.Before.Written != want.Before.Written {
			t.Errorf("turn %d: cached %d written %d, alone %d and %d", k+1, got.Before.Cached, got.Before.Written, want.Before.Cached, want.Before.Written)
		}
	}
}

// TestPoolForeignByFirstBlock: the entries of other conversations are
// looked up by their first block when one starts like the request, or
// when the request shares a block with its own conversation; a request
// that shares no block with anything is compared with every entry, as a
// prefix cache may still read the start of its first block.
func TestPoolForeignByFirstBlock(t *testing.T) {
	lay := func(first byte) *layout { return &layout{chain: [][32]byte{{first}, {first, 1}}} }
	p := &pool{}
	r := &Request{Vendor: "openai", Model: "gpt-4.1"}
	p.add(0, 0, r, lay('a'), lay('a'), cache.Turn{}, cache.Turn{})
	p.add(1, 0, r, lay('b'), lay('b'), cache.Turn{}, cache.Turn{})
	p.add(2, 0, r, lay('a'), lay('x'), cache.Turn{}, cache.Turn{})
	convs := func(es []*poolEntry) []int {
		var out []int
		for _, e := range es {
			out = append(out, e.conv)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		conv      int
		first     byte
		side      int
		ownShares bool
		want      []int
	}{
		{"starts like two entries", 3, 'a', 0, false, []int{0, 2}},
		{"its own conversation left out", 0, 'a', 0, false, []int{2}},
		{"the side's own first block", 3, 'a', 1, false, []int{0}},
		{"shares with its own conversation only", 1, 'b', 0, true, nil},
		{"shares with nothing: every entry", 1, 'b', 0, false, []int{0, 2}},
		{"an unknown first block: every entry", 3, 'z', 0, false, []int{0, 1, 2}},
	} {
		_, _, es := p.foreign(tc.conv, r.Vendor, r.Model, r.Time, tc.side, lay(tc.first), tc.ownShares)
		if got := convs(es); !slices.Equal(got, tc.want) {
			t.Errorf("%s: conversations %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestConverseAllLaysOutAhead: the conversations laid out ahead on several
// workers are accounted for exactly as when each turn lays out its own
// request on one.
func TestConverseAllLaysOutAhead(t *testing.T) {
	system := longText("The system prompt", 6000)
	var names []string
	var reqs [][]Request
	seq := 0
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for c := range 5 {
		bodies := anthropicTurns(3, system)
		for i := range bodies {
			bodies[i].Messages[0].Content[0].Text = longText(strings.Repeat("person ", c+1), 900)
		}
		name := string(rune('a'+c)) + ".json"
		var rs []Request
		for i, body := range bodies {
			rs = append(rs, Request{Name: name, Result: unchanged(readBody(t, name, body)), Vendor: "anthropic", Model: body.Model, Time: t0.Add(time.Duration(c*3+i) * time.Minute), seq: seq})
			seq++
		}
		names, reqs = append(names, name), append(reqs, rs)
	}
	run := func(jobs int) string {
		opts := ConversationOptions{Counter: quarters{}, Encoding: "test-quarter-bytes", Jobs: jobs}
		convs, err := ConverseAll(names, reqs, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(convs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	one, four := run(1), run(4)
	if one != four {
		t.Fatalf("laid out ahead on 4 workers:\n%s\non 1:\n%s", four, one)
	}
	if !strings.Contains(one, `"cross_conversation"`) {
		t.Fatalf("no conversation read another's cache; the test shows nothing:\n%s", one)
	}
}
