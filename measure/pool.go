package measure

import (
	"container/heap"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skillopt/skillopt/measure/cache"
	"github.com/skillopt/skillopt/measure/units"
)

// A provider keys its prompt cache by prefix, not by conversation: a
// request reads what any earlier request to the same model left cached,
// whichever conversation sent it, as long as the entry lives. So the
// conversations found among one input are accounted for against one cache
// per side (before and after the rules), in time order: the pool.

// CrossRead is what a request read from a cache entry another conversation
// of the input wrote: that conversation, its turn whose prompt this one
// shares the most with, and the tokens the request read in all.
type CrossRead struct {
	Conversation string `json:"conversation"`
	Turn         int    `json:"turn"`
	Read         int    `json:"read"`
}

// CrossReads is a turn's reads from other conversations' cache entries,
// before and after the rules; a side is null when it read none.
type CrossReads struct {
	Before *CrossRead `json:"before"`
	After  *CrossRead `json:"after"`
}

// poolEntry is one request of the input as the pool holds it.
type poolEntry struct {
	conv, turn    int
	vendor, model string
	at            time.Time
	sides         [2]poolSide
}

type poolSide struct {
	l  *layout
	ct cache.Turn
}

// pool is the cache every conversation of one input reads and writes.
type pool struct {
	names   []string
	entries []*poolEntry
	// byFirst holds the entries by vendor, model, side and first block:
	// an entry whose prompt starts with another block shares no block
	// with a request, and looking only among those that start alike keeps
	// an input of many conversations from comparing every request with
	// every other.
	byFirst map[poolKey][]*poolEntry
}

type poolKey struct {
	vendor, model string
	side          int
	first         [32]byte
}

// foreign returns the entries of other conversations than conv a request
// to vendor and model at time at can still read on side s: same model,
// and written within their lifetime (5 minutes, an hour for an entry with
// a one-hour breakpoint). An untimed request, or entry, is taken to have
// reached the cache in time, as within a conversation.
//
// Only the entries that share l's first block are returned when some entry
// does, or when the request shares a block with its own conversation
// (ownShares): an entry that shares no block then reads nothing and is not
// the one a read is credited to. Otherwise, on a request that shares no
// block with anything, the tokens of a first block begun alike may count
// (a prefix cache), and every entry is returned.
func (p *pool) foreign(conv int, vendor, model string, at time.Time, s int, l *layout, ownShares bool) ([]*layout, []cache.Turn, []*poolEntry) {
	if p == nil {
		return nil, nil, nil
	}
	if l != nil && len(l.chain) > 0 {
		ls, cts, es := p.readable(p.byFirst[poolKey{vendor, model, s, l.chain[0]}], conv, vendor, model, at, s)
		if len(es) > 0 || ownShares {
			return ls, cts, es
		}
	}
	return p.readable(p.entries, conv, vendor, model, at, s)
}

// readable returns the entries among from that a request of conversation
// conv to vendor and model at time at may read on side s.
func (p *pool) readable(from []*poolEntry, conv int, vendor, model string, at time.Time, s int) ([]*layout, []cache.Turn, []*poolEntry) {
	var ls []*layout
	var cts []cache.Turn
	var es []*poolEntry
	for _, e := range from {
		if e.conv == conv || e.vendor != vendor || e.model != model {
			continue
		}
		if !at.IsZero() && !e.at.IsZero() && at.Sub(e.at) > lifetime(e.sides[s].ct) {
			continue
		}
		ls = append(ls, e.sides[s].l)
		cts = append(cts, e.sides[s].ct)
		es = append(es, e)
	}
	return ls, cts, es
}

// lifetime is how long the cache keeps what a request wrote.
func lifetime(ct cache.Turn) time.Duration {
	for _, bp := range ct.Breakpoints {
		if bp.TTL == "1h" {
			return ttlLong
		}
	}
	return ttlShort
}

// ConverseAll accounts for the conversations found among one input,
// reqs[i] being the requests of the conversation named names[i], against
// one prompt cache per model and side: a request reads what an earlier
// request of any conversation left cached (see CrossRead). The requests
// are taken in time order when every one has a time, else in the order
// of the input (Split numbers them).
func ConverseAll(names []string, reqs [][]Request, opts ConversationOptions) ([]*Conversation, error) {
	if opts.Counter == nil {
		return nil, fmt.Errorf("a conversation needs a token counter")
	}
	p := &pool{names: names}
	css := make([]*converser, len(reqs))
	timed := true
	for i := range reqs {
		css[i] = newConverser(len(reqs[i]), opts)
		css[i].pool, css[i].conv = p, i
		for k := range reqs[i] {
			timed = timed && !reqs[i][k].Time.IsZero()
		}
	}
	// The conversations are merged in time order (in the input's order
	// when a request has no time); a conversation's own requests keep
	// their order, which its accounting of turns relies on.
	before := func(a, b *Request) bool {
		if timed && !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		return a.seq < b.seq
	}
	h := &nextTurn{reqs: reqs, before: before, at: make([]int, len(reqs))}
	for i := range reqs {
		if len(reqs[i]) > 0 {
			h.convs = append(h.convs, i)
		}
	}
	// What a turn needs of its own request (layouts, token counts) does
	// not depend on the other conversations: it is made for several
	// conversations at once, and only the accounting against the shared
	// cache runs in time order.
	layOutAhead(css, reqs, opts.Jobs)
	heap.Init(h)
	for h.Len() > 0 {
		i := h.convs[0]
		css[i].turn(reqs[i], h.at[i])
		h.at[i]++
		if h.at[i] < len(reqs[i]) {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	out := make([]*Conversation, len(reqs))
	for i, cs := range css {
		out[i] = cs.finish(reqs[i])
		if note := crossNote(out[i], names); note != "" {
			out[i].Notes = append(out[i].Notes, note)
		}
	}
	return out, nil
}

// add puts request k of conversation conv into the pool.
func (p *pool) add(conv, k int, r *Request, lb, la *layout, bt, at cache.Turn) {
	if p == nil {
		return
	}
	e := &poolEntry{conv: conv, turn: k + 1, vendor: r.Vendor, model: r.Model, at: r.Time,
		sides: [2]poolSide{{lb, bt}, {la, at}}}
	p.entries = append(p.entries, e)
	if p.byFirst == nil {
		p.byFirst = map[poolKey][]*poolEntry{}
	}
	for s, l := range [2]*layout{lb, la} {
		if l != nil && len(l.chain) > 0 {
			key := poolKey{r.Vendor, r.Model, s, l.chain[0]}
			p.byFirst[key] = append(p.byFirst[key], e)
		}
	}
}

// crossRead names the entry of another conversation a request read from
// (the one it shares the most with), when its read exceeds what its own
// conversation's entries give.
func (p *pool) crossRead(es []*poolEntry, shared []cache.Shared, read, own int) *CrossRead {
	if len(es) == 0 || read <= own {
		return nil
	}
	best := 0
	for j := range es {
		if shared[j].Tokens >= shared[best].Tokens {
			best = j
		}
	}
	e := es[best]
	return &CrossRead{Conversation: p.names[e.conv], Turn: e.turn, Read: read}
}

// crossNote says which turns read another conversation's cache, "" when
// none did.
func crossNote(cv *Conversation, names []string) string {
	var parts []string
	n := 0
	for _, t := range cv.Turns {
		if t.Cross == nil {
			continue
		}
		n++
		if n > 3 {
			continue
		}
		from := t.Cross.Before
		if from == nil {
			from = t.Cross.After
		}
		read := func(c *CrossRead) string {
			if c == nil {
				return "0"
			}
			return units.Thousands(c.Read)
		}
		parts = append(parts, fmt.Sprintf("turn %d reads %s → %s tokens from the cache of %s (turn %d)", t.Turn, read(t.Cross.Before), read(t.Cross.After), from.Conversation, from.Turn))
	}
	if n == 0 {
		return ""
	}
	more := ""
	if n > 3 {
		more = fmt.Sprintf(", and %d more turns", n-3)
	}
	return "the provider keys its cache by prefix, not by conversation: " + strings.Join(parts, "; ") + more
}

// nextTurn is a heap of the conversations that have requests left, the one
// whose next request comes first on top.
type nextTurn struct {
	reqs   [][]Request
	before func(a, b *Request) bool
	convs  []int
	at     []int // the next request of each conversation
}

func (h *nextTurn) Len() int { return len(h.convs) }
func (h *nextTurn) Less(a, b int) bool {
	ia, ib := h.convs[a], h.convs[b]
	return h.before(&h.reqs[ia][h.at[ia]], &h.reqs[ib][h.at[ib]])
}
func (h *nextTurn) Swap(a, b int) { h.convs[a], h.convs[b] = h.convs[b], h.convs[a] }
func (h *nextTurn) Push(x any)    { h.convs = append(h.convs, x.(int)) }
func (h *nextTurn) Pop() any {
	x := h.convs[len(h.convs)-1]
	h.convs = h.convs[:len(h.convs)-1]
	return x
}

// layOutAhead lays out the requests of every conversation on up to jobs
// workers (0: GOMAXPROCS), one conversation per worker at a time: a
// converser's token cache is its own.
func layOutAhead(css []*converser, reqs [][]Request, jobs int) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if jobs < 2 || len(css) < 2 {
		return // laid out turn by turn, as they come
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, len(css)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(css) {
					return
				}
				css[i].layAll(reqs[i])
			}
		})
	}
	wg.Wait()
}
