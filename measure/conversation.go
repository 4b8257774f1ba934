package measure

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/cache"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// Conversation is the cache-true account of successive requests of one
// conversation: per turn and in total, the input tokens a provider reads
// from its prompt cache, writes to it and bills in full, and what that
// costs, before and after the configured rules.
type Conversation struct {
	Turns []ConvTurn `json:"turns"`
	Total ConvTotal  `json:"total"`
	// Tokens says how the prompts were counted.
	Tokens ConvTokens `json:"tokens"`
	// Largest is the section breakdown of the largest request.
	Largest *LargestRequest `json:"largest_request"`
	// Chains are the conversation's prefix chains (see ChainInfo); Bill
	// its cache account and most expensive avoidable events.
	Chains []ChainInfo `json:"chains"`
	Bill   *Bill       `json:"bill"`
	// Cached shares out the cache reads of the turns whose request is
	// known among the sections; null when none is.
	Cached *PrefixSections `json:"cached_prefix"`
	Notes  []string        `json:"notes,omitempty"`
}

// ConvTokens describes the token counts of a conversation report.
type ConvTokens struct {
	Encoding string `json:"encoding"`
	// Exact is true when every turn's model uses the counting encoding;
	// otherwise the counts are estimates. Either way the split into
	// cached, written and uncached is a prediction.
	Exact bool `json:"exact"`
	// Calibrated counts the turns whose counts were calibrated from the
	// provider's counts of earlier turns (Side.Counts).
	Calibrated int `json:"calibrated_turns"`
}

// ConvTurn is one request of a conversation.
type ConvTurn struct {
	Turn    int    `json:"turn"`
	Capture string `json:"capture"`
	// Provider is the body's shape; Vendor the cache and price family it
	// was billed under ("" when unknown); Model the model it names.
	Provider string      `json:"provider"`
	Vendor   string      `json:"vendor"`
	Model    string      `json:"model"`
	Cache    cache.Model `json:"cache_model"`
	// Price is null when the model is not in the price table.
	Price  *price.Price `json:"price"`
	Before Side         `json:"before"`
	After  Side         `json:"after"`
	// Usage is what the provider reported for this request, when the
	// capture carries it; it is authoritative.
	Usage *Usage `json:"provider_usage,omitempty"`
	// Error compares the prediction (before the rules) with Usage.
	Error *PredictionError `json:"prediction_error,omitempty"`
	// Chain is the prefix chain the request belongs to (1-based, see
	// Conversation.Chains); Bill its cache account and Event what the
	// cache did and why.
	Chain int         `json:"chain"`
	Bill  *CacheUse   `json:"cache"`
	Event *CacheEvent `json:"cache_event"`
	// Cached shares out Bill.Read among the sections of the request;
	// null when the request is not known (a session file's).
	Cached *PrefixSections `json:"cached_prefix"`
	// Cross is what the request read from cache entries that another
	// conversation of the input wrote (see ConverseAll); absent when it
	// read none.
	Cross *CrossReads `json:"cross_conversation,omitempty"`
}

// Side is one request before or after the rules.
type Side struct {
	Bytes     int `json:"bytes"`
	Input     int `json:"input"`
	Cached    int `json:"cached"`
	Written   int `json:"written"`
	Written1h int `json:"written_1h,omitempty"`
	Uncached  int `json:"uncached"`
	// Output is the output token count when known (from the provider's
	// usage), else null.
	Output *int `json:"output"`
	// Cost is in US dollars, null when the model has no price.
	Cost *float64 `json:"cost"`
	// Break says where this request stopped extending the previous one.
	Break *Break `json:"prefix_break"`
	// Counts says what the token counts are: "exact" (the model's own
	// tokenizer), "estimated" (another tokenizer) or "calibrated" (from
	// the provider's counts of earlier turns, see calibrate.go).
	Counts string `json:"counts"`
}

// Break is where a request's prompt first differs from the previous
// request's, so that the rest of the previous prompt cannot be read from
// the cache.
type Break struct {
	// Pointer is the JSON Pointer, in this request's body, of the value
	// holding the first differing byte; Offset is that byte's offset.
	Pointer string `json:"pointer"`
	Offset  int    `json:"offset"`
	// Previous is the previous request's prompt tokens; Kept how many of
	// them this request still shares.
	Previous int `json:"previous_tokens"`
	Kept     int `json:"kept_tokens"`
	// Rule is the rule whose edit made the break ("" when the captured
	// requests already break there, or the cause is not known).
	Rule     string `json:"rule"`
	RuleName string `json:"rule_name,omitempty"`
	// Reason is the rule's own account of why changing the prefix once
	// pays (rules.Step.PrefixChange), "" when it gave none.
	Reason string `json:"reason,omitempty"`
	// Cost is what the break costs this request: the previous prompt's
	// tokens this request no longer shares, billed as written or uncached
	// input where they would have been read. It is null without a price,
	// 0 when the cache would not have held them.
	Cost *float64 `json:"cost,omitempty"`
}

// Usage is a provider's own count of one request's tokens, normalized:
// Input is every prompt token, cached or not.
type Usage struct {
	Source  string `json:"source"`
	Input   int    `json:"input"`
	Cached  int    `json:"cached"`
	Written int    `json:"written"`
	// Written1h is the part of Written stored for an hour, where the
	// provider says.
	Written1h int `json:"written_1h,omitempty"`
	Uncached  int `json:"uncached"`
	Output    int `json:"output"`
	// Cost is what the provider or host reported (Pi sessions), else
	// what the price table makes of the counts, else null.
	Cost       *float64 `json:"cost"`
	CostSource string   `json:"cost_source,omitempty"`
}

// PredictionError is the prediction minus the provider's count, in tokens
// and as a share of the provider's count.
type PredictionError struct {
	Input      int     `json:"input_tokens"`
	InputPct   float64 `json:"input_pct"`
	Cached     int     `json:"cached_tokens"`
	CachedPct  float64 `json:"cached_pct"`
	Written    int     `json:"written_tokens"`
	WrittenPct float64 `json:"written_pct"`
}

// ConvTotal sums a conversation.
type ConvTotal struct {
	Turns  int     `json:"turns"`
	Before SideSum `json:"before"`
	After  SideSum `json:"after"`
	// Saved is the cost before minus after, null when a cost is
	// unavailable; SavedPct is its share of the cost before.
	Saved    *float64 `json:"saved"`
	SavedPct *float64 `json:"saved_pct"`
	// RuleBreaks counts the prefix breaks after the rules that a rule
	// caused.
	RuleBreaks int `json:"rule_breaks"`
	// PricedTurns counts the turns whose model has a price: the costs
	// above sum those turns. Unpriced lists the others by model.
	PricedTurns int        `json:"priced_turns"`
	Unpriced    []Unpriced `json:"unpriced,omitempty"`
	// Usage sums the provider's own counts over the turns that have them;
	// Error compares the prediction over the same turns with it.
	Usage *Usage           `json:"provider_usage,omitempty"`
	Error *PredictionError `json:"prediction_error,omitempty"`
}

// Unpriced counts the turns of a model the price table does not know.
type Unpriced struct {
	Model string `json:"model"`
	Turns int    `json:"turns"`
}

// SideSum sums the turns of one side.
type SideSum struct {
	Bytes    int `json:"bytes"`
	Input    int `json:"input"`
	Cached   int `json:"cached"`
	Written  int `json:"written"`
	Uncached int `json:"uncached"`
	Output   int `json:"output"`
	// Cost sums the turns whose model has a price (ConvTotal.PricedTurns);
	// null when none has.
	Cost   *float64 `json:"cost"`
	Breaks int      `json:"prefix_breaks"`
}

// LargestRequest is the section breakdown of the conversation's largest
// request, before and after the rules.
type LargestRequest struct {
	Turn     int          `json:"turn"`
	Capture  string       `json:"capture"`
	Sections []SectionUse `json:"sections"`
}

// SectionUse is one section's tokens before and after.
type SectionUse struct {
	Kind   string `json:"kind"`
	Before int    `json:"before"`
	After  int    `json:"after"`
}

// Request is one request of a conversation as read, with what the rules
// made of it.
type Request struct {
	Name string
	// Result holds the captured request (Original) and the request after
	// the pipeline (Final).
	Result *rules.Result
	// Vendor and Model choose the cache model and the price; VendorOf
	// finds them for a wire body.
	Vendor, Model string
	// Usage is the provider's count, when the capture carries it.
	Usage *Usage
	// Time, Compaction and Lead are the input's (see Input).
	Time       time.Time
	Compaction bool
	Lead       *capture.Capture
	// seq is the request's place among the input's requests (Split).
	seq int

	// A turn read off a longer request of its session chain (Requests)
	// has no Result: it is the first n entries of the layouts baseB
	// (before) and baseA (after), and materialize transforms it whole when
	// a result is needed (a prefix break to attribute, the largest
	// request).
	baseB, baseA *layout
	n            int
	materialize  func() *rules.Result
}

// result returns the request's result, transforming a derived turn whole
// (nil when that fails).
func (r *Request) result() *rules.Result {
	if r.Result == nil && r.materialize != nil {
		r.Result = r.materialize()
	}
	return r.Result
}

// ConversationOptions controls a conversation report.
type ConversationOptions struct {
	Encoding string
	Counter  Counter
	// Exact reports whether Encoding is a model's own encoding; nil
	// counts OpenAI models as exact with o200k_base.
	Exact func(vendor, model string) bool
	// Prices finds a model's price (nil: the built-in table).
	Prices *price.Table
	// Pipeline is the rule list the requests went through; Rerun runs a
	// part of it over a captured request, to find the rule that broke a
	// prefix (nil: breaks are not attributed).
	Pipeline []*rules.Rule
	Rerun    func(c *capture.Capture, pipeline []*rules.Rule) (*capture.Capture, error)
	// Jobs bounds the conversations ConverseAll lays out at once before
	// it accounts for them in time order (0: GOMAXPROCS).
	Jobs int
}

// Converse accounts for the requests of one conversation, in order.
func Converse(reqs []Request, opts ConversationOptions) (*Conversation, error) {
	if opts.Counter == nil {
		return nil, fmt.Errorf("a conversation needs a token counter")
	}
	cs := newConverser(len(reqs), opts)
	for k := range reqs {
		cs.turn(reqs, k)
	}
	return cs.finish(reqs), nil
}

func newConverser(n int, opts ConversationOptions) *converser {
	if opts.Prices == nil {
		opts.Prices = price.Builtin()
	}
	if opts.Exact == nil {
		enc := opts.Encoding
		opts.Exact = func(vendor, _ string) bool { return vendor == "openai" && enc == "o200k_base" }
	}
	return &converser{
		opts:        opts,
		tc:          &tokenCache{counter: opts.Counter, counts: map[[32]byte]int{}},
		cv:          &Conversation{Turns: []ConvTurn{}, Tokens: ConvTokens{Encoding: opts.Encoding, Exact: n > 0}},
		models:      map[string]bool{},
		counted:     map[*layout]bool{},
		calibrators: map[string]*calibrator{},
	}
}

// finish sums the conversation up once every turn is accounted for.
func (cs *converser) finish(reqs []Request) *Conversation {
	cv := cs.cv
	if len(cs.models) > 1 {
		cv.Notes = append(cv.Notes, fmt.Sprintf("the conversation uses %d models; each has its own cache", len(cs.models)))
	}
	cv.total()
	explain(cs.tc, cv, reqs, cs.before)
	if note := piSessionNote(cv, cs.before); note != "" {
		cv.Notes = append(cv.Notes, note)
	}
	cv.Largest = largest(cs.tc, reqs, cs.before, cs.after)
	return cv
}

// converser is a conversation being accounted for, turn by turn: the
// layouts and cache turns of each side so far, and the pool of the
// input's other conversations (nil: none).
type converser struct {
	opts          ConversationOptions
	tc            *tokenCache
	cv            *Conversation
	before, after []*layout
	bTurns        []cache.Turn
	aTurns        []cache.Turn
	models        map[string]bool
	counted       map[*layout]bool
	calibrators   map[string]*calibrator
	scratch       []cache.Shared
	pool          *pool
	conv          int
	// laid holds the layouts of the requests before and after the rules
	// when lay made them ahead of the accounting.
	laid [][2]*layout
}

// lay makes the layouts of request k, before and after the rules, with
// their token counts: what a turn needs of its request alone, whatever the
// other requests.
func (cs *converser) lay(reqs []Request, k int) (lb, la *layout) {
	if k < len(cs.laid) && cs.laid[k][0] != nil {
		return cs.laid[k][0], cs.laid[k][1]
	}
	r := &reqs[k]
	if r.baseB != nil {
		for _, l := range []*layout{r.baseB, r.baseA} {
			if !cs.counted[l] {
				cs.tc.count(l)
				cs.counted[l] = true
			}
		}
		return prefixLayout(r.baseB, r.n), prefixLayout(r.baseA, r.n)
	}
	lb, la = newLayout(r.Result.Original), newLayout(r.Result.Final)
	cs.tc.count(lb, la)
	return lb, la
}

// layAll makes the layouts of every request of the conversation ahead of
// the accounting.
func (cs *converser) layAll(reqs []Request) {
	cs.laid = make([][2]*layout, len(reqs))
	for k := range reqs {
		lb, la := cs.lay(reqs, k)
		cs.laid[k] = [2]*layout{lb, la}
	}
}

// turn accounts for request k, given the ones before it.
func (cs *converser) turn(reqs []Request, k int) {
	opts, tc, cv := cs.opts, cs.tc, cs.cv
	r := &reqs[k]
	lb, la := cs.lay(reqs, k)
	cm := cache.Lookup(r.Vendor, r.Model)
	pr := opts.Prices.Lookup(r.Model)
	t := ConvTurn{Turn: k + 1, Capture: r.Name, Provider: string(lb.c.Provider), Vendor: r.Vendor, Model: r.Model, Cache: cm, Price: pr, Usage: r.Usage}
	cv.Tokens.Exact = cv.Tokens.Exact && opts.Exact(r.Vendor, r.Model)
	cs.models[r.Vendor+" "+r.Model] = true
	output := -1
	if r.Usage != nil {
		output = r.Usage.Output
	}
	var bt, at cache.Turn
	var cb, ca *CrossRead
	t.Before, bt, cb = cs.side(cm, pr, lb, r, 0, output)
	t.After, at, ca = cs.side(cm, pr, la, r, 1, output)
	if cb != nil || ca != nil {
		t.Cross = &CrossReads{Before: cb, After: ca}
	}
	counts := "estimated"
	if opts.Exact(r.Vendor, r.Model) {
		counts = "exact"
	}
	t.Before.Counts, t.After.Counts = counts, counts
	// Calibrated from the provider's counts of earlier turns of the
	// model; this turn's own counts teach the turns after it.
	key := r.Vendor + " " + r.Model
	cal := cs.calibrators[key]
	if cal == nil {
		cal = &calibrator{}
		cs.calibrators[key] = cal
	}
	raw := t.Before.Input
	if cal.apply(&t.Before, pr) {
		cal.apply(&t.After, pr)
		cv.Tokens.Calibrated++
	}
	if r.Usage != nil && r.Usage.Input > 0 && raw > 0 {
		cal.add(raw, r.Usage.Input)
	}
	if k > 0 && t.After.Break != nil && t.Before.Break == nil && opts.Rerun != nil && reqs[k-1].result() != nil && r.result() != nil {
		attributeBreak(tc, t.After.Break, reqs[k-1].Result, r.Result, opts, cm, pr)
	}
	if t.After.Break != nil && t.After.Break.Rule != "" {
		cv.Total.RuleBreaks++
	}
	if r.Usage != nil {
		fillUsageCost(r.Usage, pr)
		t.Error = predictionError(t.Before, r.Usage)
	}
	cs.before, cs.after = append(cs.before, lb), append(cs.after, la)
	cs.bTurns, cs.aTurns = append(cs.bTurns, bt), append(cs.aTurns, at)
	cs.pool.add(cs.conv, k, r, lb, la, bt, at)
	cv.Turns = append(cv.Turns, t)
}

// side predicts request r on side s (0 before the rules, 1 after) given
// the earlier requests of its conversation and what the pool holds of the
// other conversations'.
func (cs *converser) side(cm cache.Model, pr *price.Price, l *layout, r *Request, s, output int) (Side, cache.Turn, *CrossRead) {
	earlier, eTurns := cs.before, cs.bTurns
	if s == 1 {
		earlier, eTurns = cs.after, cs.aTurns
	}
	ownShares := len(earlier) > 0 && sharedBlocks(earlier[len(earlier)-1], l) > 0
	fl, ft, fe := cs.pool.foreign(cs.conv, r.Vendor, r.Model, r.Time, s, l, ownShares)
	sd, ct, own := side(cs.tc, cm, pr, l, earlier, eTurns, fl, ft, r.Model, output, &cs.scratch)
	return sd, ct, cs.pool.crossRead(fe, cs.scratch[len(earlier):], sd.Cached, own)
}

// attributeBreak names the rule that made the break b of cur after prev,
// with its reason and what the break costs.
func attributeBreak(tc *tokenCache, b *Break, prev, cur *rules.Result, opts ConversationOptions, cm cache.Model, pr *price.Price) {
	id, name := attribute(tc, prev, cur, opts)
	if id == "" {
		return
	}
	b.Rule, b.RuleName = id, name
	for _, st := range cur.Steps {
		if st.Applied && st.Rule.ID == id {
			b.Reason = st.PrefixChange
		}
	}
	b.Cost = breakCost(b, cm, pr)
}

// piSessionNote says what a Pi session's prediction misses, "" when no
// turn is of a Pi session. It says which way the missing prompt moves
// the prediction only when the figures agree.
func piSessionNote(cv *Conversation, before []*layout) string {
	for _, l := range before {
		if l.c.Envelope != capture.EnvPiSession {
			continue
		}
		note := "a Pi session holds no system prompt and no tool declarations: the prediction counts its messages only"
		switch e := cv.Total.Error; {
		case cv.Tokens.Calibrated > 0:
			note = "a Pi session holds no system prompt and no tool declarations: the calibration from the provider's counts of earlier turns adds them from the second turn with usage on"
		case e != nil && e.Input < 0:
			note += ", which is why it falls short of the provider's count"
		}
		return note
	}
	return ""
}

// side predicts one request of one side given the earlier requests of that
// side in its conversation and, from other conversations, those the cache
// still holds (foreign, fTurns). own is what it would read from its own
// conversation's entries alone.
func side(tc *tokenCache, cm cache.Model, pr *price.Price, l *layout, earlier []*layout, eTurns []cache.Turn, foreign []*layout, fTurns []cache.Turn, model string, output int, scratch *[]cache.Shared) (s Side, ct cache.Turn, own int) {
	s = Side{Bytes: l.size(), Input: l.tokens()}
	ct = cache.Turn{Model: model, Ends: l.ends, Auto: l.auto, Keyed: l.keyed, PrevShared: -1}
	ct.Output, ct.Breakpoints = l.cacheMarks()
	// What the request shares with each earlier one, in whole blocks;
	// the tokens of the next block up to the first differing byte count
	// only for the requests it shares the most blocks with (a prefix
	// cache reads the longest prefix) and for the previous one.
	shared := (*scratch)[:0]
	most := 0
	all := earlier
	if len(foreign) > 0 {
		all = append(append(make([]*layout, 0, len(earlier)+len(foreign)), earlier...), foreign...)
	}
	for _, e := range all {
		sh := tc.shared(e, l, false)
		most = max(most, sh.Blocks)
		shared = append(shared, sh)
	}
	partial := cm.Kind == cache.Prefix || cm.Kind == cache.Units
	for j, e := range all {
		if j == len(earlier)-1 || partial && shared[j].Blocks == most {
			shared[j] = tc.shared(e, l, true)
		}
	}
	*scratch = shared
	if n := len(earlier); n > 0 {
		prev := earlier[n-1]
		ct.PrevShared = shared[n-1].Tokens
		if blk, off, broke := divergence(prev, l); broke {
			var at int
			var node capture.Node
			switch {
			case blk < len(l.blocks):
				at = l.bodyOffset(blk, off)
				node = nodeAt(l.c.Doc, at)
			case len(l.blocks) > 0:
				// This request ends where the previous one went on: point
				// at what holds its last block.
				last := l.blocks[len(l.blocks)-1]
				at, node = last.End, max(l.c.Doc.ParentOf(last.Node), 0)
			}
			s.Break = &Break{Pointer: l.c.Doc.Pointer(node), Offset: at, Previous: prev.tokens(), Kept: shared[n-1].Tokens}
		}
	}
	sp := cm.Predict(ct, eTurns, shared[:len(earlier)])
	own = sp.Read
	if len(foreign) > 0 {
		if x := cm.Predict(ct, append(append(make([]cache.Turn, 0, len(all)), eTurns...), fTurns...), shared); x.Read > sp.Read {
			sp = x
		}
	}
	s.Cached, s.Written, s.Written1h, s.Uncached = sp.Read, sp.Write, sp.Write1h, sp.Uncached
	if output >= 0 {
		o := output
		s.Output = &o
	}
	if pr != nil {
		c := pr.Cost(price.Tokens{Read: sp.Read, Write: sp.Write, Write1h: sp.Write1h, Uncached: sp.Uncached, Output: output})
		s.Cost = &c
	}
	return s, ct, own
}

// shared returns what cur shares with an earlier request: whole blocks
// and, when partial is set, the tokens of the next block up to the first
// differing byte.
func (tc *tokenCache) shared(prev, cur *layout, partial bool) cache.Shared {
	k := sharedBlocks(prev, cur)
	s := cache.Shared{Blocks: k}
	if k > 0 {
		s.Tokens = cur.ends[k-1]
	}
	if !partial || k >= len(prev.blocks) || k >= len(cur.blocks) {
		return s
	}
	a, b := prev.norm(k), cur.norm(k)
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if n <= len(cur.blocks[k].Mark)+1 {
		return s
	}
	text := cur.text(k, cur.bodyOffset(k, n))
	if text != "" {
		// The token that straddles the difference is not shared.
		s.Tokens += max(min(tc.counter.CountAll([]string{text})[0], cur.blocks[k].tokens)-1, 0)
	}
	return s
}

// attribute finds the first rule of the pipeline whose edits make cur
// stop extending prev: it reruns growing parts of the pipeline over both
// captured requests, trying only the lengths at which a rule that changed
// one of them ends.
func attribute(tc *tokenCache, prev, cur *rules.Result, opts ConversationOptions) (id, name string) {
	applied := map[*rules.Rule]bool{}
	for _, res := range []*rules.Result{prev, cur} {
		for _, st := range res.Steps {
			if st.Applied {
				applied[st.Rule] = true
			}
		}
	}
	for n := 1; n <= len(opts.Pipeline); n++ {
		r := opts.Pipeline[n-1]
		if !applied[r] {
			continue
		}
		part := opts.Pipeline[:n]
		p, err := opts.Rerun(prev.Original, part)
		if err != nil {
			return "", ""
		}
		c, err := opts.Rerun(cur.Original, part)
		if err != nil {
			return "", ""
		}
		lp, lc := newLayout(p), newLayout(c)
		tc.count(lp, lc)
		if _, _, broke := divergence(lp, lc); broke {
			return r.ID, r.Name
		}
	}
	return "", ""
}

// breakCost is what a break costs the request it happens in: the tokens of
// the previous prompt it no longer shares, at the price of writing them to
// the cache (or of plain input where writes are not billed) instead of
// reading them; nothing when the cache would not have held them.
func breakCost(b *Break, cm cache.Model, pr *price.Price) *float64 {
	if pr == nil {
		return nil
	}
	lost := b.Previous - b.Kept
	c := 0.0
	if cm.Kind != cache.None && lost > 0 && b.Previous >= cm.MinTokens {
		w := pr.Input
		if cm.BillsWrites {
			w = pr.CacheWrite
		}
		c = float64(lost) * max(w-pr.CacheRead, 0) / 1e6
	}
	return &c
}

// fillUsageCost prices a provider's count when the provider did not.
func fillUsageCost(u *Usage, pr *price.Price) {
	if u.Cost != nil || pr == nil {
		return
	}
	c := pr.Cost(price.Tokens{Read: u.Cached, Write: u.Written, Uncached: u.Uncached, Output: u.Output})
	u.Cost = &c
	u.CostSource = "price table"
}

func predictionError(s Side, u *Usage) *PredictionError {
	e := &PredictionError{Input: s.Input - u.Input, Cached: s.Cached - u.Cached, Written: s.Written - u.Written}
	e.InputPct = ratio(e.Input, u.Input)
	e.CachedPct = ratio(e.Cached, u.Cached)
	e.WrittenPct = ratio(e.Written, u.Written)
	return e
}

func ratio(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)*10000/float64(whole)) / 100
}

func (cv *Conversation) total() {
	t := &cv.Total
	t.Turns = len(cv.Turns)
	bc, ac := 0.0, 0.0
	unpriced := map[string]int{}
	var u *Usage
	var predicted Side
	for _, turn := range cv.Turns {
		add := func(s *SideSum, x Side) {
			s.Bytes += x.Bytes
			s.Input += x.Input
			s.Cached += x.Cached
			s.Written += x.Written
			s.Uncached += x.Uncached
			if x.Output != nil {
				s.Output += *x.Output
			}
			if x.Break != nil {
				s.Breaks++
			}
		}
		add(&t.Before, turn.Before)
		add(&t.After, turn.After)
		if turn.Before.Cost == nil || turn.After.Cost == nil {
			unpriced[turn.Model]++
		} else {
			t.PricedTurns++
			bc += *turn.Before.Cost
			ac += *turn.After.Cost
		}
		if x := turn.Usage; x != nil {
			predicted.Input += turn.Before.Input
			predicted.Cached += turn.Before.Cached
			predicted.Written += turn.Before.Written
			if u == nil {
				u = &Usage{Source: x.Source, Cost: new(float64)}
			}
			u.Input += x.Input
			u.Cached += x.Cached
			u.Written += x.Written
			u.Uncached += x.Uncached
			u.Output += x.Output
			if x.Cost != nil && u.Cost != nil {
				*u.Cost += *x.Cost
			} else {
				u.Cost = nil
			}
		}
	}
	t.Usage = u
	if u != nil {
		t.Error = predictionError(predicted, u)
	}
	for model, n := range unpriced {
		t.Unpriced = append(t.Unpriced, Unpriced{Model: model, Turns: n})
	}
	sort.Slice(t.Unpriced, func(i, j int) bool {
		a, b := t.Unpriced[i], t.Unpriced[j]
		return a.Turns > b.Turns || a.Turns == b.Turns && a.Model < b.Model
	})
	if t.PricedTurns > 0 {
		t.Before.Cost, t.After.Cost = &bc, &ac
		saved := bc - ac
		t.Saved = &saved
		if bc > 0 {
			p := units.Round(saved*100/bc, 2)
			t.SavedPct = &p
		}
	}
}

// largest breaks the largest request (before the rules) down by section.
func largest(tc *tokenCache, reqs []Request, before, after []*layout) *LargestRequest {
	best := -1
	for i, l := range before {
		if best < 0 || l.tokens() > before[best].tokens() {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	lr := &LargestRequest{Turn: best + 1, Capture: reqs[best].Name, Sections: []SectionUse{}}
	res := reqs[best].result()
	if res == nil {
		return nil
	}
	b := sectionTokens(tc, res.Original)
	a := sectionTokens(tc, res.Final)
	for _, k := range capture.Sections {
		if b[k] == 0 && a[k] == 0 {
			continue
		}
		lr.Sections = append(lr.Sections, SectionUse{Kind: string(k), Before: b[k], After: a[k]})
	}
	return lr
}

// sectionTokens counts a request's tokens per section the way measure
// does: each segment's text, and the bytes outside every segment as
// "other".
func sectionTokens(tc *tokenCache, c *capture.Capture) map[capture.Section]int {
	segs := c.Segments()
	texts := make([]string, 0, len(segs)+1)
	kinds := make([]capture.Section, 0, len(segs)+1)
	var gaps strings.Builder
	prev := 0
	for _, s := range segs {
		gaps.Write(c.Body[prev:s.Start])
		prev = s.End
		texts = append(texts, c.SegmentText(s))
		kinds = append(kinds, s.Kind)
	}
	gaps.Write(c.Body[prev:])
	if c.Provider != capture.PiMessages {
		texts = append(texts, gaps.String())
		kinds = append(kinds, capture.SecOther)
	}
	out := map[capture.Section]int{}
	for i, n := range tc.counter.CountAll(texts) {
		out[kinds[i]] += n
	}
	return out
}
