package output

import (
	"fmt"
	"math"
	"sort"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/cache"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// The recovery gate decides, once per request, whether the output rules
// that leave handles (SO301–SO304) act on it at all.
//
// A handle needs retrieve_output, and declaring it changes the tools, the
// front of every provider's cached prefix: the request that first declares
// it is written to the cache again from its start, at the cache write
// price, where it would have been read at a tenth of the input price. A
// host or proxy transforms every request of a conversation on its own, so
// the decision must come out the same for the same history on every turn,
// and once the rules act they must go on acting on every later turn
// (each request then repeats the previous one's reduced prefix).
//
// The gate is therefore a function of the request and the history it
// carries. It looks at every earlier request the history implies (a
// request ends where the model's answer to it starts) and at the current
// one, and opens on the first of them where what the rules save on that
// request alone pays for writing again what the request before it had
// cached:
//
//	(S − D) · (w + H·r) ≥ (w − r) · C
//
// S is the bytes the rules save on that request, D the bytes of the
// declaration (0 when the request declares retrieve_output already), C the
// bytes of the previous request that the provider's cache holds (0 when it
// holds none: no breakpoints, below the minimum, no documented cache), w
// the price of writing them again and r of reading them, and H the later
// turns whose saving may count (output.break_even_turns, 0 by default: the
// request pays for itself). S and C only grow along a conversation, but C
// can grow faster, so the gate stays open once any request opened it. A
// handle already in the history opens it too: the declaration came with
// it. Until the gate opens, the rules change nothing, and the request
// comes back byte for byte.

// replacement is what a rule puts in place of one tool result text.
type replacement struct {
	out, msg string
	// unkept: the replacement carries no handle and nothing is archived
	// (an overflow context memory has no room for).
	unkept bool
}

// planner returns what a rule would put in place of text, one of the texts
// of result r (ok false: the rule leaves it). Planners write nothing; some
// keep state over the results of one capture (dedup's first copies), so a
// planner is made for one walk over a capture's results in body order.
type planner func(r *toolResult, text string) (replacement, bool)

// planners are the rules that leave handles, by ID: each makes its planner
// for a pass with the rule's configured options.
var planners = map[string]func(p *rules.Pass, opts rules.Options) planner{
	"SO301": planSmart,
	"SO302": planColumnar,
	"SO303": planDedup,
	"SO304": planOverflow,
}

// claim is a text a rule replaces.
type claim struct {
	rule  string
	node  capture.Node // the string node, in the capture the gate decided on
	text  string
	rep   replacement
	saved int // bytes, as the body has them
	pos   int // offset in the prompt (tools, system, messages)
}

// gate is the decision for one request.
type gate struct {
	open bool
	// now says the gate opens on this request: what it changes differs
	// from what the previous request sent (the note says why that pays).
	now  bool
	note string
	// why says why a closed gate is closed.
	why string
	// on is the capture the gate decided on; claims are its rules' claims
	// there, by rule ID, in body order.
	on     *capture.Capture
	claims map[string][]claim
}

type gateKey struct{}

// gateOf returns the decision for the pass's request, made by the first
// output rule that asks on the capture it sees.
func gateOf(p *rules.Pass) *gate {
	return p.Shared(gateKey{}, func() any { return decide(p) }).(*gate)
}

// claimsFor returns what the pass's rule replaces in its capture: the
// gate's claims when it decided on this very capture, else the rule's own
// walk over it.
func (g *gate) claimsFor(p *rules.Pass) []claim {
	if g.on == p.Capture {
		return g.claims[p.Rule.ID]
	}
	pl := planners[p.Rule.ID](p, p.Options)
	var out []claim
	d := p.Capture.Doc
	for _, r := range passResults(p) {
		for _, t := range r.texts {
			if rep, ok := pl(&r, d.Str(t)); ok {
				out = append(out, claim{rule: p.Rule.ID, node: t, text: d.Str(t), rep: rep})
			}
		}
	}
	return out
}

// produce is the Run of a rule that leaves handles: it replaces what its
// planner claims when the gate is open, and declares retrieve_output with
// the first handle.
func produce(p *rules.Pass, idle string) error {
	decl := declaration(p)
	if !decl.usable(p) {
		p.Idle("retrieve_output cannot be declared in this request")
		return nil
	}
	if !archiving(p) {
		p.Idle("the archive is off, and nothing is reduced without keeping the original")
		return nil
	}
	g := gateOf(p)
	mine := g.claimsFor(p)
	if len(mine) == 0 {
		p.Idle("%s", idle)
		return nil
	}
	if !g.open {
		p.Idle("%s", g.why)
		return nil
	}
	d := p.Capture.Doc
	edits := make([]rules.Edit, 0, len(mine)+1)
	for _, cl := range mine {
		ptr := d.Pointer(cl.node)
		if cl.rep.unkept {
			edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(cl.rep.out), Message: cl.rep.msg})
			continue
		}
		if _, err := keep(p, cl.text); err != nil {
			kept(p, ptr, "original", err)
			continue
		}
		edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(cl.rep.out), Message: cl.rep.msg})
	}
	emit(p, decl, edits)
	if g.now && len(edits) > 0 {
		p.PrefixChange("%s", g.note)
	}
	return nil
}

// decide makes the gate's decision for the pass's capture.
func decide(p *rules.Pass) *gate {
	c := p.Capture
	g := &gate{on: c, claims: map[string][]claim{}}
	all, handleAt := g.collect(p, pipelinePlanners(p))
	if len(all) == 0 && handleAt < 0 {
		return g
	}

	// Positions in prompt order, and where each earlier request ended.
	pr := newPromptIndex(c)
	for i := range all {
		all[i].pos = pr.at(all[i].pos)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos < all[j].pos })
	if handleAt >= 0 {
		handleAt = pr.at(handleAt)
	}
	w := newWeigher(p, c, pr, all)
	w.handleAt = handleAt
	g.weigh(w, pr.requestEnds())
	return g
}

// namedPlanner is the planner of one rule of the pipeline.
type namedPlanner struct {
	id   string
	plan planner
}

// pipelinePlanners returns the planners of the pipeline's rules, in
// pipeline order: a text goes to the first that claims it, as when the
// rules run one after the other (a replaced text carries a handle, which
// the later ones leave).
func pipelinePlanners(p *rules.Pass) []namedPlanner {
	var pls []namedPlanner
	pipe := p.Pipeline()
	if pipe == nil {
		pipe = []*rules.Rule{p.Rule}
	}
	for _, r := range pipe {
		mk := planners[r.ID]
		if mk == nil {
			continue
		}
		opts := p.Options
		if r != p.Rule {
			opts = p.Env.OptionsOf(r.Options)
		}
		if r.Options == nil {
			opts = nil
		}
		if pl := mk(p, opts); pl != nil {
			pls = append(pls, namedPlanner{r.ID, pl})
		}
	}
	return pls
}

// collect records every claim of the planners over the pass's results in
// the gate, and returns them with the body offset of the first handle
// already in a result (-1: none).
func (g *gate) collect(p *rules.Pass, pls []namedPlanner) ([]claim, int) {
	d := p.Capture.Doc
	var all []claim
	handleAt := -1
	for _, r := range passResults(p) {
		for _, t := range r.texts {
			text := d.Str(t)
			if hasHandle(text) {
				if handleAt < 0 {
					handleAt = int(d.Nodes[t].Start)
				}
				continue
			}
			for _, pl := range pls {
				rep, ok := pl.plan(&r, text)
				if !ok {
					continue
				}
				n := &d.Nodes[t]
				cl := claim{rule: pl.id, node: t, text: text, rep: rep, saved: int(n.End-n.Start) - capture.QuotedLen(rep.out), pos: int(n.Start)}
				g.claims[pl.id] = append(g.claims[pl.id], cl)
				all = append(all, cl)
				break
			}
		}
	}
	return all, handleAt
}

// weigher holds what the gate weighs on each request of the history: the
// claims in prompt order, the declaration's bytes, the cache's prices.
type weigher struct {
	all      []claim
	handleAt int // prompt offset of the first handle in the history (-1: none)
	cost     *cacheCost
	declared bool
	dBytes   int
	first    int // prompt offset of the first claim
	turns    float64
	w, r     float64
}

func newWeigher(p *rules.Pass, c *capture.Capture, pr *promptIndex, all []claim) *weigher {
	x := &weigher{all: all, cost: newCacheCost(c, pr), turns: float64(SettingsOf(p.Env).BreakEvenTurns)}
	dd := declaration(p)
	x.declared = dd.edit == nil
	if !x.declared {
		x.dBytes = len(dd.edit.NewJSON)
	}
	if len(all) > 0 {
		x.first = all[0].pos
	}
	x.w, x.r = x.cost.prices()
	return x
}

// weigh opens the gate on the first request that pays for declaring
// retrieve_output, or says why the current one waits. Request j
// (1-based) is the prompt before ends[j-1]; the current request is
// j = len(ends)+1.
func (g *gate) weigh(x *weigher, ends []int) {
	saved, k := 0, 0
	for j := 1; j <= len(ends)+1; j++ {
		current := j == len(ends)+1
		limit := math.MaxInt
		if !current {
			limit = ends[j-1]
		}
		for k < len(x.all) && x.all[k].pos < limit {
			saved += x.all[k].saved
			k++
		}
		if x.handleAt >= 0 && x.handleAt < limit {
			g.open = true
			return
		}
		prev := 0
		if j >= 2 {
			prev = ends[j-2]
		}
		held := x.cost.held(prev)
		if x.declared {
			// Only what follows the first replaced text is written again.
			held = max(0, held-x.first)
		}
		net := saved - x.dBytes
		if saved > 0 && net > 0 && float64(net)*(x.w+x.turns*x.r) >= (x.w-x.r)*float64(held) {
			g.opens(x, current && j > 1 && (!x.declared || x.first < prev), net, held)
			return
		}
		if current {
			need := x.dBytes + int(math.Ceil((x.w-x.r)*float64(held)/(x.w+x.turns*x.r)))
			g.why = fmt.Sprintf("waits: saves %s B here, but declaring retrieve_output on this turn writes again the %s B the previous request may have cached%s; it pays from %s B",
				units.Thousands(net), units.Thousands(held), x.cost.describe(), units.Thousands(need))
		}
	}
	if g.why == "" {
		g.why = "nothing to reduce"
	}
}

// opens opens the gate; now says it opens on this very request, whose
// note then says why that pays.
func (g *gate) opens(x *weigher, now bool, net, held int) {
	g.open, g.now = true, now
	switch {
	case !g.now:
	case held == 0:
		g.note = fmt.Sprintf("the reductions save %s B on this request, and %s", units.Thousands(net), x.cost.nothingHeld())
	default:
		g.note = fmt.Sprintf("the reductions save %s B on this request, more than writing again the %s B the previous request may have cached costs%s",
			units.Thousands(net), units.Thousands(held), x.cost.describe())
	}
}

// promptIndex maps body offsets to offsets in the prompt as a cache reads
// it (tools, system, messages).
type promptIndex struct {
	p       capture.Prompt
	cum     []int // cum[i]: prompt bytes before block i
	byStart []int // block indices by body offset
	total   int
}

func newPromptIndex(c *capture.Capture) *promptIndex {
	x := &promptIndex{p: c.Prompt()}
	x.cum = make([]int, len(x.p.Blocks))
	x.byStart = make([]int, len(x.p.Blocks))
	for i, b := range x.p.Blocks {
		x.cum[i] = x.total
		x.total += b.End - b.Start
		x.byStart[i] = i
	}
	sort.Slice(x.byStart, func(a, b int) bool { return x.p.Blocks[x.byStart[a]].Start < x.p.Blocks[x.byStart[b]].Start })
	return x
}

// at returns the prompt offset of body offset off: the end of the prompt
// when no block holds it.
func (x *promptIndex) at(off int) int {
	bl := x.p.Blocks
	k := sort.Search(len(x.byStart), func(k int) bool { return bl[x.byStart[k]].Start > off }) - 1
	if k < 0 {
		return x.total
	}
	i := x.byStart[k]
	if off >= bl[i].End {
		return x.total
	}
	return x.cum[i] + off - bl[i].Start
}

// requestEnds returns, in order, the prompt offsets where the earlier
// requests of the history ended: each run of blocks that replays the
// model's own output starts where the request it answered ended.
func (x *promptIndex) requestEnds() []int {
	var out []int
	for i, b := range x.p.Blocks {
		if b.Output && (i == 0 || !x.p.Blocks[i-1].Output) {
			out = append(out, x.cum[i])
		}
	}
	return out
}

// cacheCost is what the provider's prompt cache holds of an earlier
// request, and at what prices, for the request's model.
type cacheCost struct {
	m     cache.Model
	price *price.Price
	model string
	// msgMarks: an explicit cache with breakpoints in the messages (the
	// host marks the end of each request); sysEnd is the prompt offset
	// where the last breakpoint before the messages ends (0: none).
	msgMarks bool
	sysEnd   int
	ttl1h    bool
	auto     bool
	keyed    bool
}

func newCacheCost(c *capture.Capture, x *promptIndex) *cacheCost {
	vendor, model := capture.VendorOf(c)
	cc := &cacheCost{m: cache.Lookup(vendor, model), price: price.Builtin().Lookup(model), model: model, auto: x.p.Auto, keyed: x.p.Keyed}
	if vendor == "" {
		cc.m = cache.NoCache(vendor)
	}
	for i, b := range x.p.Blocks {
		if b.TTL == "" {
			continue
		}
		cc.ttl1h = b.TTL == "1h"
		if len(b.Mark) >= 7 && b.Mark[:7] == "message" || b.Mark == "" {
			cc.msgMarks = true
		} else {
			cc.sysEnd = x.cum[i] + b.End - b.Start
		}
	}
	return cc
}

// held returns how many bytes of an earlier request of prefix bytes the
// cache holds. Bytes stand for tokens at three bytes a token, more tokens
// than most text has, so that a short prefix counts as cached rather than
// not: the gate errs towards waiting.
func (cc *cacheCost) held(prefix int) int {
	m := cc.m
	if m.Kind == cache.None || prefix <= 0 || m.KeyRequired && !cc.keyed {
		return 0
	}
	h := prefix
	if m.Kind == cache.Explicit && !cc.auto && !cc.msgMarks {
		h = min(prefix, cc.sysEnd)
	}
	if h/3 < m.MinTokens {
		return 0
	}
	return h
}

// prices returns the price of writing an input token to the cache (the
// plain input price where writes are not billed) and of reading one, per
// million tokens. Without a price the write costs 1 and the read 0: the
// whole cached prefix counts as lost, the cautious side.
func (cc *cacheCost) prices() (w, r float64) {
	p := cc.price
	if p == nil || p.Input <= 0 {
		return 1, 0
	}
	w = p.Input
	if cc.m.BillsWrites {
		w = p.CacheWrite
		if cc.ttl1h && p.CacheWrite1h > 0 {
			w = p.CacheWrite1h
		}
		if w <= 0 {
			w = p.Input
		}
	}
	return w, min(p.CacheRead, w)
}

// describe names the prices the gate used.
func (cc *cacheCost) describe() string {
	if cc.price == nil || cc.price.Input <= 0 {
		return " (no price for the model: counted as lost in full)"
	}
	w, r := cc.prices()
	return fmt.Sprintf(" (at %s's $%g write and $%g read per million tokens)", cc.model, w, r)
}

// nothingHeld says why the previous request's prefix was not cached.
func (cc *cacheCost) nothingHeld() string {
	switch {
	case cc.m.Kind == cache.None:
		return "the endpoint has no documented prompt cache, so changing the prefix costs nothing"
	case cc.m.KeyRequired && !cc.keyed:
		return "the request carries no prompt cache key, so nothing of the previous request was cached"
	case cc.m.Kind == cache.Explicit && !cc.auto && !cc.msgMarks && cc.sysEnd == 0:
		return "the request sets no cache breakpoint, so nothing of the previous request was cached"
	}
	return fmt.Sprintf("the previous request was below the %s-token minimum the cache stores", units.Thousands(cc.m.MinTokens))
}
