package capture

import "sort"

// ReplaceStrings returns a copy of c whose string values at nodes (in any
// order, each a String node of c.Doc, none twice) are replaced by the JSON
// strings texts, with its index built from c's instead of by parsing the
// new body: a string is a leaf, so only the spans after an edit move, by
// the edits before them. ok is false, and c is left as it is, when a node
// is not a string, a text is not exactly one JSON string (no white space
// around it), or the result is too large; the caller then splices the body
// and parses it. The index is the one Parse gives the new body.
func (c *Capture) ReplaceStrings(nodes []Node, texts [][]byte) (_ *Capture, ok bool) {
	d := c.Doc
	if len(nodes) == 0 || len(nodes) != len(texts) {
		return nil, false
	}
	type edit struct {
		node  Node
		text  []byte
		flags uint8
	}
	edits := make([]edit, len(nodes))
	surrogates := d.surrogates
	size := len(d.Src)
	for i, n := range nodes {
		if n == NoNode || int(n) >= len(d.Nodes) || d.Nodes[n].Kind != String {
			return nil, false
		}
		t := parseString(texts[i])
		if t == nil {
			return nil, false
		}
		edits[i] = edit{n, texts[i], t.Nodes[0].flags & flagEscaped}
		surrogates = surrogates || t.surrogates
		size += len(texts[i]) - int(d.Nodes[n].End-d.Nodes[n].Start)
	}
	if size > MaxSize {
		return nil, false
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].node < edits[j].node })
	for i := 1; i < len(edits); i++ {
		if edits[i].node == edits[i-1].node {
			return nil, false
		}
	}
	body := make([]byte, 0, size)
	prev := 0
	for _, e := range edits {
		n := d.Nodes[e.node]
		body = append(body, d.Src[prev:n.Start]...)
		body = append(body, e.text...)
		prev = int(n.End)
	}
	body = append(body, d.Src[prev:]...)

	// A position moves by the edits that end at or before it: the nodes
	// after an edit, the ends of the containers around it, and the end of
	// the edited string itself.
	ends := make([]uint32, len(edits))
	shift := make([]int64, len(edits)) // cumulative, through edit k
	var total int64
	for k, e := range edits {
		n := d.Nodes[e.node]
		ends[k] = n.End
		total += int64(len(e.text)) - int64(n.End-n.Start)
		shift[k] = total
	}
	moved := func(pos uint32) uint32 {
		k := sort.Search(len(ends), func(k int) bool { return ends[k] > pos }) // edits ending at or before pos: [0, k)
		if k == 0 {
			return pos
		}
		return uint32(int64(pos) + shift[k-1])
	}
	out := make([]Entry, len(d.Nodes))
	copy(out, d.Nodes)
	first := d.Nodes[edits[0].node].Start // nothing before it moves
	for i := range out {
		if out[i].End >= first {
			out[i].Start = moved(out[i].Start)
			out[i].End = moved(out[i].End)
		}
	}
	for _, e := range edits {
		out[e.node].flags = out[e.node].flags&^flagEscaped | e.flags
	}
	nd := &Doc{Src: body, Nodes: out, gaps: d.gaps, surrogates: surrogates}
	return c.with(body, nd), true
}
