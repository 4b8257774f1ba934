package capture

import "slices"

// ReplaceStrings returns a copy of c whose string values at nodes (in any
// order, each a String node of c.Doc, none twice) are replaced by the JSON
// strings texts, with its index derived from c's (see WithSplices) instead
// of by parsing the new body. ok is false, and c is left as it is, when a
// node is not a string, a text is not exactly one JSON string (no white
// space around it), or the result is too large; the caller then splices
// the body and parses it. The index is the one Parse gives the new body.
func (c *Capture) ReplaceStrings(nodes []Node, texts [][]byte) (_ *Capture, ok bool) {
	d := c.Doc
	if len(nodes) == 0 || len(nodes) != len(texts) {
		return nil, false
	}
	splices := make([]Splice, len(nodes))
	size := len(d.Src)
	for i, n := range nodes {
		// A text that starts with a quote and is one value is a string.
		if n == NoNode || int(n) >= len(d.Nodes) || d.Nodes[n].Kind != String || len(texts[i]) == 0 || texts[i][0] != '"' {
			return nil, false
		}
		e := d.Nodes[n]
		splices[i] = Splice{Start: int(e.Start), End: int(e.End), Text: texts[i], Node: n}
		size += len(texts[i]) - int(e.End-e.Start)
	}
	if size > MaxSize {
		return nil, false
	}
	// Distinct strings neither overlap nor nest.
	slices.SortFunc(splices, func(a, b Splice) int { return a.Start - b.Start })
	for i := 1; i < len(splices); i++ {
		if splices[i].Node == splices[i-1].Node {
			return nil, false
		}
	}
	body := spliceBytes(d.Src, splices)
	nd := d.spliced(body, splices)
	if nd == nil {
		return nil, false
	}
	return c.with(body, nd), true
}
