package measure

import (
	"crypto/sha256"

	"sort"
	"strings"

	"github.com/skillopt/skillopt/measure/cache"

	"github.com/skillopt/skillopt/capture"
)

// A prompt cache compares requests as the provider renders them: the tool
// declarations, then the system instructions, then the messages, whatever
// the order of the members in the JSON body. A layout is a request in that
// order, cut into blocks (a tool declaration, a system block, a message or
// a content block), each identified by its bytes without the members that
// only steer the cache (cache_control).

// block is one unit of a request's prompt.
type block struct {
	capture.PromptBlock
	hash   [32]byte
	tokens int
}

// layout is one request as a prompt cache sees it.
type layout struct {
	c      *capture.Capture
	blocks []block
	chain  [][32]byte // chain[i] identifies the prompt through block i
	ends   []int      // ends[i] is the token count through block i
	auto   bool       // a request-level cache_control (automatic breakpoint)
	keyed  bool       // the request carries a prompt cache key
	// gaps: the bytes between the text segments of a block are part of
	// what the model reads (keys and punctuation of a wire body stand for
	// the provider's own framing); false for Pi session entries, whose
	// ids and timestamps are never sent.
	gaps bool
	segs []capture.Segment
	// bytes is the size of the request when the layout is the prefix of a
	// longer one's (prefixLayout); 0: the capture's body. base is that
	// longer layout.
	bytes int
	base  *layout
	// outputs and bps are the blocks' output flags and breakpoints as the
	// cache model takes them (cacheMarks), made once a layout.
	outputs []bool
	bps     []cache.Breakpoint
	marked  bool
}

// cacheMarks returns which blocks replay the model's output and the
// explicit breakpoints, in block order.
func (l *layout) cacheMarks() ([]bool, []cache.Breakpoint) {
	if !l.marked {
		l.outputs = make([]bool, len(l.blocks))
		l.bps = nil
		for i, b := range l.blocks {
			l.outputs[i] = b.Output
			if b.TTL != "" {
				l.bps = append(l.bps, cache.Breakpoint{Block: i, TTL: b.TTL})
			}
		}
		l.marked = true
	}
	return l.outputs, l.bps
}

// size is the request's size in bytes.
func (l *layout) size() int {
	if l.bytes > 0 {
		return l.bytes
	}
	return len(l.c.Body)
}

func (l *layout) tokens() int {
	if len(l.ends) == 0 {
		return 0
	}
	return l.ends[len(l.ends)-1]
}

// norm returns the bytes of block i that a cache compares.
func (l *layout) norm(i int) []byte {
	b := &l.blocks[i]
	src := l.c.Body
	out := make([]byte, 0, len(b.Mark)+1+b.End-b.Start)
	out = append(out, b.Mark...)
	out = append(out, 0)
	at := b.Start
	for _, cut := range b.Cuts {
		out = append(out, src[at:cut[0]]...)
		at = cut[1]
	}
	return append(out, src[at:b.End]...)
}

// bodyOffset maps an offset into norm(i) back to the body.
func (l *layout) bodyOffset(i, off int) int {
	b := &l.blocks[i]
	off -= len(b.Mark) + 1
	if off <= 0 {
		return b.Start
	}
	at := b.Start
	for _, cut := range b.Cuts {
		if at+off < cut[0] {
			return at + off
		}
		off -= cut[0] - at
		at = cut[1]
	}
	return min(at+off, b.End)
}

// text returns what is counted of block i up to body offset end: the text
// of its segments (see capture.SegmentText) and, for wire bodies, the bytes
// between them, cache_control members left out.
func (l *layout) text(i, end int) string {
	var sb strings.Builder
	l.parts(i, end, func(_ capture.Section, s string, raw []byte) {
		sb.WriteString(s)
		sb.Write(raw)
	})
	return sb.String()
}

// parts hands emit, in order, the pieces of what is counted of block i up
// to body offset end, each with its section, as text or as body bytes:
// the bytes between segments are "other". text is their concatenation.
func (l *layout) parts(i, end int, emit func(kind capture.Section, text string, raw []byte)) {
	b := &l.blocks[i]
	c := l.c
	end = min(end, b.End)
	// raw emits body bytes [from,to) without the cut spans.
	raw := func(kind capture.Section, from, to int) {
		for _, cut := range b.Cuts {
			if cut[1] <= from || cut[0] >= to {
				continue
			}
			if cut[0] > from {
				emit(kind, "", c.Body[from:cut[0]])
			}
			from = max(from, cut[1])
		}
		if from < to {
			emit(kind, "", c.Body[from:to])
		}
	}
	at := b.Start
	k := sort.Search(len(l.segs), func(k int) bool { return l.segs[k].End > b.Start })
	for ; k < len(l.segs) && l.segs[k].Start < end; k++ {
		s := l.segs[k]
		from, to := max(s.Start, b.Start), min(s.End, end)
		if from >= to {
			continue
		}
		if l.gaps && from > at {
			raw(capture.SecOther, at, from)
		}
		switch s.Kind {
		case capture.SecTools, capture.SecToolCalls, capture.SecOther:
			raw(s.Kind, from, to)
		default:
			part := s
			part.Start, part.End = from, to
			if s.Start < b.Start || s.End > b.End {
				// A segment wider than the block (a whole message
				// labelled at once): read only the block's part.
				part.Node = b.Node
			}
			emit(s.Kind, c.SegmentText(part), nil)
		}
		at = to
	}
	if l.gaps && at < end {
		raw(capture.SecOther, at, end)
	}
}

// newLayout cuts a request into blocks; tokens are counted later.
func newLayout(c *capture.Capture) *layout {
	l := &layout{c: c, gaps: c.Provider != capture.PiMessages}
	p := c.Prompt()
	l.blocks = make([]block, len(p.Blocks))
	for i, b := range p.Blocks {
		l.blocks[i].PromptBlock = b
	}
	l.auto, l.keyed = p.Auto, p.Keyed
	l.segs = c.Segments()
	return l
}

// tokenCache keeps the token count of each block seen, by its identity,
// so a conversation's shared history is counted once.
type tokenCache struct {
	counter Counter
	counts  map[[32]byte]int
	// sections are the blocks' tokens per section (blockSections).
	sections map[[32]byte][]int
}

// count fills in the hashes, token counts, chain and ends of layouts.
func (tc *tokenCache) count(ls ...*layout) {
	var texts []string
	type ref struct {
		l *layout
		i int
	}
	var refs []ref
	pending := map[[32]byte]bool{}
	for _, l := range ls {
		for i := range l.blocks {
			b := &l.blocks[i]
			h := sha256.New()
			if !l.gaps {
				h.Write([]byte{1})
			}
			h.Write(l.norm(i))
			copy(b.hash[:], h.Sum(nil))
			if _, ok := tc.counts[b.hash]; ok || pending[b.hash] {
				continue
			}
			pending[b.hash] = true
			texts = append(texts, l.text(i, l.blocks[i].End))
			refs = append(refs, ref{l, i})
		}
	}
	if len(texts) > 0 {
		for k, n := range tc.counter.CountAll(texts) {
			tc.counts[refs[k].l.blocks[refs[k].i].hash] = n
		}
	}
	for _, l := range ls {
		l.chain = make([][32]byte, len(l.blocks))
		l.ends = make([]int, len(l.blocks))
		var prev [32]byte
		total := 0
		for i := range l.blocks {
			b := &l.blocks[i]
			b.tokens = tc.counts[b.hash]
			total += b.tokens
			l.ends[i] = total
			h := sha256.New()
			h.Write(prev[:])
			h.Write(b.hash[:])
			copy(prev[:], h.Sum(nil))
			l.chain[i] = prev
		}
	}
}

// sharedBlocks returns how many leading blocks a and b have in common.
func sharedBlocks(a, b *layout) int {
	if a.base != nil && a.base == b.base {
		// Two prefixes of one layout share the shorter one.
		return min(len(a.chain), len(b.chain))
	}
	n := min(len(a.chain), len(b.chain))
	// The chains agree on a prefix and then never again.
	return sort.Search(n, func(i int) bool { return a.chain[i] != b.chain[i] })
}

// divergence returns where cur first differs from prev: the block index in
// cur and the offset into its compared bytes. ok is false when prev is a
// prefix of cur (or equal to it).
func divergence(prev, cur *layout) (blk, off int, ok bool) {
	k := sharedBlocks(prev, cur)
	if k == len(prev.blocks) {
		return 0, 0, false
	}
	if k == len(cur.blocks) {
		return k, 0, true
	}
	a, b := prev.norm(k), cur.norm(k)
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return k, n, true
}

// nodeAt returns the deepest node of d whose span holds byte off.
func nodeAt(d *capture.Doc, off int) capture.Node {
	cur := capture.Node(0)
	for {
		next := capture.NoNode
		for ch := range d.Children(cur) {
			n := &d.Nodes[ch]
			if int(n.Start) <= off && off < int(n.End) {
				next = ch
				break
			}
			if int(n.Start) > off {
				break
			}
		}
		if next == capture.NoNode {
			return cur
		}
		cur = next
	}
}
