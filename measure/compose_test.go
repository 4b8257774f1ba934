package measure

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/skillopt/skillopt/rules"
)

func TestShareOut(t *testing.T) {
	for _, c := range []struct {
		counts []int
		total  int
		want   []int
	}{
		{[]int{1, 1, 1}, 10, []int{4, 3, 3}},
		{[]int{2, 0, 6}, 4, []int{1, 0, 3}},
		{[]int{0, 0, 0}, 5, []int{0, 0, 5}},
		{[]int{3, 5}, 0, []int{0, 0}},
		{[]int{1, 2}, 3, []int{1, 2}},
	} {
		got := shareOut(c.counts, c.total)
		if !slices.Equal(got, c.want) {
			t.Errorf("shareOut(%v, %d) = %v, want %v", c.counts, c.total, got, c.want)
		}
	}
}

// TestCachedSections: every turn of the golden conversation has the
// composition of what it read from the cache, and its sections add up to
// its read.
func TestCachedSections(t *testing.T) {
	cv := goldenConversation(t)
	for _, turn := range cv.Turns {
		p := turn.Cached
		if p == nil {
			t.Fatalf("turn %d has no cached prefix", turn.Turn)
		}
		sum := 0
		for _, s := range p.Sections {
			sum += s.Tokens
		}
		if sum != p.Read || p.Read != turn.Bill.Read {
			t.Errorf("turn %d: sections sum to %d, read %d, cache read %d", turn.Turn, sum, p.Read, turn.Bill.Read)
		}
	}
	if cv.Cached == nil || cv.Cached.Turns != 3 || cv.Cached.Read != cv.Bill.Read {
		t.Errorf("conversation: %+v", cv.Cached)
	}
}

// TestTopRules: the third turn of the golden conversation comes ten
// minutes after the second and reads nothing, an avoidable ttl-expired
// event; the test rule changes that turn, and the bill says what the
// rules would make of it.
func TestTopRules(t *testing.T) {
	reqs := ttlRequests(t)
	cv := converse(t, reqs, ConversationOptions{})
	b := cv.Bill
	if len(b.Top) != 1 || b.Top[0].Turn != 3 || b.Top[0].Kind != EventTTL {
		t.Fatalf("top events %+v, want turn 3 ttl-expired", b.Top)
	}
	r := b.TopRules
	if r == nil || r.Changed != 1 || !slices.Equal(r.Turns, []int{3}) {
		t.Fatalf("top rules %+v, want turn 3 changed", r)
	}
	turn := cv.Turns[2]
	if *r.Before != *turn.Before.Cost || *r.After != *turn.After.Cost || *r.Saved != *turn.Before.Cost-*turn.After.Cost {
		t.Errorf("top rules %v → %v saving %v, turn 3 %v → %v", *r.Before, *r.After, *r.Saved, *turn.Before.Cost, *turn.After.Cost)
	}
	// Without rules nothing changes.
	for i := range reqs {
		reqs[i].Result = unchanged(reqs[i].Result.Original)
	}
	cv = converse(t, reqs, ConversationOptions{})
	if cv.Bill.TopRules != nil {
		t.Errorf("no rules, top rules %+v", cv.Bill.TopRules)
	}
}

// ttlRequests are the golden conversation's requests through the test
// rule, the third ten minutes after the second and reading nothing from
// the cache.
func ttlRequests(t *testing.T) []Request {
	t.Helper()
	pipeline := []*rules.Rule{trimSystem}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var reqs []Request
	for i, b := range anthropicTurns(3, longText("The coding agent", 6000)) {
		c := readBody(t, fmt.Sprintf("turn-%d.json", i+1), b)
		res, err := rules.Run(c, pipeline, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := Request{Name: c.Name, Result: res, Vendor: "anthropic", Model: "claude-sonnet-4-5", Time: start.Add(time.Duration(i*i) * 5 * time.Minute / 2)}
		if i == 2 {
			r.Usage = ResponseUsage([]byte(`{"type":"message","usage":{"input_tokens":12,"cache_read_input_tokens":0,"cache_creation_input_tokens":3500,"output_tokens":150}}`))
		}
		reqs = append(reqs, r)
	}
	return reqs
}
