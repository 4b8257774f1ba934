package measure

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/measure/units"
)

// The bill of a conversation: for every turn, what the prompt cache did
// (the provider's usage where the capture has it, else the prediction
// before the rules) and why, as a cache event with the cost it added over
// a cache hit of the same prefix.

// The kinds of cache event (CacheEvent.Kind).
const (
	// EventColdStart: the first request of a chain.
	EventColdStart = "cold-start"
	// EventTTL: the pause since the chain's previous request outlived
	// the cache.
	EventTTL = "ttl-expired"
	// EventPrefix: the request departs from the chain's previous one
	// inside what that one had cached.
	EventPrefix = "prefix-changed"
	// EventModel: the conversation went on with another model, whose
	// cache is its own.
	EventModel = "model-changed"
	// EventCompaction: the first request after the host compacted the
	// conversation.
	EventCompaction = "compaction"
	// EventRetry: the same request as the chain's previous one.
	EventRetry = "retry"
	// EventMiss: the provider read less than the previous request had
	// cached, within the lifetime, with no cause the capture shows.
	EventMiss = "unexplained-miss"
	// EventGrowth: a cache hit, with what the conversation added written.
	EventGrowth = "growth"
)

// avoidable are the kinds of event that a client could have prevented.
var avoidable = map[string]bool{EventTTL: true, EventPrefix: true, EventModel: true, EventRetry: true, EventMiss: true}

// The cache lifetimes a request can be written with.
const (
	ttlShort = 5 * time.Minute
	ttlLong  = time.Hour
)

// CacheUse is one request's cache account: tokens read from the cache,
// written to it and billed in full, and what each cost at the model's
// prices.
type CacheUse struct {
	// Source is "provider" (its usage) or "predicted" (the prediction
	// before the rules).
	Source string `json:"source"`
	// HitRate is read / (uncached + read + written), in percent.
	HitRate   float64 `json:"hit_rate_pct"`
	Read      int     `json:"read"`
	Written   int     `json:"written"`
	Written1h int     `json:"written_1h,omitempty"`
	Uncached  int     `json:"uncached"`
	// The costs are null without a price.
	ReadCost     *float64 `json:"read_cost"`
	WriteCost    *float64 `json:"write_cost"`
	UncachedCost *float64 `json:"uncached_cost"`
}

// CacheEvent is what the cache did on one turn and why.
type CacheEvent struct {
	Kind string `json:"kind"`
	// Cost is what the event added over a cache hit of the same prefix:
	// re-written tokens at the write price and uncached ones at the
	// input price, each less the read price; null without a price.
	Cost   *float64 `json:"cost"`
	Detail string   `json:"detail"`
}

// ChainInfo is one prefix chain of a conversation: the requests to one
// model with one system prompt and set of tool declarations.
type ChainInfo struct {
	Chain int    `json:"chain"`
	Model string `json:"model"`
	// Role is "main" for the chain with the most input tokens, "side"
	// for the others (titles, summaries, checks a host sends beside the
	// conversation).
	Role  string `json:"role"`
	First int    `json:"first_turn"`
	Turns int    `json:"turns"`
	// Head is the tokens of its tool declarations and system prompt.
	Head int `json:"head_tokens"`
}

// Bill sums a conversation's cache accounts and ranks its avoidable
// events.
type Bill struct {
	// Source is "provider", "predicted" or "provider and predicted"
	// (some turns have usage, some do not).
	Source   string  `json:"source"`
	Read     int     `json:"read"`
	Written  int     `json:"written"`
	Uncached int     `json:"uncached"`
	Output   int     `json:"output"`
	HitRate  float64 `json:"hit_rate_pct"`
	// ReadToOutput is cache reads per output token, null without output.
	ReadToOutput *float64 `json:"read_to_output"`
	// Cost is over the priced turns; NoCache what they would have cost
	// with every prompt token at the input price; Saved the difference.
	Cost    *float64 `json:"cost"`
	NoCache *float64 `json:"cost_without_cache"`
	Saved   *float64 `json:"saved_by_cache"`
	// Events counts the turns of each kind.
	Events []EventCount `json:"events"`
	// Top are the most expensive avoidable events (at most five),
	// TopCost their sum and TopPct its share of Cost; AvoidableCost sums
	// every avoidable event.
	Top           []TopEvent `json:"top_avoidable"`
	TopCost       *float64   `json:"top_avoidable_cost"`
	TopPct        *float64   `json:"top_avoidable_pct"`
	AvoidableCost *float64   `json:"avoidable_cost"`
	// TopRules is what the configured rules make of the turns of Top,
	// null when they change none of them.
	TopRules *TopRules `json:"top_rules"`
}

// TopRules compares the turns of the most expensive avoidable events
// before and after the rules, as predicted: the rules change the prompt
// of Changed of them (Turns, in turn order), which cost Before and would
// cost After,
// saving Saved (negative where the rules' own prefix changes cost more).
type TopRules struct {
	Turns   []int    `json:"turns"`
	Before  *float64 `json:"before"`
	After   *float64 `json:"after"`
	Saved   *float64 `json:"saved"`
	Changed int      `json:"changed"`
}

// EventCount is how many turns had an event of a kind.
type EventCount struct {
	Kind  string `json:"kind"`
	Turns int    `json:"turns"`
}

// TopEvent is one of the most expensive avoidable events.
type TopEvent struct {
	Turn   int      `json:"turn"`
	Chain  int      `json:"chain"`
	Kind   string   `json:"kind"`
	Cost   *float64 `json:"cost"`
	Detail string   `json:"detail"`
}

// explain fills in every turn's chain, cache account and event, the
// conversation's chains and its bill. before are the turns' layouts as
// captured, counted.
func explain(tc *tokenCache, cv *Conversation, reqs []Request, before []*layout) {
	type chainState struct {
		info *ChainInfo
		last int // the turn index of its latest request
	}
	byKey := map[[32]byte]*chainState{}
	var chains []*chainState
	ofTurn := make([]*chainState, len(cv.Turns))
	uses := make([]*CacheUse, len(cv.Turns))
	for k := range cv.Turns {
		t := &cv.Turns[k]
		r := &reqs[k]
		l := before[k]
		use := cacheUse(t)
		uses[k] = use
		t.Bill = use
		t.Cached = cachedSections(tc, l, use)
		key := chainKeyOf(l, r.Vendor, r.Model)
		st := byKey[key]
		prev := -1
		kind, detail := "", ""
		if st != nil {
			prev = st.last
		} else if q := k - 1; q >= 0 && r.Compaction {
			prev = q
			kind = EventCompaction
			detail = fmt.Sprintf("the conversation was compacted after turn %d", k)
			if !sameModel(reqs[q].Model, r.Model) {
				detail += fmt.Sprintf(", and went on with %s after %s", r.Model, reqs[q].Model)
			}
		} else if q := k - 1; q >= 0 && sharesHistory(before[q], l) {
			// The conversation goes on under another model or another
			// head: the same history, its own cache.
			prev = q
			if !sameModel(reqs[q].Model, r.Model) {
				kind = EventModel
				detail = fmt.Sprintf("%s after %s on turn %d; each model has its own cache", r.Model, reqs[q].Model, q+1)
			} else {
				kind = EventPrefix
				detail = departure(l, before[q], q+1)
				st = ofTurn[q]
				delete(byKey, chainKeyOf(before[q], reqs[q].Vendor, reqs[q].Model))
				byKey[key] = st
			}
		}
		if st == nil {
			st = &chainState{info: &ChainInfo{Chain: len(chains) + 1, Model: r.Model, First: k + 1, Head: headTokens(l)}}
			chains = append(chains, st)
			byKey[key] = st
		}
		st.info.Turns++
		ofTurn[k] = st
		t.Chain = st.info.Chain
		ev := &CacheEvent{}
		switch {
		case prev < 0:
			ev.Kind = EventColdStart
			ev.Detail = coldDetail(tc, k, st.info, l, r, reqs, before)
			ev.Cost = eventCost(t.Price, use.Written, use.Uncached)
		default:
			ev.Kind, ev.Detail, ev.Cost = turnEvent(k, prev, kind, detail, cv.Turns, reqs, before, uses)
		}
		t.Event = ev
		st.last = k
	}
	main := 0
	input := make([]int, len(chains))
	for _, t := range cv.Turns {
		input[t.Chain-1] += t.Before.Input
		if input[t.Chain-1] > input[main] {
			main = t.Chain - 1
		}
	}
	cv.Chains = make([]ChainInfo, len(chains))
	for i, st := range chains {
		st.info.Role = "side"
		if i == main {
			st.info.Role = "main"
		}
		cv.Chains[i] = *st.info
	}
	cv.Bill = bill(cv)
	cv.Cached = sumSections(cv.Turns)
}

// turnEvent explains a turn whose chain had an earlier request, prev.
// kind and detail are set when the turn already continues the history
// under another model or head.
func turnEvent(k, prev int, kind, detail string, turns []ConvTurn, reqs []Request, before []*layout, uses []*CacheUse) (string, string, *float64) {
	t, p := &turns[k], &turns[prev]
	use, pu := uses[k], uses[prev]
	held := pu.Read + pu.Written // what the previous request left cached
	lost := max(held-use.Read, 0)
	// A request the provider reported nothing for (failed, aborted) is
	// predicted: it says nothing of what the provider's cache held.
	miss := held > 0 && lost > max(held/10, 256) && !(use.Source == "predicted" && pu.Source == "provider")
	cost := func() *float64 {
		rewritten := min(use.Written, lost)
		return eventCost(t.Price, rewritten, min(use.Uncached, lost-rewritten))
	}
	gap, timed := time.Duration(0), !reqs[k].Time.IsZero() && !reqs[prev].Time.IsZero()
	if timed {
		gap = reqs[k].Time.Sub(reqs[prev].Time)
	}
	ttl := ttlShort
	if pu.Written1h > 0 || p.Before.Written1h > 0 && pu.Source == "predicted" {
		ttl = ttlLong
	}
	l, pl := before[k], before[prev]
	switch {
	case kind != "":
		return kind, detail, cost()
	case reqs[k].Compaction:
		return EventCompaction, fmt.Sprintf("the conversation was compacted after turn %d; %s tokens written again", prev+1, units.Thousands(use.Written)), cost()
	case len(l.blocks) > 0 && len(l.blocks) == len(pl.blocks) && sharedBlocks(pl, l) == len(l.blocks) &&
		(miss || reqs[prev].Usage == nil && reqs[k].Usage != nil):
		// The same request again, after one that failed or whose cache
		// entry it did not find; a client that repeats a request on
		// purpose (a quota check) and reads what it can is growth.
		return EventRetry, fmt.Sprintf("the same request as turn %d, sent again", prev+1), cost()
	case timed && gap > ttl && (miss || use.Source == "predicted" && use.Read > 0):
		d := fmt.Sprintf("%s after turn %d, past the %s cache lifetime", pause(gap), prev+1, pause(ttl))
		if !miss {
			// The prediction assumes the entry lived: it did not.
			lost = use.Read
			d += fmt.Sprintf("; the prediction reads %s tokens the provider would write again", units.Thousands(use.Read))
			c := eventCost(t.Price, lost, 0)
			return EventTTL, d, c
		}
		return EventTTL, d + fmt.Sprintf("; %s of %s cached tokens read", units.Thousands(use.Read), units.Thousands(held)), cost()
	case !miss:
		d := fmt.Sprintf("%s tokens read, %s written", units.Thousands(use.Read), units.Thousands(use.Written))
		if use.Uncached > 0 {
			d += fmt.Sprintf(", %s uncached", units.Thousands(use.Uncached))
		}
		return EventGrowth, d, eventCost(t.Price, use.Written, use.Uncached)
	}
	if known(l) && known(pl) {
		if _, _, broke := divergence(pl, l); broke {
			return EventPrefix, departure(l, pl, prev+1), cost()
		}
	}
	when := ""
	if timed {
		when = fmt.Sprintf(", %s after it, within the %s lifetime", pause(gap), pause(ttl))
	}
	d := fmt.Sprintf("read %s of the %s tokens turn %d left cached%s", units.Thousands(use.Read), units.Thousands(held), prev+1, when)
	if known(l) {
		d += "; the requests share that prefix: the provider did not find its entry"
	} else {
		d += "; the file does not hold the request: record the session with `skillopt record` to see the cause"
	}
	return EventMiss, d, cost()
}

// coldDetail describes the first request of a chain and, when an earlier
// request went to the same model (in this conversation or, Lead, another
// one among the inputs), where this one departs from it.
func coldDetail(tc *tokenCache, k int, ci *ChainInfo, l *layout, r *Request, reqs []Request, before []*layout) string {
	d := fmt.Sprintf("first request of chain %d (%s", ci.Chain, ModelText(r.Model))
	if ci.Head > 0 {
		d += fmt.Sprintf(", %s tokens of tools and system prompt", units.Thousands(ci.Head))
	}
	d += ")"
	for q := k - 1; q >= 0; q-- {
		if sameModel(reqs[q].Model, r.Model) && reqs[q].Vendor == r.Vendor {
			return d + "; " + departure(l, before[q], q+1)
		}
	}
	if r.Lead != nil && known(l) {
		pl := newLayout(r.Lead)
		tc.count(pl)
		return d + "; " + departureFrom(l, pl, "the request before it to this model ("+r.Lead.Name+")")
	}
	return d
}

// departure says where l departs from the layout of turn n.
func departure(l, prev *layout, n int) string {
	return departureFrom(l, prev, fmt.Sprintf("turn %d", n))
}

func departureFrom(l, prev *layout, what string) string {
	blk, off, broke := divergence(prev, l)
	if !broke {
		return "extends " + what
	}
	at := 0
	node := capture.Node(0)
	if blk < len(l.blocks) {
		at = l.bodyOffset(blk, off)
		node = nodeAt(l.c.Doc, at)
	} else if len(l.blocks) > 0 {
		at = l.blocks[len(l.blocks)-1].End
	}
	first := partOf(l, blk, at)
	s := fmt.Sprintf("departs from %s at %s, byte %s (%s)", what, PointerText(l.c.Doc.Pointer(node)), units.Thousands(at), first)
	if parts := differing(prev, l); len(parts) > 0 {
		for i, p := range parts {
			// Where a head part that is not the first departure departs
			// too: a side request's own system prompt behind its own
			// tools.
			if p != first && p != "history" {
				if where := partDeparture(prev, l, map[string]string{"tools": "tool", "system prompt": "system"}[p]); where != "" {
					parts[i] += " (from " + where + ")"
				}
			}
		}
		verb := " differ"
		if len(parts) == 1 {
			verb = " differs"
		}
		s += "; " + strings.Join(parts, ", ") + verb
	}
	return s
}

// partOf names the part of the prompt block blk of l belongs to.
func partOf(l *layout, blk, at int) string {
	if blk >= len(l.blocks) {
		return "history"
	}
	switch l.blocks[blk].Mark {
	case "tool":
		return "tools"
	case "system":
		k := sort.Search(len(l.segs), func(k int) bool { return l.segs[k].End > at })
		if k < len(l.segs) && l.segs[k].Start <= at && l.segs[k].Kind == capture.SecCatalog {
			return "skills"
		}
		return "system prompt"
	}
	return "history"
}

// differing names the parts (tools, system prompt, history) in which two
// requests differ.
func differing(a, b *layout) []string {
	var out []string
	for _, part := range []string{"tool", "system"} {
		if !equalBlocks(a, b, part) {
			out = append(out, map[string]string{"tool": "tools", "system": "system prompt"}[part])
		}
	}
	ha, hb := head(a), head(b)
	if len(a.blocks) > ha && len(b.blocks) > hb && a.blocks[ha].hash != b.blocks[hb].hash {
		out = append(out, "history")
	}
	return out
}

// partDeparture says where b's blocks of one mark (tool, system) first
// differ from a's, "pointer, byte N"; "" when they do not.
func partDeparture(a, b *layout, mark string) string {
	var x, y []int
	for i, bl := range a.blocks {
		if bl.Mark == mark {
			x = append(x, i)
		}
	}
	for i, bl := range b.blocks {
		if bl.Mark == mark {
			y = append(y, i)
		}
	}
	for k, j := range y {
		if k < len(x) && a.blocks[x[k]].hash == b.blocks[j].hash {
			continue
		}
		off := 0
		if k < len(x) {
			na, nb := a.norm(x[k]), b.norm(j)
			for off < len(na) && off < len(nb) && na[off] == nb[off] {
				off++
			}
		}
		at := b.bodyOffset(j, off)
		return fmt.Sprintf("%s, byte %s", PointerText(b.c.Doc.Pointer(nodeAt(b.c.Doc, at))), units.Thousands(at))
	}
	return ""
}

func equalBlocks(a, b *layout, mark string) bool {
	var x, y [][32]byte
	for _, bl := range a.blocks {
		if bl.Mark == mark {
			x = append(x, bl.hash)
		}
	}
	for _, bl := range b.blocks {
		if bl.Mark == mark {
			y = append(y, bl.hash)
		}
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// head counts the leading blocks of tool declarations and system prompt.
func head(l *layout) int {
	n := 0
	for n < len(l.blocks) && (l.blocks[n].Mark == "tool" || l.blocks[n].Mark == "system") {
		n++
	}
	return n
}

func headTokens(l *layout) int {
	if h := head(l); h > 0 {
		return l.ends[h-1]
	}
	return 0
}

// chainKeyOf identifies a request's chain: its model and its head.
func chainKeyOf(l *layout, vendor, model string) [32]byte {
	h := sha256.New()
	h.Write([]byte(vendor + "\x00" + price.Normalize(model) + "\x00"))
	if n := head(l); n > 0 {
		h.Write(l.chain[n-1][:])
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// sharesHistory reports whether b's messages start with a's first one.
func sharesHistory(a, b *layout) bool {
	ha, hb := head(a), head(b)
	return len(a.blocks) > ha && len(b.blocks) > hb && a.blocks[ha].hash == b.blocks[hb].hash
}

// known reports whether a layout is the request as sent (not one rebuilt
// from a session file, which lacks the system prompt and tools).
func known(l *layout) bool {
	return l.c.Session == nil && l.c.Envelope != capture.EnvPiSession && l.c.Provider != capture.PiMessages
}

// ModelText names a model in prose: "unnamed model" for a request that
// names none.
func ModelText(m string) string {
	if m == "" {
		return "unnamed model"
	}
	return m
}

// PointerText writes a JSON pointer in prose: "(root)" for the whole body.
func PointerText(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

// pause writes a duration to the second: "7m12s", "1h0m5s", "40s".
func pause(d time.Duration) string {
	return d.Round(time.Second).String()
}

// cacheUse is a turn's cache account: the provider's usage, else the
// prediction before the rules.
func cacheUse(t *ConvTurn) *CacheUse {
	u := &CacheUse{Source: "predicted", Read: t.Before.Cached, Written: t.Before.Written, Written1h: t.Before.Written1h, Uncached: t.Before.Uncached}
	if x := t.Usage; x != nil {
		u = &CacheUse{Source: "provider", Read: x.Cached, Written: x.Written, Written1h: x.Written1h, Uncached: x.Uncached}
	}
	if all := u.Read + u.Written + u.Uncached; all > 0 {
		u.HitRate = units.Round(float64(u.Read)*100/float64(all), 2)
	}
	if pr := t.Price; pr != nil {
		r := float64(u.Read) * pr.CacheRead / 1e6
		w := (float64(u.Written-u.Written1h)*pr.CacheWrite + float64(u.Written1h)*pr.CacheWrite1h) / 1e6
		n := float64(u.Uncached) * pr.Input / 1e6
		u.ReadCost, u.WriteCost, u.UncachedCost = &r, &w, &n
	}
	return u
}

// eventCost is what written and uncached tokens cost over reading them.
func eventCost(pr *price.Price, written, uncached int) *float64 {
	if pr == nil {
		return nil
	}
	c := (float64(written)*max(pr.CacheWrite-pr.CacheRead, 0) + float64(uncached)*max(pr.Input-pr.CacheRead, 0)) / 1e6
	return &c
}

// bill sums the turns' cache accounts and ranks the avoidable events.
func bill(cv *Conversation) *Bill {
	b := &Bill{Top: []TopEvent{}}
	sources := map[string]bool{}
	var cost, noCache, avoid float64
	priced := false
	counts := map[string]int{}
	var top []TopEvent
	for _, t := range cv.Turns {
		u := t.Bill
		sources[u.Source] = true
		b.Read += u.Read
		b.Written += u.Written
		b.Uncached += u.Uncached
		out := 0
		if t.Usage != nil {
			out = t.Usage.Output
		} else if t.Before.Output != nil {
			out = *t.Before.Output
		}
		b.Output += out
		counts[t.Event.Kind]++
		if t.Price == nil {
			continue
		}
		priced = true
		cost += *u.ReadCost + *u.WriteCost + *u.UncachedCost + float64(out)*t.Price.Output/1e6
		noCache += float64(u.Read+u.Written+u.Uncached)*t.Price.Input/1e6 + float64(out)*t.Price.Output/1e6
		if avoidable[t.Event.Kind] && t.Event.Cost != nil && *t.Event.Cost > 0 {
			avoid += *t.Event.Cost
			top = append(top, TopEvent{Turn: t.Turn, Chain: t.Chain, Kind: t.Event.Kind, Cost: t.Event.Cost, Detail: t.Event.Detail})
		}
	}
	switch {
	case sources["provider"] && sources["predicted"]:
		b.Source = "provider and predicted"
	case sources["provider"]:
		b.Source = "provider"
	default:
		b.Source = "predicted"
	}
	if all := b.Read + b.Written + b.Uncached; all > 0 {
		b.HitRate = units.Round(float64(b.Read)*100/float64(all), 2)
	}
	if b.Output > 0 {
		r := units.Round(float64(b.Read)/float64(b.Output), 2)
		b.ReadToOutput = &r
	}
	for _, k := range []string{EventColdStart, EventGrowth, EventTTL, EventPrefix, EventModel, EventCompaction, EventRetry, EventMiss} {
		if counts[k] > 0 {
			b.Events = append(b.Events, EventCount{Kind: k, Turns: counts[k]})
		}
	}
	if !priced {
		return b
	}
	saved := noCache - cost
	b.Cost, b.NoCache, b.Saved, b.AvoidableCost = &cost, &noCache, &saved, &avoid
	sort.SliceStable(top, func(i, j int) bool { return *top[i].Cost > *top[j].Cost })
	top = top[:min(len(top), 5)]
	b.Top = top
	sum := 0.0
	for _, e := range top {
		sum += *e.Cost
	}
	b.TopCost = &sum
	if cost > 0 {
		p := units.Round(sum*100/cost, 2)
		b.TopPct = &p
	}
	b.TopRules = topRules(cv, top)
	return b
}

// topRules compares the turns of the top events before and after the
// rules; nil when the rules change none of them or one has no cost.
func topRules(cv *Conversation, top []TopEvent) *TopRules {
	tr := &TopRules{Turns: []int{}}
	var before, after float64
	for _, e := range top {
		t := cv.Turns[e.Turn-1]
		if t.Before.Cost == nil || t.After.Cost == nil {
			return nil
		}
		if !changedByRules(t) {
			continue
		}
		tr.Changed++
		tr.Turns = append(tr.Turns, e.Turn)
		before += *t.Before.Cost
		after += *t.After.Cost
	}
	if tr.Changed == 0 {
		return nil
	}
	sort.Ints(tr.Turns)
	saved := before - after
	tr.Before, tr.After, tr.Saved = &before, &after, &saved
	return tr
}

// changedByRules reports whether the rules changed what a turn sends or
// where its prefix breaks.
func changedByRules(t ConvTurn) bool {
	b, a := t.Before, t.After
	return b.Bytes != a.Bytes || b.Input != a.Input || b.Cached != a.Cached || (b.Break == nil) != (a.Break == nil)
}
