package measure

import (
	"crypto/sha256"
	"sort"
	"strings"

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
	node       int
	start, end int // the block's span in the body
	// mark names the block's role in the prompt ("message user", …); it
	// is part of what is compared, so that the same text under another
	// role or at another level is another block.
	mark string
	// cuts are the spans of cache_control members inside the block, in
	// order; they are left out of what is compared and counted.
	cuts [][2]int
	// ttl is "5m" or "1h" for an explicit cache breakpoint on the block.
	ttl string
	// output: the block replays the model's own output.
	output bool
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
	out := make([]byte, 0, len(b.mark)+1+b.end-b.start)
	out = append(out, b.mark...)
	out = append(out, 0)
	at := b.start
	for _, cut := range b.cuts {
		out = append(out, src[at:cut[0]]...)
		at = cut[1]
	}
	return append(out, src[at:b.end]...)
}

// bodyOffset maps an offset into norm(i) back to the body.
func (l *layout) bodyOffset(i, off int) int {
	b := &l.blocks[i]
	off -= len(b.mark) + 1
	if off <= 0 {
		return b.start
	}
	at := b.start
	for _, cut := range b.cuts {
		if at+off < cut[0] {
			return at + off
		}
		off -= cut[0] - at
		at = cut[1]
	}
	return min(at+off, b.end)
}

// text returns what is counted of block i up to body offset end: the text
// of its segments (see capture.SegmentText) and, for wire bodies, the bytes
// between them, cache_control members left out.
func (l *layout) text(i, end int) string {
	b := &l.blocks[i]
	c := l.c
	end = min(end, b.end)
	var sb strings.Builder
	// raw appends body bytes [from,to) without the cut spans.
	raw := func(from, to int) {
		for _, cut := range b.cuts {
			if cut[1] <= from || cut[0] >= to {
				continue
			}
			if cut[0] > from {
				sb.Write(c.Body[from:cut[0]])
			}
			from = max(from, cut[1])
		}
		if from < to {
			sb.Write(c.Body[from:to])
		}
	}
	at := b.start
	k := sort.Search(len(l.segs), func(k int) bool { return l.segs[k].End > b.start })
	for ; k < len(l.segs) && l.segs[k].Start < end; k++ {
		s := l.segs[k]
		from, to := max(s.Start, b.start), min(s.End, end)
		if from >= to {
			continue
		}
		if l.gaps && from > at {
			raw(at, from)
		}
		switch s.Kind {
		case capture.SecTools, capture.SecToolCalls, capture.SecOther:
			raw(from, to)
		default:
			part := s
			part.Start, part.End = from, to
			if s.Start < b.start || s.End > b.end {
				// A segment wider than the block (a whole message
				// labelled at once): read only the block's part.
				part.Node = b.node
			}
			sb.WriteString(c.SegmentText(part))
		}
		at = to
	}
	if l.gaps && at < end {
		raw(at, end)
	}
	return sb.String()
}

// newLayout cuts a request into blocks; tokens are counted later.
func newLayout(c *capture.Capture) *layout {
	l := &layout{c: c, gaps: c.Provider != capture.PiMessages}
	d := c.Doc
	if d == nil || len(d.Nodes) == 0 {
		return l
	}
	add := func(node int, mark string, output bool) {
		if node < 0 {
			return
		}
		n := &d.Nodes[node]
		b := block{node: node, start: int(n.Start), end: int(n.End), mark: mark, output: output}
		b.cuts, b.ttl = cacheControls(d, node)
		l.blocks = append(l.blocks, b)
	}
	root := 0
	switch c.Provider {
	case capture.Anthropic:
		for t := range d.Children(d.Get(root, "tools")) {
			add(t, "tool", false)
		}
		if s := d.Get(root, "system"); d.Kind(s) == capture.Array {
			for b := range d.Children(s) {
				add(b, "system", false)
			}
		} else {
			add(s, "system", false)
		}
		for m := range d.Children(d.Get(root, "messages")) {
			role := d.GetStr(m, "role")
			content := d.Get(m, "content")
			mark := "message " + role
			if d.Kind(content) != capture.Array {
				add(m, mark, role == "assistant")
				continue
			}
			first := true
			for b := range d.Children(content) {
				add(b, mark, role == "assistant")
				if first {
					mark, first = "", false
				}
			}
			if first {
				add(m, mark, role == "assistant")
			}
		}
		l.auto = d.Get(root, "cache_control") >= 0
	case capture.OpenAIChat, capture.Mistral:
		for _, key := range []string{"tools", "functions"} {
			for t := range d.Children(d.Get(root, key)) {
				add(t, "tool", false)
			}
		}
		for m := range d.Children(d.Get(root, "messages")) {
			add(m, "message", d.GetStr(m, "role") == "assistant")
		}
		l.keyed = d.Kind(d.Get(root, "prompt_cache_key")) == capture.String
	case capture.OpenAIResponses:
		for t := range d.Children(d.Get(root, "tools")) {
			add(t, "tool", false)
		}
		if s := d.Get(root, "instructions"); d.Kind(s) == capture.String {
			add(s, "system", false)
		}
		in := d.Get(root, "input")
		if d.Kind(in) == capture.Array {
			for it := range d.Children(in) {
				add(it, "item", responsesOutput(d, it))
			}
		} else {
			add(in, "message user", false)
		}
		l.keyed = d.Kind(d.Get(root, "prompt_cache_key")) == capture.String
	case capture.Gemini:
		for t := range d.Children(d.Get(root, "tools")) {
			if decls := d.Get(t, "functionDeclarations"); d.Kind(decls) == capture.Array {
				for f := range d.Children(decls) {
					add(f, "tool", false)
				}
				continue
			}
			add(t, "tool", false)
		}
		add(d.GetAny(root, "systemInstruction", "system_instruction"), "system", false)
		for m := range d.Children(d.Get(root, "contents")) {
			add(m, "content", d.GetStr(m, "role") == "model")
		}
	case capture.PiMessages:
		switch d.Kind(root) {
		case capture.Array:
			for e := range d.Children(root) {
				add(e, "entry", piOutput(d, e))
			}
		case capture.Object:
			if d.Get(root, "role") >= 0 {
				add(root, "entry", piOutput(d, root))
				break
			}
			for t := range d.Children(d.Get(root, "tools")) {
				add(t, "tool", false)
			}
			add(d.Get(root, "systemPrompt"), "system", false)
			for m := range d.Children(d.Get(root, "messages")) {
				add(m, "entry", piOutput(d, m))
			}
		}
	}
	l.segs = c.Segments()
	return l
}

// responsesOutput reports an input item of a Responses body that replays
// model output.
func responsesOutput(d *capture.Doc, it int) bool {
	if d.GetStr(it, "role") == "assistant" {
		return true
	}
	switch d.GetStr(it, "type") {
	case "reasoning", "function_call", "custom_tool_call", "web_search_call", "file_search_call", "computer_call", "code_interpreter_call":
		return true
	}
	return false
}

// piOutput reports a Pi message or session entry holding an assistant
// message.
func piOutput(d *capture.Doc, e int) bool {
	if m := d.Get(e, "message"); m >= 0 {
		e = m
	}
	return d.GetStr(e, "role") == "assistant"
}

// cacheControls returns the spans of the cache_control members inside node
// (each with its separating comma, so that what is left reads as the same
// JSON without the member) and the lifetime of a cache_control member of
// node itself ("" when it has none).
func cacheControls(d *capture.Doc, node int) (cuts [][2]int, ttl string) {
	if k := d.Kind(node); k != capture.Object && k != capture.Array {
		return nil, ""
	}
	src := d.Src
	check := func(m int) {
		if !d.IsMember(m) || d.Key(m) != "cache_control" {
			return
		}
		ks, _ := d.KeySpan(m)
		end := int(d.Nodes[m].End)
		start := ks
		// Take the comma before the member, or else the one after it.
		i := ks - 1
		for i >= 0 && isSpace(src[i]) {
			i--
		}
		if i >= 0 && src[i] == ',' {
			start = i
		} else {
			j := end
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j < len(src) && src[j] == ',' {
				j++
				for j < len(src) && isSpace(src[j]) {
					j++
				}
				end = j
			}
		}
		cuts = append(cuts, [2]int{start, end})
	}
	for m := range d.Children(node) {
		check(m)
		if d.IsMember(m) && d.Key(m) == "cache_control" && d.Kind(m) == capture.Object {
			ttl = "5m"
			if d.StrIs(d.Get(m, "ttl"), "1h") {
				ttl = "1h"
			}
		}
	}
	for m, parent := range d.Walk(node) {
		if parent != node {
			check(m)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	// A member nested in another cut member is inside its span already.
	out := cuts[:0]
	for _, c := range cuts {
		if len(out) > 0 && c[0] < out[len(out)-1][1] {
			continue
		}
		out = append(out, c)
	}
	return out, ttl
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tokenCache keeps the token count of each block seen, by its identity,
// so a conversation's shared history is counted once.
type tokenCache struct {
	counter Counter
	counts  map[[32]byte]int
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
			texts = append(texts, l.text(i, l.blocks[i].end))
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
func nodeAt(d *capture.Doc, off int) int {
	cur := 0
	for {
		next := -1
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
		if next < 0 {
			return cur
		}
		cur = next
	}
}
