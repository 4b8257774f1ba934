package measure

import (
	"bytes"
	"sort"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// A session's turns repeat each other: turn k+1's request is turn k's and
// what happened since. Transforming every turn on its own costs the square
// of the session. The rules keep a conversation's prefix (a request's
// result repeats the previous request's result and adds to it), except on
// the one request where the output rules start reducing, which rewrites
// what came before once. So along a chain a turn's result is a prefix of
// the result of the last turn before that request, or of the tip's: the
// request where it changes is found by bisection, a few turns are
// transformed whole, and every other turn is read off the two results.
// The turns transformed along the way check the assumption; when one of
// them is not the prefix it should be (a rule that follows the newest
// message, or rewrites the history as it grows), every turn of the chain
// is transformed on its own.

// Transformer transforms one request of a conversation.
type Transformer func(c *capture.Capture) *rules.Result

// Requests transforms the inputs of a conversation with run: each input
// on its own, the turns of a session chain as described above. The
// requests come back in the inputs' order.
func Requests(inputs []Input, run Transformer) ([]Request, error) {
	out := make([]Request, len(inputs))
	chains := map[*Chain][]int{}
	var order []*Chain
	for i := range inputs {
		in := &inputs[i]
		out[i] = Request{Name: in.Name, Vendor: in.Vendor, Model: in.Model, Usage: in.Usage, Time: in.Time, Compaction: in.Compaction, Lead: in.Lead, seq: in.seq}
		if in.Chain == nil {
			out[i].Result = run(in.Capture)
			continue
		}
		if _, seen := chains[in.Chain]; !seen {
			order = append(order, in.Chain)
		}
		chains[in.Chain] = append(chains[in.Chain], i)
	}
	for _, ch := range order {
		if err := chainRequests(ch, inputs, chains[ch], out, run); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// chainRequests fills out[idx[k]] for the turns idx of one chain.
func chainRequests(ch *Chain, inputs []Input, idx []int, out []Request, run Transformer) error {
	tip := run(ch.Tip)
	results := map[int]*rules.Result{len(idx) - 1: tip}
	var firstErr error
	resultOf := func(k int) *rules.Result {
		if r, ok := results[k]; ok {
			return r
		}
		c, err := inputs[idx[k]].Materialize()
		if err != nil {
			firstErr = err
			return nil
		}
		r := run(c)
		results[k] = r
		return r
	}
	lens := make([]int, len(idx))
	for k, i := range idx {
		lens[k] = inputs[i].Len
	}
	// The first turn whose result is a prefix of the tip's.
	from := sort.Search(len(idx)-1, func(k int) bool {
		r := resultOf(k)
		return r != nil && isPrefix(r.Final, tip.Final, lens[k])
	})
	if firstErr != nil {
		return firstErr
	}
	var before *rules.Result // the last turn before from
	if from > 0 {
		before = resultOf(from - 1)
	}
	// The turns transformed so far must be what the two results say.
	stable := true
	for k, r := range results {
		switch {
		case r == nil:
			stable = false
		case k >= from:
			stable = stable && isPrefix(r.Final, tip.Final, lens[k])
		default:
			stable = stable && isPrefix(r.Final, before.Final, lens[k])
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if !stable {
		for k, i := range idx {
			if r := resultOf(k); r != nil {
				out[i].Result = r
			}
		}
		return firstErr
	}
	tipB, tipA := newLayout(tip.Original), newLayout(tip.Final)
	var befA *layout
	if before != nil {
		befA = newLayout(before.Final)
	}
	for k, i := range idx {
		r := &out[i]
		if res, ok := results[k]; ok {
			r.Result = res
			continue
		}
		r.baseB, r.baseA, r.n = tipB, tipA, lens[k]
		if k < from {
			r.baseA = befA
		}
		in := &inputs[i]
		r.materialize = func() *rules.Result {
			c, err := in.Materialize()
			if err != nil {
				return nil
			}
			return run(c)
		}
	}
	return nil
}

// isPrefix reports whether the Pi message list c is the first n entries of
// the Pi message list of.
func isPrefix(c, of *capture.Capture, n int) bool {
	if c.Provider != capture.PiMessages || of.Provider != capture.PiMessages {
		return false
	}
	d, e := c.Doc, of.Doc
	if d.Kind(0) != capture.Array || e.Kind(0) != capture.Array || d.Len(0) != n || e.Len(0) < n {
		return false
	}
	k := 0
	other := e.Elem(0, 0)
	for el := range d.Children(0) {
		if other == capture.NoNode || !bytes.Equal(d.Raw(el), e.Raw(other)) {
			return false
		}
		k++
		if k < n {
			other = e.Nodes[other].Skip
		}
	}
	return true
}

// prefixLayout is the layout of the first n entries of the Pi message list
// l lays out: one block an entry, so its first n blocks, with the chain
// and ends they already have (l is counted).
func prefixLayout(l *layout, n int) *layout {
	outputs, bps := l.cacheMarks()
	p := *l
	p.base = l
	n = min(n, len(l.blocks))
	p.blocks, p.chain, p.ends = l.blocks[:n], l.chain[:n], l.ends[:n]
	p.outputs = outputs[:n]
	k := len(bps)
	for k > 0 && bps[k-1].Block >= n {
		k--
	}
	p.bps = bps[:k:k]
	p.bytes = 2
	if n > 0 {
		p.bytes = l.blocks[n-1].End - l.blocks[0].Start + 2
	}
	return &p
}
