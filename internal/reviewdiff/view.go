package reviewdiff

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure/units"
)

// The review rendering of a request body: the body indented two spaces
// per level like pretty-printed JSON, keys, numbers and short strings as
// captured, but every string that holds a line break or does not fit a
// line shown as a block of its decoded lines under `"key": |`. A changed
// system prompt or tool result then diffs line by line instead of as one
// line of thousands of characters.
//
// The diff of two renderings is made by walking the two documents
// together (see differ), twice: once to lay the hunks out (where they
// start and end, their line numbers and labels) and once to write them.
// Neither walk keeps the lines it passes: time and memory stay linear in
// the size of the documents.

// viewWidth is the widest line the rendering writes, indentation included
// (a block's lines are wrapped to fit; the diff adds one column).
const viewWidth = 160

// wrapMark starts the continuation of a decoded line wrapped to fit.
const wrapMark = "↪ "

// maxBlockLines bounds the lines of the middle of two strings (between
// their common first and last lines) that are aligned line by line; longer
// ones are shown replaced.
const maxBlockLines = 1 << 20

// viewMode selects a rendering.
type viewMode uint8

const (
	// reviewView is the review rendering.
	reviewView viewMode = iota
	// prettyView is the body as json.Indent with two spaces writes it,
	// tokens as captured, for the unified diff of scripts and patch.
	prettyView
)

// The forms of a line.
const (
	formOpen   = iota // head and opening bracket
	formClose         // closing bracket and tail
	formEmpty         // head, an empty container and tail
	formScalar        // head, a token and tail
	formBlock         // head and "|", over the lines of a string
	formPiece         // one (wrapped) line of a string
)

// lineSpec describes a line of a rendering without spelling it: the text
// is made only for the lines a diff shows.
type lineSpec struct {
	side  uint8 // 0 for a, 1 for b
	form  uint8
	node  capture.Node
	level int32  // indentation, in steps of two spaces
	tail  string // "," after a value that is not the last of its container
	piece string // formPiece: the text of the line
	cont  bool   // formPiece: a wrapped continuation
}

// opSink receives the lines of a diff in order.
type opSink interface {
	op(w *differ, kind unified.Kind, l lineSpec)
	// note precedes the lines of a value shown replaced because it
	// differs too much to align.
	note(w *differ, text string)
}

// differ walks two documents together, passing the line operations that
// turn the rendering of a into that of b to a sink. The documents are
// compared value by value, so an unchanged message or tool is never matched
// against another's lines; arrays are aligned (see align) and two strings
// that differ are diffed line by line.
type differ struct {
	pair *docPair
	docs [2]*docHashes
	mode viewMode
	sink opSink
	// track keeps the path to the current value of each side and the
	// changes that cover it, for hunk labels.
	track  bool
	path   [2][]pathStep
	marks  [2]map[capture.Node][]int32
	active [2][]int32
	pushed [2][]int32
	// tails are the text after the root's last line (prettyView: the
	// white space after the body's top-level value) and the lines after it.
	tails     [2]string
	tailLines [2]string
	sp        string
}

func newDiffer(p *docPair, mode viewMode, sink opSink) *differ {
	w := &differ{pair: p, docs: [2]*docHashes{p.a, p.b}, mode: mode, sink: sink}
	if mode == prettyView {
		for s, d := range w.docs {
			if len(d.d.Nodes) == 0 {
				continue
			}
			// json.Indent keeps the white space after the value; pretty adds
			// a line break. The root's last line ends with the white space up
			// to the first line break; the rest makes lines of its own.
			rest := string(d.d.Src[d.d.Nodes[0].End:]) + "\n"
			k := strings.IndexByte(rest, '\n')
			w.tails[s], w.tailLines[s] = rest[:k], rest[k+1:]
		}
	}
	return w
}

// run walks the two documents.
func (w *differ) run() {
	a, b := w.docs[0].d, w.docs[1].d
	switch {
	case len(a.Nodes) > 0 && len(b.Nodes) > 0:
		w.value(0, 0, -1, -1, 0, w.tails[0], w.tails[1])
	case len(a.Nodes) > 0:
		w.render(0, unified.Delete, 0, -1, 0, w.tails[0])
	case len(b.Nodes) > 0:
		w.render(1, unified.Insert, 0, -1, 0, w.tails[1])
	}
	if w.mode == prettyView {
		w.blankLines(w.tailLines[0], w.tailLines[1])
	}
}

// blankLines diffs the lines of white space after two bodies (each line
// ending with a line break): common first and last lines are context, the
// rest replaced.
func (w *differ) blankLines(ta, tb string) {
	pre := 0
	for pre < len(ta) && pre < len(tb) && ta[pre] == tb[pre] {
		pre++
	}
	pre = strings.LastIndexByte(ta[:pre], '\n') + 1
	suf := 0
	for suf < len(ta)-pre && suf < len(tb)-pre && ta[len(ta)-1-suf] == tb[len(tb)-1-suf] {
		suf++
	}
	// Back to the start of a line on both sides.
	lineStart := func(t string, q int) bool { return q == 0 || t[q-1] == '\n' }
	for suf > 0 && !(lineStart(ta, len(ta)-suf) && lineStart(tb, len(tb)-suf)) {
		suf--
	}
	lines := func(kind unified.Kind, side uint8, t string) {
		for len(t) > 0 {
			k := strings.IndexByte(t, '\n')
			w.emit(kind, lineSpec{side: side, form: formPiece, piece: t[:k]})
			t = t[k+1:]
		}
	}
	lines(unified.Equal, 0, ta[:pre])
	lines(unified.Delete, 0, ta[pre:len(ta)-suf])
	lines(unified.Insert, 1, tb[pre:len(tb)-suf])
	lines(unified.Equal, 0, ta[len(ta)-suf:])
}

// kindOf is the kind of the lines of a stretch of an alignment shown from
// a: context when it is matched, else deleted.
func kindOf(matched bool) unified.Kind {
	if matched {
		return unified.Equal
	}
	return unified.Delete
}

func strHash(s string) uint32 {
	x := maphash.String(hashSeed, s)
	return uint32(x ^ x>>32)
}

func (w *differ) emit(kind unified.Kind, l lineSpec) { w.sink.op(w, kind, l) }

// enter and exit follow the walk into node n of side s (at index idx of
// its array, -1 for a member or the root).
func (w *differ) enter(s uint8, n capture.Node, idx int32) {
	if !w.track {
		return
	}
	if n > 0 {
		w.path[s] = append(w.path[s], pathStep{w.docs[s].d, n, idx})
	}
	ids := w.marks[s][n]
	w.active[s] = append(w.active[s], ids...)
	w.pushed[s] = append(w.pushed[s], int32(len(ids)))
}

func (w *differ) exit(s uint8, n capture.Node) {
	if !w.track {
		return
	}
	if n > 0 {
		w.path[s] = w.path[s][:len(w.path[s])-1]
	}
	k := len(w.pushed[s]) - 1
	w.active[s] = w.active[s][:len(w.active[s])-int(w.pushed[s][k])]
	w.pushed[s] = w.pushed[s][:k]
}

// pointer is the JSON Pointer of the current value of side s.
func (w *differ) pointer(s uint8) string { return pointerOf(w.path[s]) }

// spaces returns n spaces.
func (w *differ) spaces(n int) string {
	if len(w.sp) < n {
		w.sp = strings.Repeat(" ", max(2*n, 64))
	}
	return w.sp[:n]
}

// text spells a line.
func (w *differ) text(l lineSpec) string {
	d := w.docs[l.side].d
	ind := w.spaces(2 * int(l.level))
	switch l.form {
	case formPiece:
		switch {
		case l.piece == "":
			return ""
		case l.cont:
			return ind + wrapMark + l.piece
		}
		return ind + l.piece
	case formOpen:
		open, _ := brackets(d.Kind(l.node))
		return ind + w.head(d, l.node) + open
	case formClose:
		_, close := brackets(d.Kind(l.node))
		return ind + close + l.tail
	case formEmpty:
		open, close := brackets(d.Kind(l.node))
		return ind + w.head(d, l.node) + open + close + l.tail
	case formBlock:
		return ind + w.head(d, l.node) + "|"
	}
	return ind + w.head(d, l.node) + w.token(d, l.node) + l.tail
}

// head is what precedes the value of node n on its line: `"key": ` for
// an object member (the key as spelled in the source), nothing for an
// array element or the root.
func (w *differ) head(d *capture.Doc, n capture.Node) string {
	if n == 0 || !d.IsMember(n) {
		return ""
	}
	if w.mode == prettyView {
		return `"` + string(d.RawKey(n)) + `": `
	}
	return escape.Text(`"`+string(d.RawKey(n))+`"`) + ": "
}

// token is the text of scalar node n.
func (w *differ) token(d *capture.Doc, n capture.Node) string {
	if w.mode == prettyView {
		return string(d.Raw(n))
	}
	return escape.Text(string(d.Raw(n)))
}

func brackets(k capture.Kind) (string, string) {
	if k == capture.Array {
		return "[", "]"
	}
	return "{", "}"
}

// tailOf is what follows a value: a comma unless it is the last of its
// container.
func tailOf(last bool) string {
	if last {
		return ""
	}
	return ","
}

// oneLine reports whether string node n is rendered on one line, as
// captured: it holds no line break and fits.
func (w *differ) oneLine(d *capture.Doc, n capture.Node, level int32, tail string) bool {
	if w.mode == prettyView {
		return true
	}
	raw := d.Raw(n)
	key := 0
	if n > 0 && d.IsMember(n) {
		key = len(d.RawKey(n))
	}
	// A character takes at most four bytes.
	if len(raw)+key > 4*viewWidth+16 {
		return false
	}
	// The token holds a line break only as an escape.
	if bytes.IndexByte(raw, '\\') >= 0 && strings.Contains(d.Str(n), "\n") {
		return false
	}
	width := 2*int(level) + len(tail)
	if key > 0 {
		width += printWidth(d.RawKey(n)) + 4 // quotes, colon and space
	}
	return width+printWidth(raw) <= viewWidth
}

// printWidth is the width of escape.Text(string(b)) in characters.
func printWidth(b []byte) int {
	for _, c := range b {
		if c < 0x20 || c == 0x7f || c == 0xc2 || c == 0xd8 || c == 0xe2 {
			// Possibly a control character: spell it.
			return utf8.RuneCountInString(escape.Text(string(b)))
		}
	}
	if !utf8.Valid(b) {
		return utf8.RuneCountInString(escape.Text(string(b)))
	}
	return utf8.RuneCount(b)
}

// blockWidth is the width the lines of a block at level are wrapped to.
func blockWidth(level int32) int {
	return max(viewWidth-2*int(level), 40)
}

// render passes the rendering of node n of side s, the value at index idx
// of its array, as lines of kind.
func (w *differ) render(s uint8, kind unified.Kind, n capture.Node, idx, level int32, tail string) {
	// Context needs no labels.
	if kind == unified.Equal {
		w.renderIn(s, kind, n, level, tail)
		return
	}
	w.enter(s, n, idx)
	w.renderIn(s, kind, n, level, tail)
	w.exit(s, n)
}

// renderIn is render for a node the walk has entered.
func (w *differ) renderIn(s uint8, kind unified.Kind, n capture.Node, level int32, tail string) {
	d := w.docs[s].d
	switch k := d.Kind(n); k {
	case capture.Object, capture.Array:
		if d.Nodes[n].Skip == n+1 {
			w.emit(kind, lineSpec{side: s, form: formEmpty, node: n, level: level, tail: tail})
			break
		}
		w.emit(kind, lineSpec{side: s, form: formOpen, node: n, level: level})
		end := d.Nodes[n].Skip
		for c, x := n+1, int32(0); c < end; c, x = d.Nodes[c].Skip, x+1 {
			cx := x
			if k == capture.Object {
				cx = -1
			}
			w.render(s, kind, c, cx, level+1, tailOf(d.Nodes[c].Skip == end))
		}
		w.emit(kind, lineSpec{side: s, form: formClose, node: n, level: level, tail: tail})
	case capture.String:
		if w.oneLine(d, n, level, tail) {
			w.emit(kind, lineSpec{side: s, form: formScalar, node: n, level: level, tail: tail})
			break
		}
		w.emit(kind, lineSpec{side: s, form: formBlock, node: n, level: level})
		t := newBlockText(d.Str(n), blockWidth(level+1))
		it := t.from(0)
		for {
			p, ok := it.next()
			if !ok {
				break
			}
			w.emit(kind, t.spec(s, p, level+1))
		}
	default:
		w.emit(kind, lineSpec{side: s, form: formScalar, node: n, level: level, tail: tail})
	}
}

// replace passes node i of a as deleted and node j of b as inserted (-1:
// none).
func (w *differ) replace(i capture.Node, j capture.Node, idxA, idxB, level int32, tailA, tailB string) {
	if i != capture.NoNode {
		w.render(0, unified.Delete, i, idxA, level, tailA)
	}
	if j != capture.NoNode {
		w.render(1, unified.Insert, j, idxB, level, tailB)
	}
}

// swap passes node i of a, which the walk has entered, as deleted and node
// j of b as inserted.
func (w *differ) swap(i capture.Node, j capture.Node, level int32, tailA, tailB string) {
	w.renderIn(0, unified.Delete, i, level, tailA)
	w.renderIn(1, unified.Insert, j, level, tailB)
}

// line passes one line of each side: as context when they read the same,
// else as a deletion and an insertion.
func (w *differ) line(la, lb lineSpec) {
	if la.tail == lb.tail && (la.form != formScalar || w.text(la) == w.text(lb)) {
		w.emit(unified.Equal, la)
		return
	}
	w.emit(unified.Delete, la)
	w.emit(unified.Insert, lb)
}

// sameHeads reports whether nodes i of a and j of b have the same head.
func (w *differ) sameHeads(i capture.Node, j capture.Node) bool {
	a, b := w.docs[0].d, w.docs[1].d
	ma, mb := i > 0 && a.IsMember(i), j > 0 && b.IsMember(j)
	return ma == mb && (!ma || bytes.Equal(a.RawKey(i), b.RawKey(j)))
}

// value diffs node i of a with node j of b (at indexes idxA and idxB of
// their arrays), each followed by its tail.
func (w *differ) value(i capture.Node, j capture.Node, idxA, idxB, level int32, tailA, tailB string) {
	w.enter(0, i, idxA)
	w.enter(1, j, idxB)
	w.diffValue(i, j, idxA, idxB, level, tailA, tailB)
	w.exit(1, j)
	w.exit(0, i)
}

func (w *differ) diffValue(i capture.Node, j capture.Node, idxA, idxB, level int32, tailA, tailB string) {
	a, b := w.docs[0].d, w.docs[1].d
	heads := w.sameHeads(i, j)
	if heads && equalNodes(w.docs[0], w.docs[1], i, j) {
		w.same(i, j, level, tailA, tailB)
		return
	}
	ka, kb := a.Kind(i), b.Kind(j)
	container := ka == capture.Object || ka == capture.Array
	if ka != kb || !heads || container && (a.Nodes[i].Skip == i+1 || b.Nodes[j].Skip == j+1) {
		w.swap(i, j, level, tailA, tailB)
		return
	}
	switch ka {
	case capture.Object:
		if !w.pair.alignObjects(i, j) {
			w.sink.note(w, units.Thousands(a.Len(i))+" and "+units.Thousands(b.Len(j))+" members differ too much to align: shown replaced")
			w.swap(i, j, level, tailA, tailB)
			return
		}
		w.emit(unified.Equal, lineSpec{side: 0, form: formOpen, node: i, level: level})
		w.members(i, j, level+1)
		w.line(lineSpec{side: 0, form: formClose, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formClose, node: j, level: level, tail: tailB})
	case capture.Array:
		ea, eb, al := w.pair.alignArrays(i, j)
		if !al.ok {
			w.sink.note(w, units.Thousands(ea.n)+" and "+units.Thousands(eb.n)+" elements differ too much to align: shown replaced")
			w.swap(i, j, level, tailA, tailB)
			return
		}
		w.emit(unified.Equal, lineSpec{side: 0, form: formOpen, node: i, level: level})
		w.elements(ea, eb, al, level+1)
		w.line(lineSpec{side: 0, form: formClose, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formClose, node: j, level: level, tail: tailB})
	case capture.String:
		oka, okb := w.oneLine(a, i, level, tailA), w.oneLine(b, j, level, tailB)
		switch {
		case oka && okb:
			w.line(lineSpec{side: 0, form: formScalar, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formScalar, node: j, level: level, tail: tailB})
		case oka || okb:
			w.swap(i, j, level, tailA, tailB)
		default:
			w.emit(unified.Equal, lineSpec{side: 0, form: formBlock, node: i, level: level})
			w.blocks(i, j, level+1)
		}
	default:
		w.swap(i, j, level, tailA, tailB)
	}
}

// same passes two equal values: their renderings differ at most in the
// tail of their last line.
func (w *differ) same(i capture.Node, j capture.Node, level int32, tailA, tailB string) {
	if tailA == tailB {
		w.render(0, unified.Equal, i, -1, level, tailA)
		return
	}
	a, b := w.docs[0].d, w.docs[1].d
	switch a.Kind(i) {
	case capture.Object, capture.Array:
		if a.Nodes[i].Skip == i+1 {
			w.line(lineSpec{side: 0, form: formEmpty, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formEmpty, node: j, level: level, tail: tailB})
			return
		}
		w.emit(unified.Equal, lineSpec{side: 0, form: formOpen, node: i, level: level})
		end := a.Nodes[i].Skip
		for c := i + 1; c < end; c = a.Nodes[c].Skip {
			w.render(0, unified.Equal, c, -1, level+1, tailOf(a.Nodes[c].Skip == end))
		}
		w.line(lineSpec{side: 0, form: formClose, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formClose, node: j, level: level, tail: tailB})
	case capture.String:
		oka, okb := w.oneLine(a, i, level, tailA), w.oneLine(b, j, level, tailB)
		switch {
		case oka && okb:
			w.line(lineSpec{side: 0, form: formScalar, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formScalar, node: j, level: level, tail: tailB})
		case oka || okb:
			w.swap(i, j, level, tailA, tailB)
		default:
			// A block has no tail.
			w.render(0, unified.Equal, i, -1, level, tailA)
		}
	default:
		w.line(lineSpec{side: 0, form: formScalar, node: i, level: level, tail: tailA}, lineSpec{side: 1, form: formScalar, node: j, level: level, tail: tailB})
	}
}

// members diffs two objects member by member, in the order of their keys;
// a member only one side has is deleted or inserted where it stands.
func (w *differ) members(i capture.Node, j capture.Node, level int32) {
	a, b := w.docs[0].d, w.docs[1].d
	ma, mb := elements(a, i), elements(b, j)
	na, nb := ma.n, mb.n
	x, y := 0, 0
	// Members in the same order are paired in place.
	for x < na && y < nb && sameKey(a, ma.at(x), b, mb.at(y)) {
		w.value(ma.at(x), mb.at(y), -1, -1, level, tailOf(x == na-1), tailOf(y == nb-1))
		x++
		y++
	}
	if x == na && y == nb {
		return
	}
	inA, inB := keyIndex(a, ma.from(x)), keyIndex(b, mb.from(y))
	moved := map[string]bool{}
	for x < na || y < nb {
		var ka, kb string
		if x < na {
			ka = a.Key(ma.at(x))
		}
		if y < nb {
			kb = b.Key(mb.at(y))
		}
		_, aInB := inB[ka]
		_, bInA := inA[kb]
		switch {
		case x < na && (!aInB || moved[ka]):
			w.replace(ma.at(x), capture.NoNode, -1, -1, level, tailOf(x == na-1), "")
			x++
		case y < nb && (!bInA || moved[kb]):
			w.replace(capture.NoNode, mb.at(y), -1, -1, level, "", tailOf(y == nb-1))
			y++
		case x < na && y < nb && ka == kb:
			w.value(ma.at(x), mb.at(y), -1, -1, level, tailOf(x == na-1), tailOf(y == nb-1))
			x++
			y++
		case x >= na:
			// Only with repeated keys, which the reader rejects.
			w.replace(capture.NoNode, mb.at(y), -1, -1, level, "", tailOf(y == nb-1))
			y++
		default:
			// The keys come in another order: this one moves.
			moved[ka] = true
			w.replace(ma.at(x), capture.NoNode, -1, -1, level, tailOf(x == na-1), "")
			x++
		}
	}
}

// elements diffs two aligned arrays: matched elements are context, those
// between matches are compared pairwise and the rest deleted or inserted.
func (w *differ) elements(ea, eb elemList, al alignment, level int32) {
	na, nb := ea.n, eb.n
	al.blocks(na, nb, func(eq bool, x0, x1, y0, y1 int) {
		p := min(x1-x0, y1-y0)
		for k := range p {
			x, y := x0+k, y0+k
			w.value(ea.at(x), eb.at(y), int32(x), int32(y), level, tailOf(x == na-1), tailOf(y == nb-1))
		}
		for x := x0 + p; x < x1; x++ {
			w.replace(ea.at(x), capture.NoNode, int32(x), -1, level, tailOf(x == na-1), "")
		}
		for y := y0 + p; y < y1; y++ {
			w.replace(capture.NoNode, eb.at(y), -1, int32(y), level, "", tailOf(y == nb-1))
		}
	})
}

// blocks diffs the lines of two strings shown as blocks at level: their
// common first and last lines are context, the lines between are aligned.
func (w *differ) blocks(i capture.Node, j capture.Node, level int32) {
	width := blockWidth(level)
	ta := newBlockText(w.docs[0].d.Str(i), width)
	tb := newBlockText(w.docs[1].d.Str(j), width)
	pre, startA, startB, endA, endB := commonEnds(ta, tb)
	it := ta.from(0)
	for range pre {
		p, _ := it.next()
		w.emit(unified.Equal, ta.spec(0, p, level))
	}
	if !w.alignMiddle(ta, tb, startA, startB, endA, endB, level) {
		for it := ta.fromPos(startA); ; {
			p, ok := it.next()
			if !ok || p.start >= endA {
				break
			}
			w.emit(unified.Delete, ta.spec(0, p, level))
		}
		for it := tb.fromPos(startB); ; {
			p, ok := it.next()
			if !ok || p.start >= endB {
				break
			}
			w.emit(unified.Insert, tb.spec(1, p, level))
		}
	}
	it = ta.fromPos(endA)
	for {
		p, ok := it.next()
		if !ok {
			break
		}
		w.emit(unified.Equal, ta.spec(0, p, level))
	}
}

// commonEnds returns how many first lines two blocks share and where the
// middle between their common first and last lines starts and ends on
// each side (len+1: nothing left).
func commonEnds(ta, tb *blockText) (pre, startA, startB, endA, endB int) {
	fa, fb := ta.from(0), tb.from(0)
	var pa, pb piece
	var oka, okb bool
	for {
		pa, oka = fa.next()
		pb, okb = fb.next()
		if !oka || !okb || !ta.same(pa, tb, pb) {
			break
		}
		pre++
	}
	startA, startB = len(ta.s)+1, len(tb.s)+1
	if oka {
		startA = pa.start
	}
	if okb {
		startB = pb.start
	}
	// The common last lines, not reaching into the first ones.
	ra, rb := ta.backward(), tb.backward()
	endA, endB = len(ta.s)+1, len(tb.s)+1
	for {
		qa, oka := ra.next()
		qb, okb := rb.next()
		if !oka || !okb || qa.start < startA || qb.start < startB || !ta.same(qa, tb, qb) {
			break
		}
		endA, endB = qa.start, qb.start
	}
	return pre, startA, startB, endA, endB
}

// alignMiddle emits the aligned middle lines of two blocks; it returns
// false, with a note, when they are too many or too different to align,
// for the caller to show them replaced.
func (w *differ) alignMiddle(ta, tb *blockText, startA, startB, endA, endB int, level int32) bool {
	na, nb := ta.count(startA, endA, maxBlockLines+1), tb.count(startB, endB, maxBlockLines+1)
	if na > maxBlockLines || nb > maxBlockLines {
		w.sink.note(w, "more than "+units.Thousands(maxBlockLines)+" lines differ: shown replaced")
		return false
	}
	ma, mb := ta.between(startA, endA, na), tb.between(startB, endB, nb)
	ha, hb := make([]uint32, len(ma)), make([]uint32, len(mb))
	for k, p := range ma {
		ha[k] = ta.hash(p)
	}
	for k, p := range mb {
		hb[k] = tb.hash(p)
	}
	al := align(len(ha), len(hb), func(x int) uint32 { return ha[x] }, func(y int) uint32 { return hb[y] },
		func(x, y int) bool { return ta.same(ma[x], tb, mb[y]) }, false)
	if !al.ok {
		w.sink.note(w, units.Thousands(na)+" and "+units.Thousands(nb)+" lines differ too much to align: shown replaced")
		return false
	}
	al.blocks(len(ma), len(mb), func(eq bool, x0, x1, y0, y1 int) {
		for _, p := range ma[x0:x1] {
			w.emit(kindOf(eq), ta.spec(0, p, level))
		}
		if !eq {
			for _, p := range mb[y0:y1] {
				w.emit(unified.Insert, tb.spec(1, p, level))
			}
		}
	})
	return true
}

// blockText is a string as the lines of a block: its lines, each made one
// line (see escape.Text), cut to fit a width; a piece is one such line.
type blockText struct {
	s     string // the lines, joined by line breaks
	width int
	offs  []int // scratch: rune offsets of the piece being cut
}

// piece is a line of a block: s[start:end], the first piece of its line or
// its wrapped continuation.
type piece struct {
	start, end int
	first      bool
}

func newBlockText(text string, width int) *blockText {
	t := &blockText{s: text, width: width, offs: make([]int, width+1)}
	// Each line as escape.Lines shows it (a copy only when it escapes
	// something).
	t.s = escape.Lines(text)
	return t
}

// cut returns the end of the piece that starts at pos in the line ending
// at end: at most w characters, broken after a space in its second half
// when there is one.
func (t *blockText) cut(pos, end, w int) int {
	off := pos
	k := 0
	for off < end && k < w {
		t.offs[k] = off
		_, size := utf8.DecodeRuneInString(t.s[off:end])
		off += size
		k++
	}
	if off >= end {
		return end
	}
	t.offs[w] = off
	for c := w; c > w/2; c-- {
		if t.s[t.offs[c-1]] == ' ' {
			return t.offs[c]
		}
	}
	return off
}

// pieceIter iterates over the pieces of a block in order.
type pieceIter struct {
	t            *blockText
	pos, lineEnd int
	first, done  bool
}

func (t *blockText) from(pos int) *pieceIter { return t.fromPos(pos) }

// fromPos iterates from the piece that starts at pos (past the end:
// nothing).
func (t *blockText) fromPos(pos int) *pieceIter {
	if pos > len(t.s) {
		return &pieceIter{done: true}
	}
	return &pieceIter{t: t, pos: pos, lineEnd: lineEnd(t.s, pos), first: pos == 0 || t.s[pos-1] == '\n'}
}

func lineEnd(s string, pos int) int {
	if k := strings.IndexByte(s[pos:], '\n'); k >= 0 {
		return pos + k
	}
	return len(s)
}

func (it *pieceIter) next() (piece, bool) {
	if it.done {
		return piece{}, false
	}
	s := it.t.s
	if !it.first && it.pos == it.lineEnd {
		if it.lineEnd == len(s) {
			it.done = true
			return piece{}, false
		}
		it.pos = it.lineEnd + 1
		it.lineEnd = lineEnd(s, it.pos)
		it.first = true
	}
	w := it.t.width
	if !it.first {
		w -= utf8.RuneCountInString(wrapMark)
	}
	p := piece{it.pos, it.t.cut(it.pos, it.lineEnd, w), it.first}
	it.pos, it.first = p.end, false
	return p, true
}

// revIter iterates over the pieces of a block from the last.
type revIter struct {
	t         *blockText
	lineStart int
	buf       []piece
	done      bool
}

func (t *blockText) backward() *revIter {
	it := &revIter{t: t}
	it.load(len(t.s))
	return it
}

// load takes the pieces of the line ending at end.
func (it *revIter) load(end int) {
	it.lineStart = strings.LastIndexByte(it.t.s[:end], '\n') + 1
	// A piece but the last holds at least half the width.
	if most := (end-it.lineStart)/(it.t.width/2-1) + 2; cap(it.buf) < most {
		it.buf = make([]piece, 0, most)
	}
	it.buf = it.buf[:0]
	for f := it.t.fromPos(it.lineStart); ; {
		p, ok := f.next()
		if !ok || p.start > end || p.start == end && !p.first {
			break
		}
		it.buf = append(it.buf, p)
		if p.end == end {
			break
		}
	}
}

func (it *revIter) next() (piece, bool) {
	if it.done {
		return piece{}, false
	}
	if len(it.buf) == 0 {
		if it.lineStart == 0 {
			it.done = true
			return piece{}, false
		}
		it.load(it.lineStart - 1)
	}
	p := it.buf[len(it.buf)-1]
	it.buf = it.buf[:len(it.buf)-1]
	return p, true
}

// count counts the pieces that start in [start, end), stopping at limit.
func (t *blockText) count(start, end, limit int) int {
	n := 0
	for it := t.fromPos(start); n < limit; n++ {
		p, ok := it.next()
		if !ok || p.start >= end {
			break
		}
	}
	return n
}

// between lists the n pieces that start in [start, end).
func (t *blockText) between(start, end, n int) []piece {
	out := make([]piece, 0, n)
	for it := t.fromPos(start); ; {
		p, ok := it.next()
		if !ok || p.start >= end {
			return out
		}
		out = append(out, p)
	}
}

func (t *blockText) text(p piece) string { return t.s[p.start:p.end] }

// same reports whether piece p of t reads as piece q of u.
func (t *blockText) same(p piece, u *blockText, q piece) bool {
	return p.first == q.first && t.text(p) == u.text(q)
}

func (t *blockText) hash(p piece) uint32 {
	h := strHash(t.text(p))
	if !p.first {
		h = ^h
	}
	return h
}

func (t *blockText) spec(side uint8, p piece, level int32) lineSpec {
	return lineSpec{side: side, form: formPiece, level: level, piece: t.text(p), cont: !p.first}
}

// ANSI colours of the text diff.
const (
	red   = "31"
	green = "32"
	bold  = "1"
)

// opNote is the kind of a note line: the lines after it show a value
// replaced because it differs too much to align.
const opNote unified.Kind = 3

// hunkSpan is where a hunk of a diff starts and ends, as indexes of the
// line operations, its line numbers and its label.
type hunkSpan struct {
	from, to            int
	fromLine, fromCount int
	toLine, toCount     int
	// label names what the hunk changes: JSON Pointers and the rules that
	// changed them.
	label string
}

// layout groups line operations into hunks with ctx lines of context, as
// unified diffs do, and labels each with the changes its changed lines
// belong to, each with the rule that made it: "/system/0/text SO101
// catalog.compact-index". A hunk none of whose lines a change covers (a
// comma after the element before an added one) is named by its first
// changed line.
type layout struct {
	ctx     int
	label   labeler
	changes []Change
	spans   []hunkSpan
	k       int // operations so far
	la, lb  int // lines of a and b so far
	open    bool
	last    int // the last changed operation
	laLast  int // la and lb after it
	lbLast  int
	stamp   []int
	parts   []string
	first   string
	fresh   []int32
}

func (l *layout) note(*differ, string) {}

func (l *layout) op(w *differ, kind unified.Kind, ln lineSpec) {
	if kind == unified.Equal {
		l.k++
		l.la++
		l.lb++
		return
	}
	side := ln.side
	if !l.open || l.k-l.last-1 > 2*l.ctx {
		l.close()
		from := max(l.k-l.ctx, 0)
		l.spans = append(l.spans, hunkSpan{from: from, fromLine: l.la - (l.k - from) + 1, toLine: l.lb - (l.k - from) + 1})
		l.open, l.parts, l.first = true, l.parts[:0], ""
		if w.track {
			l.first = ptrText(w.pointer(side))
		}
	}
	if w.track {
		l.fresh = l.fresh[:0]
		for _, c := range w.active[side] {
			if l.stamp[c] != len(l.spans) {
				l.stamp[c] = len(l.spans)
				l.fresh = append(l.fresh, c)
			}
		}
		slices.Sort(l.fresh)
		for _, c := range l.fresh {
			ch := l.changes[c]
			part := ptrText(ch.Pointer)
			if ch.Rule != "" {
				part += " " + l.label.of(ch.Rule)
			}
			l.parts = append(l.parts, part)
		}
	}
	l.last = l.k
	l.k++
	if kind == unified.Delete {
		l.la++
	} else {
		l.lb++
	}
	l.laLast, l.lbLast = l.la, l.lb
}

// close ends the open hunk.
func (l *layout) close() {
	if !l.open {
		return
	}
	h := &l.spans[len(l.spans)-1]
	h.to = min(l.last+l.ctx+1, l.k)
	// The operations after the last changed one are context.
	h.fromCount = l.laLast + h.to - l.last - 1 - (h.fromLine - 1)
	h.toCount = l.lbLast + h.to - l.last - 1 - (h.toLine - 1)
	h.label = l.first
	if len(l.parts) > 0 {
		h.label = strings.Join(l.parts, "; ")
	}
	l.open = false
}

// layoutDiff lays out the diff of two documents in a rendering, with
// ctx lines of context, labelling the hunks with changes and their rules
// (reviewView).
func layoutDiff(p *docPair, mode viewMode, changes []Change, ctx int, label labeler) []hunkSpan {
	a, b := p.a, p.b
	if bytes.Equal(a.d.Src, b.d.Src) {
		return nil
	}
	l := &layout{ctx: ctx, label: label, changes: changes, stamp: make([]int, len(changes))}
	w := newDiffer(p, mode, l)
	if mode == reviewView {
		w.track = true
		w.marks = [2]map[capture.Node][]int32{{}, {}}
		for c, ch := range changes {
			na, nb := ch.na, ch.nb
			if !ch.known {
				na, nb = lookupNode(a.d, ch.Pointer), lookupNode(b.d, ch.Pointer)
			}
			if na != capture.NoNode {
				w.marks[0][na] = append(w.marks[0][na], int32(c))
			}
			if nb != capture.NoNode {
				w.marks[1][nb] = append(w.marks[1][nb], int32(c))
			}
		}
	}
	w.run()
	l.close()
	return l.spans
}

func lookupNode(d *capture.Doc, ptr string) capture.Node {
	if len(d.Nodes) == 0 {
		return capture.NoNode
	}
	n, err := d.Lookup(ptr)
	if err != nil {
		return capture.NoNode
	}
	return n
}

// hunkWriter writes the lines of a diff that fall in its hunks.
type hunkWriter struct {
	out   io.Writer
	spans []hunkSpan
	hi, k int
	// unified writes hunk headers as the diff library does, for patch,
	// and no labels.
	unified bool
	color   bool
	// words writes each changed line with the line facing it as one line,
	// [-removed-]{+added+}, as git diff --word-diff=plain does.
	words   bool
	pending string
	// A run of deletions and the insertions that follow it, held for word
	// highlighting.
	del, ins []string
	held     int
	plain    bool
	err      error
}

// The bounds of a run of changed lines that is highlighted word by word
// (held until its insertions are known).
const (
	maxRunLines = 1 << 20
	maxRunBytes = 32 << 20
)

func (h *hunkWriter) write(s string) {
	if h.err == nil {
		_, h.err = io.WriteString(h.out, s)
	}
}

func (h *hunkWriter) note(_ *differ, text string) { h.pending = text }

func (h *hunkWriter) op(w *differ, kind unified.Kind, ln lineSpec) {
	k := h.k
	h.k++
	if h.hi >= len(h.spans) || k < h.spans[h.hi].from {
		h.pending = ""
		return
	}
	sp := &h.spans[h.hi]
	if k == sp.from {
		h.header(sp)
	}
	if h.pending != "" {
		h.line(opNote, h.pending)
		h.pending = ""
	}
	h.line(kind, w.text(ln))
	if k == sp.to-1 {
		h.flush()
		h.hi++
	}
}

func (h *hunkWriter) paint(code, s string) string {
	if !h.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// files writes the names of the two sides.
func (h *hunkWriter) files(nameA, nameB string) {
	if h.unified {
		h.write("--- " + nameA + "\n+++ " + nameB + "\n")
		return
	}
	h.write(h.paint(bold, "--- "+escape.Text(nameA)) + "\n")
	h.write(h.paint(bold, "+++ "+escape.Text(nameB)) + "\n")
}

func (h *hunkWriter) header(sp *hunkSpan) {
	if h.unified {
		h.write(unifiedHeader(sp) + "\n")
		return
	}
	s := h.paint("36", hunkHeader(*sp))
	if sp.label != "" {
		s += " " + sp.label
	}
	h.write(s + "\n")
}

// line writes one line of a hunk.
func (h *hunkWriter) line(kind unified.Kind, text string) {
	const nl = "\n"
	switch {
	case kind == unified.Equal:
		h.flush()
		if !h.words {
			h.write(" ")
		}
		h.write(text)
		h.write(nl)
	case kind == opNote:
		h.flush()
		h.write(`\ ` + escape.Text(text) + "\n")
	case !h.color && !h.words:
		if kind == unified.Insert {
			h.write("+")
		} else {
			h.write("-")
		}
		h.write(text)
		h.write(nl)
	case kind == unified.Delete && len(h.ins) > 0:
		h.flush()
		fallthrough
	default:
		if !h.plain && (h.held+len(text) > maxRunBytes || len(h.del)+len(h.ins) >= maxRunLines) {
			// Too long a run to highlight: write it as it comes.
			for _, t := range h.del {
				h.write(h.changed("-", red, t, nil) + "\n")
			}
			for _, t := range h.ins {
				h.write(h.changed("+", green, t, nil) + "\n")
			}
			h.del, h.ins, h.held, h.plain = h.del[:0], h.ins[:0], 0, true
		}
		switch {
		case h.plain && kind == unified.Delete:
			h.write(h.changed("-", red, text, nil) + "\n")
		case h.plain:
			h.write(h.changed("+", green, text, nil) + "\n")
		case kind == unified.Delete:
			h.del = append(h.del, text)
			h.held += len(text)
		default:
			h.ins = append(h.ins, text)
			h.held += len(text)
		}
	}
}

// flush writes the run of changed lines held, each deleted line facing the
// inserted line in the same position.
func (h *hunkWriter) flush() {
	if h.words {
		// One line per position: the deleted line and the inserted line
		// facing it merged word by word; the rest of the longer side whole.
		for n := range max(len(h.del), len(h.ins)) {
			a, b := pairOf(h.del, n), pairOf(h.ins, n)
			switch {
			case a != nil && b != nil:
				h.write(h.wordLine(*a, *b) + "\n")
			case a != nil:
				h.write(h.changed("-", red, *a, nil) + "\n")
			default:
				h.write(h.changed("+", green, *b, nil) + "\n")
			}
		}
		h.del, h.ins, h.held, h.plain = h.del[:0], h.ins[:0], 0, false
		return
	}
	for n, t := range h.del {
		h.write(colorLine(h.color, "-", red, t, pairOf(h.ins, n)) + "\n")
	}
	for n, t := range h.ins {
		h.write(colorLine(h.color, "+", green, t, pairOf(h.del, n)) + "\n")
	}
	h.del, h.ins, h.held, h.plain = h.del[:0], h.ins[:0], 0, false
}

// changed renders a line deleted or inserted whole: with its sign, or in
// word-diff mode between [- -] or {+ +}.
func (h *hunkWriter) changed(sign, code, text string, other *string) string {
	if !h.words {
		return colorLine(h.color, sign, code, text, other)
	}
	if sign == "-" {
		return h.paint(red, "[-"+text+"-]")
	}
	return h.paint(green, "{+"+text+"+}")
}

// wordLine merges a deleted line and the inserted line facing it:
// the words they share as they are, the others as [-removed-] and
// {+added+}.
func (h *hunkWriter) wordLine(a, b string) string {
	var out strings.Builder
	for _, r := range mergeWords(a, b) {
		switch r.op {
		case unified.Equal:
			out.WriteString(r.text)
		case unified.Delete:
			out.WriteString(h.paint(red, "[-"+r.text+"-]"))
		default:
			out.WriteString(h.paint(green, "{+"+r.text+"+}"))
		}
	}
	return out.String()
}

// wordRun is a run of words of one kind in a merged line.
type wordRun struct {
	op   unified.Kind
	text string
}

// mergeWords aligns the words of a and b (their longest common
// subsequence) and returns the runs kept, removed and added, a removal
// before the addition it faces. Lines too long to compare word by word are
// one removal and one addition.
func mergeWords(a, b string) []wordRun {
	wa, wb := words(a), words(b)
	whole := func() []wordRun {
		var out []wordRun
		if a != "" {
			out = append(out, wordRun{unified.Delete, a})
		}
		if b != "" {
			out = append(out, wordRun{unified.Insert, b})
		}
		return out
	}
	if len(a) > maxWordCells || len(b) > maxWordCells || len(wa)*len(wb) > maxWordCells || len(wa) == 0 || len(wb) == 0 {
		return whole()
	}
	lcs := make([][]int32, len(wa)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(wb)+1)
	}
	for i := len(wa) - 1; i >= 0; i-- {
		for j := len(wb) - 1; j >= 0; j-- {
			if wa[i] == wb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []wordRun
	var del, ins strings.Builder
	emit := func() {
		if del.Len() > 0 {
			out = append(out, wordRun{unified.Delete, del.String()})
			del.Reset()
		}
		if ins.Len() > 0 {
			out = append(out, wordRun{unified.Insert, ins.String()})
			ins.Reset()
		}
	}
	keep := func(w string) {
		emit()
		if n := len(out); n > 0 && out[n-1].op == unified.Equal {
			out[n-1].text += w
			return
		}
		out = append(out, wordRun{unified.Equal, w})
	}
	i, j := 0, 0
	for i < len(wa) || j < len(wb) {
		switch {
		case i < len(wa) && j < len(wb) && wa[i] == wb[j]:
			keep(wa[i])
			i++
			j++
		case j == len(wb) || i < len(wa) && lcs[i+1][j] >= lcs[i][j+1]:
			del.WriteString(wa[i])
			i++
		default:
			ins.WriteString(wb[j])
			j++
		}
	}
	emit()
	return out
}

// writeDiff writes the hunks laid out by layoutDiff under the two names,
// with ANSI colours and word-level highlighting when color is set.
func writeDiff(out io.Writer, p *docPair, mode viewMode, nameA, nameB string, spans []hunkSpan, color bool) error {
	return writeDiffWords(out, p, mode, nameA, nameB, spans, color, false)
}

// writeDiffWords is writeDiff, with changed lines merged word by word
// when words is set.
func writeDiffWords(out io.Writer, p *docPair, mode viewMode, nameA, nameB string, spans []hunkSpan, color, words bool) error {
	if len(spans) == 0 {
		return nil
	}
	h := &hunkWriter{out: out, spans: spans, unified: mode == prettyView, color: color, words: words}
	h.files(nameA, nameB)
	newDiffer(p, mode, h).run()
	h.flush()
	return h.err
}

// hunkHeader is the "@@ -a,b +c,d @@" line of a hunk, in the form patch
// reads.
func hunkHeader(h hunkSpan) string {
	side := func(sign string, line, count int) string {
		switch {
		case count > 1:
			return fmt.Sprintf("%s%d,%d", sign, line, count)
		case count == 0:
			return fmt.Sprintf("%s%d,0", sign, max(line-1, 0))
		}
		return fmt.Sprintf("%s%d", sign, line)
	}
	return "@@ " + side("-", h.fromLine, h.fromCount) + " " + side("+", h.toLine, h.toCount) + " @@"
}

// unifiedHeader is a hunk header as the diff library writes it.
func unifiedHeader(h *hunkSpan) string {
	side := func(sign string, line, count int) string {
		switch {
		case count > 1:
			return fmt.Sprintf(" %s%d,%d", sign, line, count)
		case line == 1 && count == 0:
			return " " + sign + "0,0"
		}
		return fmt.Sprintf(" %s%d", sign, line)
	}
	return "@@" + side("-", h.fromLine, h.fromCount) + side("+", h.toLine, h.toCount) + " @@"
}

func pairOf(lines []string, n int) *string {
	if n < len(lines) {
		return &lines[n]
	}
	return nil
}

// colorLine renders a changed line. With colour, the words it does not
// share with its counterpart on the other side (the line in the same
// position of the run of deletions or insertions) are shown in reverse
// video, when the two lines are alike enough for that to help.
func colorLine(color bool, sign, code, text string, other *string) string {
	if !color {
		return sign + text
	}
	if other == nil {
		return "\x1b[" + code + "m" + sign + text + "\x1b[0m"
	}
	toks, keep := wordDiff(text, *other)
	if keep == nil {
		return "\x1b[" + code + "m" + sign + text + "\x1b[0m"
	}
	var b strings.Builder
	b.WriteString("\x1b[" + code + "m" + sign)
	for i, t := range toks {
		if keep[i] {
			b.WriteString(t)
		} else {
			b.WriteString("\x1b[7m" + t + "\x1b[27m")
		}
	}
	b.WriteString("\x1b[0m")
	return b.String()
}

// maxWordCells bounds the word-level comparison of two lines.
const maxWordCells = 1 << 16

// wordDiff splits text into words, runs of space and single other
// characters, and marks the ones in the longest common subsequence with
// other's. keep is nil when the lines share less than half their
// characters, or are too long to compare.
func wordDiff(text, other string) (toks []string, keep []bool) {
	if len(text) > maxWordCells || len(other) > maxWordCells {
		return []string{text}, nil
	}
	a, b := words(text), words(other)
	if len(a)*len(b) > maxWordCells || len(a) == 0 || len(b) == 0 {
		return a, nil
	}
	// lcs[i][j] is the common length of a[i:] and b[j:], in characters.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + utf8.RuneCountInString(a[i])
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	longest := max(utf8.RuneCountInString(text), utf8.RuneCountInString(other))
	if 2*lcs[0][0] < longest {
		return a, nil
	}
	keep = make([]bool, len(a))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			keep[i] = true
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return a, keep
}

// words splits s into runs of letters and digits, runs of white space and
// single other characters.
func words(s string) []string {
	var out []string
	class := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 0
	}
	start := 0
	prev := -1
	for i, r := range s {
		c := class(r)
		if i > start && (c != prev || c == 0) {
			out = append(out, s[start:i])
			start = i
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
