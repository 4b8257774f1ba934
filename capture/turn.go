package capture

import (
	"bytes"
	"sort"
)

// TurnPrefix is what a request of a conversation repeats for the request
// after it, as captured and in the order a prompt cache reads it: its
// tool declarations, its system text and its messages, with the
// cache_control markers left out (they move from turn to turn). These are
// the parts the conversation-prefix invariant compares.
type TurnPrefix struct {
	Decls  [][]byte
	System []byte
	Msgs   [][]byte
}

// PrefixOf returns a request's TurnPrefix.
func PrefixOf(c *Capture) TurnPrefix {
	p := PartsOf(c)
	t := TurnPrefix{Decls: p.Decls, System: p.System, Msgs: make([][]byte, len(p.Msgs))}
	for i, m := range p.Msgs {
		t.Msgs[i] = StripCacheControl(c.Doc, m)
	}
	return t
}

// ContinuedBy reports whether next is a later turn of the conversation
// whose latest request is p: the same system text; the same tool
// declarations, or those with more among them (a tool search or a
// deferred tool the conversation activates adds its declaration); and
// messages that start with every message of p, which has at least one.
func (p TurnPrefix) ContinuedBy(next TurnPrefix) bool {
	if len(p.Msgs) == 0 || len(next.Msgs) < len(p.Msgs) || !bytes.Equal(p.System, next.System) {
		return false
	}
	for i, m := range p.Msgs {
		if !bytes.Equal(m, next.Msgs[i]) {
			return false
		}
	}
	// p's declarations, in order, among next's.
	k := 0
	for _, d := range next.Decls {
		if k < len(p.Decls) && bytes.Equal(d, p.Decls[k]) {
			k++
		}
	}
	return k == len(p.Decls)
}

// TurnParts are the parts of one request that a provider's prompt cache
// sees in prefix order: the tool declarations and the system text (each
// without cache_control), each declaration alone, and the message nodes.
type TurnParts struct {
	Tools, System []byte
	Decls         [][]byte
	Msgs          []Node
}

// PartsOf returns a request's TurnParts.
func PartsOf(c *Capture) TurnParts {
	var p TurnParts
	d := c.Doc
	first := -1 // the first message that is not an instruction
	for _, s := range c.Segments() {
		if s.Msg >= 0 && s.Prov != ProvSystem && s.Kind != SecCatalog && (first < 0 || s.Msg < first) {
			first = s.Msg
		}
	}
	for _, s := range c.Segments() {
		switch {
		case s.Kind == SecTools && s.Msg < 0:
			decl := StripCacheControl(d, s.Node)
			p.Decls = append(p.Decls, decl)
			p.Tools = append(append(p.Tools, decl...), '\n')
		case (s.Kind == SecSystem && s.Prov == ProvSystem || s.Kind == SecCatalog) && (s.Msg < 0 || first < 0 || s.Msg < first):
			b := s.Bytes(d)
			if !s.Partial(d) {
				b = StripCacheControl(d, s.Node)
			}
			p.System = append(append(p.System, b...), '\n')
		}
	}
	for m := range d.Children(MessageList(c)) {
		p.Msgs = append(p.Msgs, m)
	}
	return p
}

// MessageList returns the array of a body's conversation, or NoNode.
func MessageList(c *Capture) Node {
	d := c.Doc
	n := NoNode
	switch c.Provider {
	case OpenAIResponses:
		n = d.Get(0, "input")
	case Gemini:
		n = d.Get(0, "contents")
		if r := d.Get(0, "request"); n == NoNode && d.Kind(r) == Object {
			n = d.Get(r, "contents")
		}
	case PiMessages:
		if d.Kind(0) == Array {
			n = 0
		} else {
			n = d.Get(0, "messages")
		}
	default:
		n = d.Get(0, "messages")
	}
	if d.Kind(n) != Array {
		return NoNode
	}
	return n
}

// StripCacheControl returns the bytes of node n without its cache_control
// members: they mark where a prefix ends and move from turn to turn, but
// are not content.
func StripCacheControl(d *Doc, n Node) []byte {
	type cut struct{ from, to int }
	var cuts []cut
	for i, parent := range d.Walk(n) {
		if !d.IsMember(i) || d.Key(i) != "cache_control" || d.Kind(parent) != Object {
			continue
		}
		ks, _ := d.KeySpan(i)
		from, to := ks, int(d.Nodes[i].End)
		// Take one comma with it: the one before, or else the one after.
		j := from - 1
		for j >= 0 && isSpace(d.Src[j]) {
			j--
		}
		if j >= 0 && d.Src[j] == ',' {
			from = j
		} else {
			k := to
			for k < len(d.Src) && isSpace(d.Src[k]) {
				k++
			}
			if k < len(d.Src) && d.Src[k] == ',' {
				to = k + 1
			}
		}
		cuts = append(cuts, cut{from, to})
	}
	node := &d.Nodes[n]
	if len(cuts) == 0 {
		return d.Src[node.Start:node.End]
	}
	sort.Slice(cuts, func(a, b int) bool { return cuts[a].from < cuts[b].from })
	var out []byte
	prev := int(node.Start)
	for _, c := range cuts {
		if c.from < prev {
			continue // nested in a cut already made
		}
		out = append(out, d.Src[prev:c.from]...)
		prev = c.to
	}
	return append(out, d.Src[prev:node.End]...)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
