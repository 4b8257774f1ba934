package capture

import (
	"fmt"
	"sort"
)

// A Splice is one change to a document's bytes: Text takes the place of
// Src[Start:End]. Node says what the change is, so that the new index can
// be derived from the old one: with Insert false, Text is the new value of
// Node and [Start, End) is Node's span; with Insert true, Text adds
// elements (Node an array) or members (Node an object) to Node at Start,
// which equals End, with the commas that separate them from their
// neighbours.
type Splice struct {
	Start, End int
	Text       []byte
	Node       Node
	Insert     bool
}

// WithSplices returns a copy of c whose body is c.Body with the splices
// made (sorted by position, none overlapping or nested; insertions at
// one place in their order), and its index. The index is derived from
// c's rather than parsed where the splices are values or whole elements
// and members in their places, as an engine makes them; otherwise, and
// whenever the result might not be what Parse would give (a duplicate
// member, deeper nesting than MaxDepth, a key far from its value), the
// new body is parsed, and its error returned. Either way the index is
// the one Parse gives the new body.
func (c *Capture) WithSplices(splices []Splice) (*Capture, error) {
	prev := 0
	for _, s := range splices {
		if s.Start < prev || s.End < s.Start || s.End > len(c.Body) {
			return nil, fmt.Errorf("splices out of order, overlapping or past the body (%d–%d)", s.Start, s.End)
		}
		prev = s.End
	}
	body := spliceBytes(c.Body, splices)
	if doc := c.Doc.spliced(body, splices); doc != nil {
		return c.with(body, doc), nil
	}
	return c.WithBody(body)
}

// spliceBytes returns src with the sorted splices made.
func spliceBytes(src []byte, splices []Splice) []byte {
	size := len(src)
	for _, s := range splices {
		size += len(s.Text) - (s.End - s.Start)
	}
	out := make([]byte, 0, size)
	prev := 0
	for _, s := range splices {
		out = append(out, src[prev:s.Start]...)
		out = append(out, s.Text...)
		prev = s.End
	}
	return append(out, src[prev:]...)
}

// piece is a splice resolved against the index: the nodes it removes and
// the nodes it brings.
type piece struct {
	at      int     // where its nodes go, as a node of the old index
	removed int     // old nodes it removes from at
	nodes   []Entry // its nodes, their spans from the start of its text
	in      Node    // an insertion's container, or NoNode
	start   int     // its text's offset in the new body
}

// resolved is the splices of a document resolved against its index.
type resolved struct {
	pieces []piece
	// A position of the old body moves by the deltas of the splices
	// before it: a start from a replacement's end or an insertion's
	// place on, an end from a replacement's end or one past an
	// insertion's place on. Both keys grow with the splices.
	startKey, endKey []int
	shift            []int // shift[k]: the deltas of splices [0, k)
	surrogates       bool
	size             int // nodes of the new index
}

// resolve resolves splices against d, or returns false when the new index
// is left to the parse.
func (d *Doc) resolve(body []byte, splices []Splice) (*resolved, bool) {
	r := &resolved{
		pieces:     make([]piece, len(splices)),
		startKey:   make([]int, len(splices)),
		endKey:     make([]int, len(splices)),
		shift:      make([]int, len(splices)+1),
		surrogates: d.surrogates,
		size:       len(d.Nodes),
	}
	var members map[Node][]string // keys inserted so far, by object
	for k, s := range splices {
		if k > 0 && s.Start < splices[k-1].End {
			return nil, false
		}
		p := &r.pieces[k]
		p.start = s.Start + r.shift[k]
		r.shift[k+1] = r.shift[k] + len(s.Text) - (s.End - s.Start)
		var nd *Doc
		need := 0 // the nesting the new nodes add below their place
		if s.Insert {
			nd = d.fragment(body, s, p, &members)
			r.startKey[k], r.endKey[k] = s.Start, s.Start+1
			if nd != nil {
				need = depth(nd.Nodes) - 1
			}
		} else {
			nd = d.replacement(s, p)
			r.startKey[k], r.endKey[k] = s.End, s.End
			if nd != nil {
				need = depth(nd.Nodes)
			}
		}
		if nd == nil || k > 0 && p.at < r.pieces[k-1].at+r.pieces[k-1].removed {
			return nil, false
		}
		if need > 0 && d.containers(p)+need > MaxDepth {
			return nil, false // the parse reports the nesting
		}
		r.surrogates = r.surrogates || nd.surrogates
		r.size += len(p.nodes) - p.removed
	}
	return r, true
}

// spliced returns the index of body, the bytes d.Src gives with splices
// made, or nil when it is not derived (the caller parses body).
func (d *Doc) spliced(body []byte, splices []Splice) *Doc {
	if len(splices) == 0 || len(body) > MaxSize {
		return nil
	}
	r, ok := d.resolve(body, splices)
	if !ok {
		return nil
	}
	pieces := r.pieces
	moved := func(pos int, keys []int) uint32 {
		return uint32(pos + r.shift[countUpTo(keys, pos)])
	}
	// added[k]: the new nodes of pieces [0, k), less the removed ones.
	added := make([]int, len(pieces)+1)
	for k, p := range pieces {
		added[k+1] = added[k] + len(p.nodes) - p.removed
	}
	skipTo := func(x Node, v int) Node {
		// Pieces placed before v move it; an insertion placed at v
		// moves it when x is the container or one of its ancestors
		// (the new nodes join x's subtree), a replacement there does not.
		k := sort.Search(len(pieces), func(k int) bool { return pieces[k].at >= v })
		out := v + added[k]
		for ; k < len(pieces) && pieces[k].at == v; k++ {
			if p := &pieces[k]; p.in != NoNode && x <= p.in {
				out += len(p.nodes)
			}
		}
		return Node(out)
	}
	out := make([]Entry, 0, r.size)
	i := 0
	emit := func(to int) {
		for ; i < to; i++ {
			e := d.Nodes[i]
			e.Start = moved(int(e.Start), r.startKey)
			e.End = moved(int(e.End), r.endKey)
			e.Skip = skipTo(Node(i), int(e.Skip))
			out = append(out, e)
		}
	}
	for k := range pieces {
		p := &pieces[k]
		emit(p.at)
		base := Node(len(out))
		for _, e := range p.nodes {
			e.Start += uint32(p.start)
			e.End += uint32(p.start)
			e.Skip += base
			out = append(out, e)
		}
		i += p.removed
	}
	emit(len(d.Nodes))
	return &Doc{Src: body, Nodes: out, gaps: r.gaps(d.gaps), surrogates: r.surrogates}
}

// countUpTo is how many of the sorted keys are at most pos: a scan for the
// few splices an edit makes, a search for many.
func countUpTo(keys []int, pos int) int {
	if len(keys) > 8 {
		return sort.Search(len(keys), func(k int) bool { return keys[k] > pos })
	}
	k := 0
	for k < len(keys) && keys[k] <= pos {
		k++
	}
	return k
}

// gaps returns the old index's gaps of bigGap nodes under the nodes' new
// numbers; a replaced value's new node keeps the gap of the old one, and
// the gaps inside replaced values go with them.
func (r *resolved) gaps(old map[int32]uint32) map[int32]uint32 {
	if len(old) == 0 {
		return nil
	}
	out := make(map[int32]uint32, len(old))
	for k, g := range old {
		if nk, ok := r.renumber(int(k)); ok {
			out[int32(nk)] = g
		}
	}
	return out
}

// renumber returns the new number of old node k, or false when k was
// inside a replaced value.
func (r *resolved) renumber(k int) (int, bool) {
	shift := 0
	for _, p := range r.pieces {
		switch {
		case p.at > k:
			return k + shift, true
		case p.at+p.removed <= k: // inserted before k (nothing removed), or replaced before it
			shift += len(p.nodes) - p.removed
		case p.at == k:
			return k + shift, true // the replaced value itself: its new root
		default:
			return 0, false
		}
	}
	return k + shift, true
}

// replacement resolves a splice that replaces the value of s.Node: its
// text must be exactly one value.
func (d *Doc) replacement(s Splice, p *piece) *Doc {
	n := s.Node
	if n < 0 || int(n) >= len(d.Nodes) || int(d.Nodes[n].Start) != s.Start || int(d.Nodes[n].End) != s.End {
		return nil
	}
	nd := parseString(s.Text)
	if nd == nil {
		var err error
		if nd, err = Parse(s.Text); err != nil || nd.Nodes[0].Start != 0 || int(nd.Nodes[0].End) != len(s.Text) || len(nd.gaps) > 0 {
			return nil
		}
	}
	old := d.Nodes[n]
	p.at, p.removed, p.in = int(n), int(old.Skip-n), NoNode
	p.nodes = nd.Nodes
	// The new value keeps the old one's place after its key.
	p.nodes[0].gap = old.gap
	p.nodes[0].flags = p.nodes[0].flags&^flagKeyEscaped | old.flags&flagKeyEscaped
	return nd
}

// fragment resolves a splice that inserts elements or members into
// s.Node: its text, less a leading and a trailing comma, must be a list
// of them, and it must have a comma on a side exactly where body has an
// element or a member next to it on that side.
func (d *Doc) fragment(body []byte, s Splice, p *piece, members *map[Node][]string) *Doc {
	c := s.Node
	if c < 0 || int(c) >= len(d.Nodes) || s.Start != s.End || len(s.Text) == 0 {
		return nil
	}
	cn := d.Nodes[c]
	open, close := byte('['), byte(']')
	switch {
	case cn.Kind == Object:
		open, close = '{', '}'
	case cn.Kind != Array:
		return nil
	}
	if s.Start <= int(cn.Start) || s.Start >= int(cn.End) {
		return nil
	}
	text := s.Text
	lead := text[0] == ','
	trail := len(text) > 1 && text[len(text)-1] == ','
	before := lastNonSpace(body[:p.start])
	after := firstNonSpace(body[p.start+len(text):])
	if before < 0 || after < 0 {
		return nil
	}
	prev, next := body[before], body[p.start+len(text)+after]
	if lead != (prev != open && prev != ',') || trail != (next != close && next != ',') {
		return nil
	}
	inner := text[b2i(lead) : len(text)-b2i(trail)]
	wrapped := make([]byte, 0, len(inner)+2)
	wrapped = append(append(append(wrapped, open), inner...), close)
	nd, err := Parse(wrapped)
	if err != nil || len(nd.gaps) > 0 || len(nd.Nodes) < 2 {
		return nil
	}
	if cn.Kind == Object {
		if *members == nil {
			*members = map[Node][]string{}
		}
		for k := Node(1); int(k) < len(nd.Nodes); k = nd.Nodes[k].Skip {
			key := nd.Key(k)
			if d.Get(c, key) != NoNode {
				return nil // the parse reports the duplicate
			}
			for _, had := range (*members)[c] {
				if had == key {
					return nil
				}
			}
			(*members)[c] = append((*members)[c], key)
		}
	}
	// Where the new nodes go: before the first child that starts after
	// the insertion, or at the end of the container's subtree.
	at := int(cn.Skip)
	for k := c + 1; k < cn.Skip; k = d.Nodes[k].Skip {
		if int(d.Nodes[k].Start) >= s.Start {
			at = int(k)
			break
		}
	}
	p.at, p.removed, p.in = at, 0, c
	// The wrapper goes; the rest moves to the text's place: one byte
	// back for the bracket, one on for a leading comma.
	nodes := nd.Nodes[1:]
	for k := range nodes {
		nodes[k].Start = nodes[k].Start - 1 + uint32(b2i(lead))
		nodes[k].End = nodes[k].End - 1 + uint32(b2i(lead))
		nodes[k].Skip--
	}
	p.nodes = nodes
	return nd
}

// containers is the number of containers around the place of p's nodes:
// the ancestors of a replaced node, or an insertion's container and its
// ancestors. It descends from the root, one child list per level.
func (d *Doc) containers(p *piece) int {
	target := Node(p.at)
	n := 0
	if p.in != NoNode {
		target, n = p.in, 1
	}
	for x := Node(0); x != target; n++ {
		c := x + 1
		for d.Nodes[c].Skip <= target {
			c = d.Nodes[c].Skip
		}
		x = c
	}
	return n
}

// depth is the deepest nesting of containers among nodes, a document's
// (one for a lone container, zero without any).
func depth(nodes []Entry) int {
	var open []Node // the Skips of the containers around the current node
	deepest := 0
	for i, e := range nodes {
		for len(open) > 0 && int(open[len(open)-1]) <= i {
			open = open[:len(open)-1]
		}
		if e.Kind == Array || e.Kind == Object {
			open = append(open, e.Skip)
			deepest = max(deepest, len(open))
		}
	}
	return deepest
}

func lastNonSpace(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if !isSpace(b[i]) {
			return i
		}
	}
	return -1
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		if !isSpace(c) {
			return i
		}
	}
	return -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
