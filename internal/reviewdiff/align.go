package reviewdiff

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"slices"
	"sort"

	"github.com/skillopt/skillopt/capture"
)

// Aligning two sequences (the elements of two arrays, the lines of two
// strings) in time and memory linear in their length: the common prefix
// and suffix, then, between them, an exact longest common subsequence when
// the rest is small, else the shortest edit script of Myers' algorithm
// within a budget of work, else anchors on the items that occur once on
// each side with the stretches between them aligned in the same way. Items
// are compared by hash and every match is checked before it is kept. When
// a long stretch still has less than half of its items matched, the values
// differ too much to align and are compared whole.

const (
	// exactCells bounds the table of the exact alignment (4 MiB).
	exactCells = 1 << 20
	// alignMax is the length of the unaligned middle of two sequences
	// beyond which one that is mostly unmatched is not aligned item by item.
	alignMax = 1 << 16
	// anchorTarget is about the number of items sampled for anchors.
	anchorTarget = 1 << 16
)

// match is a run of n equal items: a[x:x+n] and b[y:y+n].
type match struct{ x, y, n int }

// alignment is the result of aligning two sequences: the matched runs in
// order, or ok false when they differ too much to align.
type alignment struct {
	runs []match
	ok   bool
}

// align aligns two sequences of n and m items given by their hashes; same
// reports whether two items with equal hashes are equal. With inPlace, the
// items between the common prefix and suffix may instead be paired in
// place, item k with item k, when that leaves no more of them unmatched
// (counting a pair of unmatched items once): an array whose elements
// changed where they stand reads best that way.
func align(n, m int, ha, hb func(int) uint32, same func(x, y int) bool, inPlace bool) alignment {
	pre := 0
	for pre < n && pre < m && ha(pre) == hb(pre) && same(pre, pre) {
		pre++
	}
	suf := 0
	for suf < n-pre && suf < m-pre && ha(n-1-suf) == hb(m-1-suf) && same(n-1-suf, m-1-suf) {
		suf++
	}
	var runs []match
	if pre > 0 {
		runs = append(runs, match{0, 0, pre})
	}
	if dn, dm := n-suf-pre, m-suf-pre; dn > 0 && dm > 0 {
		ma, mb := make([]uint32, dn), make([]uint32, dm)
		for k := range ma {
			ma[k] = ha(pre + k)
		}
		for k := range mb {
			mb[k] = hb(pre + k)
		}
		budget := 8*(dn+dm) + 1<<16
		var mid []match
		matched := 0
		for _, r := range alignMiddle(ma, mb, &budget) {
			// Keep the matches whose items are equal, not only their hashes.
			start := 0
			for k := 0; k <= r.n; k++ {
				if k == r.n || !same(pre+r.x+k, pre+r.y+k) {
					if k > start {
						mid = append(mid, match{pre + r.x + start, pre + r.y + start, k - start})
						matched += k - start
					}
					start = k + 1
				}
			}
		}
		if inPlace {
			var diag []match
			paired := 0
			for k := range min(dn, dm) {
				if ma[k] != mb[k] || !same(pre+k, pre+k) {
					continue
				}
				if l := len(diag) - 1; l >= 0 && diag[l].x+diag[l].n == pre+k {
					diag[l].n++
				} else {
					diag = append(diag, match{pre + k, pre + k, 1})
				}
				paired++
			}
			if min(dn, dm)-paired+abs(dn-dm) <= unmatched(mid, pre, n-suf, m-suf) {
				mid, matched = diag, paired
			}
		}
		if dn+dm > alignMax && 4*matched < dn+dm {
			return alignment{}
		}
		runs = append(runs, mid...)
	}
	if suf > 0 {
		runs = append(runs, match{n - suf, m - suf, suf})
	}
	return alignment{runs: runs, ok: true}
}

// unmatched counts the items of a[x:xEnd] and b[x:yEnd] that runs leave
// unmatched, a pair of them once: the larger side of each stretch between
// runs.
func unmatched(runs []match, x, xEnd, yEnd int) int {
	y, n := x, 0
	for _, r := range runs {
		n += max(r.x-x, r.y-y)
		x, y = r.x+r.n, r.y+r.n
	}
	return n + max(xEnd-x, yEnd-y)
}

// alignMiddle matches items of a and b, which have no common prefix or
// suffix, by hash; budget is the work left to spend.
func alignMiddle(a, b []uint32, budget *int) []match {
	if len(a)*len(b) <= exactCells {
		return exactLCS(a, b)
	}
	// A few edits: the shortest edit script.
	if ms, ok := myers(a, b, budget, *budget/2); ok {
		return ms
	}
	anchors := uniqueAnchors(a, b)
	var out []match
	x, y := 0, 0
	for _, an := range append(anchors, match{len(a), len(b), 0}) {
		out = append(out, alignGap(a[x:an.x], b[y:an.y], x, y, budget)...)
		if an.n > 0 {
			out = append(out, an)
		}
		x, y = an.x+an.n, an.y+an.n
	}
	return out
}

// alignGap aligns the stretch between two anchors, at offsets x and y; a
// stretch that cannot be aligned within the budget is left unmatched.
func alignGap(a, b []uint32, x, y int, budget *int) []match {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []match
	if pre > 0 {
		out = append(out, match{x, y, pre})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var inner []match
	switch {
	case len(ma) == 0 || len(mb) == 0:
	case len(ma)*len(mb) <= exactCells:
		inner = exactLCS(ma, mb)
		*budget -= len(ma) * len(mb) / 16
	default:
		inner, _ = myers(ma, mb, budget, *budget)
	}
	for _, r := range inner {
		out = append(out, match{x + pre + r.x, y + pre + r.y, r.n})
	}
	if suf > 0 {
		out = append(out, match{x + len(a) - suf, y + len(b) - suf, suf})
	}
	return out
}

// exactLCS returns a longest common subsequence of a and b as runs,
// computed by dynamic programming: equal items are matched as soon as
// they meet, and of two ways to skip an item the deletion is preferred.
func exactLCS(a, b []uint32) []match {
	n, m := len(a), len(b)
	// l[x*(m+1)+y] is the length of the LCS of a[x:] and b[y:].
	l := make([]int32, (n+1)*(m+1))
	for x := n - 1; x >= 0; x-- {
		for y := m - 1; y >= 0; y-- {
			if a[x] == b[y] {
				l[x*(m+1)+y] = l[(x+1)*(m+1)+y+1] + 1
			} else {
				l[x*(m+1)+y] = max(l[(x+1)*(m+1)+y], l[x*(m+1)+y+1])
			}
		}
	}
	var out []match
	x, y := 0, 0
	for x < n && y < m {
		switch {
		case a[x] == b[y]:
			if k := len(out) - 1; k >= 0 && out[k].x+out[k].n == x && out[k].y+out[k].n == y {
				out[k].n++
			} else {
				out = append(out, match{x, y, 1})
			}
			x++
			y++
		case l[(x+1)*(m+1)+y] >= l[x*(m+1)+y+1]:
			x++
		default:
			y++
		}
	}
	return out
}

// myers returns the matches of a shortest edit script of a and b (Myers,
// "An O(ND) difference algorithm", 1986) when one is found spending at most
// limit of the budget, and with few enough edits that the trace it keeps
// stays within about the size of the inputs.
func myers(a, b []uint32, budget *int, limit int) ([]match, bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, isqrt(n+m+1<<14))
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	// trace[d] is v[-d..d] after round d.
	var trace [][]int32
	spent := 0
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			start := x
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			spent += x - start + 1
			v[off+k] = int32(x)
			if x >= n && y >= m {
				trace = append(trace, slices.Clone(v[off-d:off+d+1]))
				*budget -= spent
				return myersPath(trace, n, m), true
			}
		}
		trace = append(trace, slices.Clone(v[off-d:off+d+1]))
		spent += 2*d + 1
		if spent > limit {
			break
		}
	}
	*budget -= spent
	return nil, false
}

// myersPath walks a Myers trace back from (n, m) and returns the diagonal
// runs of the path, in order.
func myersPath(trace [][]int32, n, m int) []match {
	at := func(d, k int) int { return int(trace[d][k+d]) }
	var out []match
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		k := x - y
		// The (d-1)-path this one extends, and the point after its edit.
		var px, py, sx, sy int
		if k == -d || k != d && at(d-1, k-1) < at(d-1, k+1) {
			px = at(d-1, k+1)
			py = px - (k + 1)
			sx, sy = px, py+1
		} else {
			px = at(d-1, k-1)
			py = px - (k - 1)
			sx, sy = px+1, py
		}
		if x > sx {
			out = append(out, match{sx, sy, x - sx})
		}
		x, y = px, py
	}
	if x > 0 {
		out = append(out, match{0, 0, x})
	}
	slices.Reverse(out)
	return out
}

func isqrt(n int) int {
	r := 0
	for b := 1 << (bits.Len(uint(n)) / 2 * 2); b > 0; b >>= 2 {
		if n >= r+b {
			n -= r + b
			r = r>>1 + b
		} else {
			r >>= 1
		}
	}
	return r
}

// uniqueAnchors returns pairs of items that occur exactly once in a and
// once in b, the longest run of them in the same order on both sides. Long
// sequences are sampled: only items whose hash falls in a slice of the
// range are candidates, so that the tables stay small.
func uniqueAnchors(a, b []uint32) []match {
	mask := uint32(0)
	for (len(a)+len(b))>>bits.OnesCount32(mask) > anchorTarget {
		mask = mask<<1 | 1
	}
	// pos[h] is the position of h in a, or -1 when it repeats; likewise in b.
	type seen struct{ x, y int32 }
	tab := map[uint32]seen{}
	for x, h := range a {
		if h&mask != 0 {
			continue
		}
		if s, ok := tab[h]; ok {
			s.x = -1
			tab[h] = s
		} else {
			tab[h] = seen{int32(x), -2}
		}
	}
	for y, h := range b {
		if h&mask != 0 {
			continue
		}
		if s, ok := tab[h]; ok && s.x != -1 {
			if s.y == -2 {
				s.y = int32(y)
			} else {
				s.y = -1
			}
			tab[h] = s
		}
	}
	var pairs []match
	for x, h := range a {
		if h&mask != 0 {
			continue
		}
		if s := tab[h]; s.x == int32(x) && s.y >= 0 {
			pairs = append(pairs, match{x, int(s.y), 1})
		}
	}
	return longestIncreasing(pairs)
}

// longestIncreasing returns a longest subsequence of pairs (ordered by x)
// whose y increase too, by patience sorting.
func longestIncreasing(pairs []match) []match {
	if len(pairs) == 0 {
		return nil
	}
	// tails[k] is the index of the pair ending the best run of length k+1.
	var tails []int
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k := sort.Search(len(tails), func(k int) bool { return pairs[tails[k]].y >= p.y })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]match, len(tails))
	for i, k := tails[len(tails)-1], len(tails)-1; k >= 0; i, k = prev[i], k-1 {
		out[k] = pairs[i]
	}
	return out
}

// docHashes holds a hash of every value of a document, computed bottom
// up from the tokens: two values that differ only in white space between
// tokens hash alike.
type docHashes struct {
	d *capture.Doc
	h []uint32
}

// hashSeed is the seed of the value hashes of one run.
var hashSeed = maphash.MakeSeed()

func hashDoc(d *capture.Doc) *docHashes {
	h := make([]uint32, len(d.Nodes))
	for i := capture.Node(len(d.Nodes) - 1); i >= 0; i-- {
		n := &d.Nodes[i]
		switch n.Kind {
		case capture.Array, capture.Object:
			acc := uint64(n.Kind) * 0x9E3779B97F4A7C15
			for c := i + 1; c < n.Skip; c = d.Nodes[c].Skip {
				x := uint64(h[c])
				if n.Kind == capture.Object {
					x ^= maphash.Bytes(hashSeed, d.RawKey(c)) << 1
				}
				acc = mix64(acc ^ x)
			}
			h[i] = uint32(acc ^ acc>>32)
		default:
			x := mix64(maphash.Bytes(hashSeed, d.Src[n.Start:n.End]) + uint64(n.Kind))
			h[i] = uint32(x ^ x>>32)
		}
	}
	return &docHashes{d: d, h: h}
}

// mix64 is the finaliser of MurmurHash3.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// sameValue reports whether node i of a and node j of b are the same
// JSON value token for token (white space between tokens aside).
func sameValue(a *capture.Doc, i capture.Node, b *capture.Doc, j capture.Node) bool {
	ra, rb := a.Raw(i), b.Raw(j)
	if bytes.Equal(ra, rb) {
		return true
	}
	size := a.Nodes[i].Skip - i
	if b.Nodes[j].Skip-j != size {
		return false
	}
	for k := capture.Node(0); k < size; k++ {
		x, y := &a.Nodes[i+k], &b.Nodes[j+k]
		if x.Kind != y.Kind || x.Skip-(i+k) != y.Skip-(j+k) {
			return false
		}
		if k > 0 && a.IsMember(i+k) && !bytes.Equal(a.RawKey(i+k), b.RawKey(j+k)) {
			return false
		}
		if x.Kind != capture.Array && x.Kind != capture.Object && !bytes.Equal(a.Raw(i+k), b.Raw(j+k)) {
			return false
		}
	}
	return true
}

// equal reports whether node i of a and node j of b hold the same value.
func equalNodes(a, b *docHashes, i capture.Node, j capture.Node) bool {
	return a.h[i] == b.h[j] && sameValue(a.d, i, b.d, j)
}

// elemList lists the children of a node: the n consecutive nodes from
// first when every child is a leaf (a long array of numbers), else list.
type elemList struct {
	first capture.Node
	n     int
	list  []capture.Node
}

func (e elemList) at(x int) capture.Node {
	if e.list == nil {
		return e.first + capture.Node(x)
	}
	return e.list[x]
}

// from lists the children from the x-th.
func (e elemList) from(x int) elemList {
	if e.list == nil {
		return elemList{first: e.first + capture.Node(x), n: e.n - x}
	}
	return elemList{n: e.n - x, list: e.list[x:]}
}

// elements lists the children of node i.
func elements(d *capture.Doc, i capture.Node) elemList {
	end := d.Nodes[i].Skip
	n, leaves := 0, true
	for c := i + 1; c < end; c = d.Nodes[c].Skip {
		n++
		leaves = leaves && d.Nodes[c].Skip == c+1
	}
	if leaves {
		return elemList{first: i + 1, n: n}
	}
	out := make([]capture.Node, 0, n)
	for c := i + 1; c < end; c = d.Nodes[c].Skip {
		out = append(out, c)
	}
	return elemList{n: n, list: out}
}

// docPair is two documents being compared, with the alignments of their
// long arrays and the verdicts on their large objects, which the comparison
// and the two walks of the diff share.
type docPair struct {
	a, b    *docHashes
	arrays  map[capture.Node]alignment
	objects map[capture.Node]bool
}

func newPair(a, b *capture.Doc) *docPair {
	return &docPair{a: hashDoc(a), b: hashDoc(b), arrays: map[capture.Node]alignment{}, objects: map[capture.Node]bool{}}
}

// cacheFrom is the number of elements from which an alignment is kept.
const cacheFrom = 1 << 12

// alignArrays aligns the elements of array i of a with those of array j
// of b (the pair compares each node of a with at most one of b).
func (p *docPair) alignArrays(i capture.Node, j capture.Node) (ea, eb elemList, al alignment) {
	a, b := p.a, p.b
	ea, eb = elements(a.d, i), elements(b.d, j)
	if al, ok := p.arrays[i]; ok {
		return ea, eb, al
	}
	al = align(ea.n, eb.n, func(x int) uint32 { return a.h[ea.at(x)] }, func(y int) uint32 { return b.h[eb.at(y)] },
		func(x, y int) bool { return sameValue(a.d, ea.at(x), b.d, eb.at(y)) }, true)
	if ea.n+eb.n >= cacheFrom {
		p.arrays[i] = al
	}
	return ea, eb, al
}

// blocks calls f for every stretch of an alignment of n and m items: the
// matched runs (eq true) and the unmatched stretches between them, a[x0:x1]
// against b[y0:y1].
func (al alignment) blocks(n, m int, f func(eq bool, x0, x1, y0, y1 int)) {
	x, y := 0, 0
	for _, r := range append(al.runs, match{n, m, 0}) {
		if r.x > x || r.y > y {
			f(false, x, r.x, y, r.y)
		}
		if r.n > 0 {
			f(true, r.x, r.x+r.n, r.y, r.y+r.n)
		}
		x, y = r.x+r.n, r.y+r.n
	}
}

// alignObjects reports whether objects i of a and j of b are compared
// member by member: unless they have more than alignMax members between
// them and fewer than half of those are the same member on both sides, the
// same key with the same value.
func (p *docPair) alignObjects(i capture.Node, j capture.Node) bool {
	if ok, seen := p.objects[i]; seen {
		return ok
	}
	a, b := p.a, p.b
	ma, mb := elements(a.d, i), elements(b.d, j)
	if ma.n+mb.n <= alignMax {
		return true
	}
	ok := countSame(a, b, ma, mb)*4 >= ma.n+mb.n
	p.objects[i] = ok
	return ok
}

// countSame counts the members of ma that are members of mb too, the same
// key with the same value.
func countSame(a, b *docHashes, ma, mb elemList) int {
	same := 0
	p := 0
	for p < ma.n && p < mb.n && sameKey(a.d, ma.at(p), b.d, mb.at(p)) {
		if equalNodes(a, b, ma.at(p), mb.at(p)) {
			same++
		}
		p++
	}
	if p < ma.n && p < mb.n {
		// By the hash of the key as spelled: a key spelled with other
		// escapes counts as another member.
		inB := make(map[uint64]capture.Node, mb.n-p)
		for y := p; y < mb.n; y++ {
			n := mb.at(y)
			inB[maphash.Bytes(hashSeed, b.d.RawKey(n))] = n
		}
		for x := p; x < ma.n; x++ {
			m := ma.at(x)
			n, ok := inB[maphash.Bytes(hashSeed, a.d.RawKey(m))]
			if ok && bytes.Equal(a.d.RawKey(m), b.d.RawKey(n)) && equalNodes(a, b, m, n) {
				same++
			}
		}
	}
	return same
}
