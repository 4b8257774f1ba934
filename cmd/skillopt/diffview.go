package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
)

// The review rendering of a request body: the body indented two spaces
// per level like pretty-printed JSON, keys, numbers and short strings as
// captured, but every string that holds a line break or does not fit a
// line shown as a block of its decoded lines under `"key": |`. A changed
// system prompt or tool result then diffs line by line instead of as one
// line of thousands of characters.

// viewWidth is the widest line the rendering writes, indentation included
// (a block's lines are wrapped to fit; the diff adds one column).
const viewWidth = 160

// wrapMark starts the continuation of a decoded line wrapped to fit.
const wrapMark = "↪ "

// viewLine is one line of the rendering and the JSON Pointer of the value
// it belongs to.
type viewLine struct {
	text string
	ptr  string
}

// renderView renders a document for review.
func renderView(d *capture.Doc) []viewLine {
	if len(d.Nodes) == 0 {
		return nil
	}
	return renderValue(nil, d, 0, "", "", "", true)
}

// memberHead is what precedes the value of node k on its line: `"key": `
// for an object member (the key as spelled in the source), nothing for an
// array element.
func memberHead(d *capture.Doc, k int) string {
	if !d.IsMember(k) {
		return ""
	}
	return escape.Text(`"`+string(d.RawKey(k))+`"`) + ": "
}

// childPointer is the pointer of child k, the n-th of the value at ptr.
func childPointer(d *capture.Doc, k, n int, ptr string) string {
	if d.IsMember(k) {
		return ptr + "/" + pointerToken(d.Key(k))
	}
	return ptr + "/" + strconv.Itoa(n)
}

// renderValue appends the rendering of node i, the value at ptr, to out:
// indent and head (see memberHead) before it, a comma after it unless it
// is the last of its container.
func renderValue(out []viewLine, d *capture.Doc, i int, ptr, indent, head string, last bool) []viewLine {
	comma := ","
	if last {
		comma = ""
	}
	switch d.Kind(i) {
	case capture.Object, capture.Array:
		open, close := brackets(d.Kind(i))
		kids := collect(d, i)
		if len(kids) == 0 {
			return append(out, viewLine{indent + head + open + close + comma, ptr})
		}
		out = append(out, viewLine{indent + head + open, ptr})
		for n, k := range kids {
			out = renderValue(out, d, k, childPointer(d, k, n, ptr), indent+"  ", memberHead(d, k), n == len(kids)-1)
		}
		return append(out, viewLine{indent + close + comma, ptr})
	case capture.String:
		if line, ok := stringLine(d, i, indent, head, comma); ok {
			return append(out, viewLine{line, ptr})
		}
		out = append(out, viewLine{indent + head + "|", ptr})
		for _, l := range blockLines(d.Str(i), indent+"  ") {
			out = append(out, viewLine{l, ptr})
		}
		return out
	}
	return append(out, viewLine{indent + head + escape.Text(string(d.Raw(i))) + comma, ptr})
}

func brackets(k capture.Kind) (string, string) {
	if k == capture.Array {
		return "[", "]"
	}
	return "{", "}"
}

// stringLine renders string node i on one line, as captured, when it holds
// no line break and fits.
func stringLine(d *capture.Doc, i int, indent, head, comma string) (string, bool) {
	if strings.Contains(d.Str(i), "\n") {
		return "", false
	}
	line := indent + head + escape.Text(string(d.Raw(i))) + comma
	return line, utf8.RuneCountInString(line) <= viewWidth
}

// blockLines renders a string's decoded lines under indent, wrapped to
// fit; an empty line stays empty.
func blockLines(text, indent string) []string {
	var out []string
	width := max(viewWidth-utf8.RuneCountInString(indent), 40)
	for _, l := range strings.Split(text, "\n") {
		for k, part := range wrapLine(escape.Lines(l), width) {
			switch {
			case part == "":
				out = append(out, "")
			case k > 0:
				out = append(out, indent+wrapMark+part)
			default:
				out = append(out, indent+part)
			}
		}
	}
	return out
}

// collect lists the children of node i.
func collect(d *capture.Doc, i int) []int {
	var kids []int
	for k := range d.Children(i) {
		kids = append(kids, k)
	}
	return kids
}

// wrapLine splits s into pieces of at most width characters (the pieces
// after the first leave room for wrapMark), at a space when there is one
// in the second half of the piece.
func wrapLine(s string, width int) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	var out []string
	rs := []rune(s)
	w := width
	for len(rs) > w {
		cut := w
		for k := w; k > w/2; k-- {
			if rs[k-1] == ' ' {
				cut = k
				break
			}
		}
		out = append(out, string(rs[:cut]))
		rs = rs[cut:]
		w = width - utf8.RuneCountInString(wrapMark)
	}
	return append(out, string(rs))
}

// hunkLine is one line of a review diff: its kind, text and the JSON
// Pointer of the value it shows (in the old document for deletions and
// context, in the new one for insertions).
type hunkLine struct {
	kind udiff.OpKind
	text string
	ptr  string
}

// reviewHunk is one hunk of a review diff.
type reviewHunk struct {
	fromLine, fromCount int
	toLine, toCount     int
	lines               []hunkLine
	// label names what the hunk changes: JSON Pointers and the rules that
	// changed them.
	label string
}

// reviewDiff diffs the renderings of two documents (see renderView) with
// ctx lines of context and labels each hunk with the changes, and their
// rules, that it shows. The documents are compared value by value, so an
// unchanged message or tool is never matched against another's lines;
// two strings that differ are diffed line by line.
func reviewDiff(a, b *capture.Doc, changes []diffChange, ctx int) []reviewHunk {
	if bytes.Equal(a.Src, b.Src) {
		return nil
	}
	w := &differ{a: a, b: b}
	if len(a.Nodes) > 0 && len(b.Nodes) > 0 {
		w.value(0, 0, "", "", "", "", "", true, true)
	}
	return hunks(w.ops, changes, ctx)
}

// differ walks two documents together, collecting the line operations
// that turn the rendering of a into that of b.
type differ struct {
	a, b *capture.Doc
	ops  []hunkLine
}

func (w *differ) emit(kind udiff.OpKind, lines []viewLine) {
	for _, l := range lines {
		w.ops = append(w.ops, hunkLine{kind, l.text, l.ptr})
	}
}

// same emits two renderings of equal content as context; lines that
// differ (the comma after an element that is no longer the last) are a
// deletion and an insertion.
func (w *differ) same(la, lb []viewLine) {
	if len(la) != len(lb) {
		w.emit(udiff.Delete, la)
		w.emit(udiff.Insert, lb)
		return
	}
	for k := range la {
		if la[k].text == lb[k].text {
			w.ops = append(w.ops, hunkLine{udiff.Equal, la[k].text, la[k].ptr})
			continue
		}
		w.ops = append(w.ops, hunkLine{udiff.Delete, la[k].text, la[k].ptr}, hunkLine{udiff.Insert, lb[k].text, lb[k].ptr})
	}
}

// replace emits node i of a as deleted and node j of b as inserted.
func (w *differ) replace(i, j int, pa, pb, indent, ha, hb string, lastA, lastB bool) {
	if i >= 0 {
		w.emit(udiff.Delete, renderValue(nil, w.a, i, pa, indent, ha, lastA))
	}
	if j >= 0 {
		w.emit(udiff.Insert, renderValue(nil, w.b, j, pb, indent, hb, lastB))
	}
}

// value diffs node i of a (at pa) with node j of b (at pb).
func (w *differ) value(i, j int, pa, pb, indent, ha, hb string, lastA, lastB bool) {
	a, b := w.a, w.b
	if ha == hb && bytes.Equal(a.Raw(i), b.Raw(j)) {
		w.same(renderValue(nil, a, i, pa, indent, ha, lastA), renderValue(nil, b, j, pb, indent, hb, lastB))
		return
	}
	ka, kb := a.Kind(i), b.Kind(j)
	if ka != kb || ha != hb || (ka == capture.Object || ka == capture.Array) && (a.Len(i) == 0 || b.Len(j) == 0) {
		w.replace(i, j, pa, pb, indent, ha, hb, lastA, lastB)
		return
	}
	comma := func(last bool) string {
		if last {
			return ""
		}
		return ","
	}
	switch ka {
	case capture.Object:
		w.same([]viewLine{{indent + ha + "{", pa}}, []viewLine{{indent + hb + "{", pb}})
		w.members(i, j, pa, pb, indent+"  ")
		w.same([]viewLine{{indent + "}" + comma(lastA), pa}}, []viewLine{{indent + "}" + comma(lastB), pb}})
	case capture.Array:
		w.same([]viewLine{{indent + ha + "[", pa}}, []viewLine{{indent + hb + "[", pb}})
		w.elements(i, j, pa, pb, indent+"  ")
		w.same([]viewLine{{indent + "]" + comma(lastA), pa}}, []viewLine{{indent + "]" + comma(lastB), pb}})
	case capture.String:
		la, oka := stringLine(a, i, indent, ha, comma(lastA))
		lb, okb := stringLine(b, j, indent, hb, comma(lastB))
		if oka || okb {
			if oka && okb {
				w.same([]viewLine{{la, pa}}, []viewLine{{lb, pb}})
				return
			}
			w.replace(i, j, pa, pb, indent, ha, hb, lastA, lastB)
			return
		}
		w.same([]viewLine{{indent + ha + "|", pa}}, []viewLine{{indent + hb + "|", pb}})
		w.lines(blockLines(a.Str(i), indent+"  "), blockLines(b.Str(j), indent+"  "), pa, pb)
	default:
		w.replace(i, j, pa, pb, indent, ha, hb, lastA, lastB)
	}
}

// members diffs two objects member by member, in the order of their keys;
// a member only one side has is deleted or inserted where it stands.
func (w *differ) members(i, j int, pa, pb, indent string) {
	a, b := w.a, w.b
	ma, mb := collect(a, i), collect(b, j)
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, k := range ma {
		inA[a.Key(k)] = true
	}
	for _, k := range mb {
		inB[b.Key(k)] = true
	}
	moved := map[string]bool{}
	x, y := 0, 0
	for x < len(ma) || y < len(mb) {
		switch {
		case x < len(ma) && (!inB[a.Key(ma[x])] || moved[a.Key(ma[x])]):
			k := ma[x]
			w.replace(k, -1, pa+"/"+pointerToken(a.Key(k)), "", indent, memberHead(a, k), "", x == len(ma)-1, false)
			x++
		case y < len(mb) && (!inA[b.Key(mb[y])] || moved[b.Key(mb[y])]):
			k := mb[y]
			w.replace(-1, k, "", pb+"/"+pointerToken(b.Key(k)), indent, "", memberHead(b, k), false, y == len(mb)-1)
			y++
		case x < len(ma) && y < len(mb) && a.Key(ma[x]) == b.Key(mb[y]):
			ka, kb := ma[x], mb[y]
			w.value(ka, kb, pa+"/"+pointerToken(a.Key(ka)), pb+"/"+pointerToken(b.Key(kb)), indent, memberHead(a, ka), memberHead(b, kb), x == len(ma)-1, y == len(mb)-1)
			x++
			y++
		case x >= len(ma):
			// Only with repeated keys, which the reader rejects.
			k := mb[y]
			w.replace(-1, k, "", pb+"/"+pointerToken(b.Key(k)), indent, "", memberHead(b, k), false, y == len(mb)-1)
			y++
		default:
			// The keys come in another order: this one moves.
			k := ma[x]
			moved[a.Key(k)] = true
			w.replace(k, -1, pa+"/"+pointerToken(a.Key(k)), "", indent, memberHead(a, k), "", x == len(ma)-1, false)
			x++
		}
	}
}

// elements diffs two arrays: equal elements at the start and at the end
// are context, those between are compared pairwise and the rest deleted
// or inserted.
func (w *differ) elements(i, j int, pa, pb, indent string) {
	a, b := w.a, w.b
	ea, eb := collect(a, i), collect(b, j)
	pre, suf, pair := alignElements(a, b, ea, eb)
	x := func(n int) (int, string, bool) { return ea[n], pa + "/" + strconv.Itoa(n), n == len(ea)-1 }
	y := func(n int) (int, string, bool) { return eb[n], pb + "/" + strconv.Itoa(n), n == len(eb)-1 }
	for n := 0; n < pre+pair; n++ {
		ka, ptrA, lastA := x(n)
		kb, ptrB, lastB := y(n)
		w.value(ka, kb, ptrA, ptrB, indent, "", "", lastA, lastB)
	}
	for n := pre + pair; n < len(ea)-suf; n++ {
		k, p, last := x(n)
		w.replace(k, -1, p, "", indent, "", "", last, false)
	}
	for n := pre + pair; n < len(eb)-suf; n++ {
		k, p, last := y(n)
		w.replace(-1, k, "", p, indent, "", "", false, last)
	}
	for n := 0; n < suf; n++ {
		ka, ptrA, lastA := x(len(ea) - suf + n)
		kb, ptrB, lastB := y(len(eb) - suf + n)
		w.value(ka, kb, ptrA, ptrB, indent, "", "", lastA, lastB)
	}
}

// maxLineCells bounds the exact line diff of two strings' lines; larger
// ones are diffed by the faster approximation of the diff library.
const maxLineCells = 1 << 22

// lines diffs the lines of two strings.
func (w *differ) lines(la, lb []string, pa, pb string) {
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	for _, l := range la[:pre] {
		w.ops = append(w.ops, hunkLine{udiff.Equal, l, pa})
	}
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	var ds []lcs.Diff
	if len(ma)*len(mb) <= maxLineCells {
		ds = exactDiff(ma, mb)
	} else {
		ds = lcs.DiffLines(ma, mb)
	}
	x := 0
	for _, d := range ds {
		for ; x < d.Start; x++ {
			w.ops = append(w.ops, hunkLine{udiff.Equal, ma[x], pa})
		}
		for ; x < d.End; x++ {
			w.ops = append(w.ops, hunkLine{udiff.Delete, ma[x], pa})
		}
		for _, l := range mb[d.ReplStart:d.ReplEnd] {
			w.ops = append(w.ops, hunkLine{udiff.Insert, l, pb})
		}
	}
	for ; x < len(ma); x++ {
		w.ops = append(w.ops, hunkLine{udiff.Equal, ma[x], pa})
	}
	for _, l := range la[len(la)-suf:] {
		w.ops = append(w.ops, hunkLine{udiff.Equal, l, pa})
	}
}

// exactDiff returns the replacements of a longest common subsequence of
// a and b, computed by dynamic programming.
func exactDiff(a, b []string) []lcs.Diff {
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
	var out []lcs.Diff
	var cur *lcs.Diff
	x, y := 0, 0
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	open := func() {
		if cur == nil {
			cur = &lcs.Diff{Start: x, End: x, ReplStart: y, ReplEnd: y}
		}
	}
	for x < n || y < m {
		switch {
		case x < n && y < m && a[x] == b[y]:
			flush()
			x++
			y++
		case y == m || x < n && l[(x+1)*(m+1)+y] >= l[x*(m+1)+y+1]:
			open()
			x++
			cur.End = x
		default:
			open()
			y++
			cur.ReplEnd = y
		}
	}
	flush()
	return out
}

// hunks groups line operations into hunks with ctx lines of context, as
// unified diffs do, and labels each.
func hunks(ops []hunkLine, changes []diffChange, ctx int) []reviewHunk {
	var changed []int
	for k, o := range ops {
		if o.kind != udiff.Equal {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	// Line numbers before each operation.
	la, lb := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for k, o := range ops {
		la[k+1], lb[k+1] = la[k], lb[k]
		if o.kind != udiff.Insert {
			la[k+1]++
		}
		if o.kind != udiff.Delete {
			lb[k+1]++
		}
	}
	var out []reviewHunk
	for s := 0; s < len(changed); {
		e := s
		for e+1 < len(changed) && changed[e+1]-changed[e]-1 <= 2*ctx {
			e++
		}
		from := max(changed[s]-ctx, 0)
		to := min(changed[e]+ctx+1, len(ops))
		h := reviewHunk{fromLine: la[from] + 1, toLine: lb[from] + 1, lines: ops[from:to],
			fromCount: la[to] - la[from], toCount: lb[to] - lb[from]}
		h.label = hunkLabel(h.lines, changes)
		out = append(out, h)
		s = e + 1
	}
	return out
}

// covers reports whether the value at change pointer c holds the value at
// pointer p.
func covers(c, p string) bool {
	return p == c || strings.HasPrefix(p, c+"/") || c == ""
}

// hunkLabel names the changes a hunk's changed lines belong to, each with
// the rule that made it: "/system/0/text SO101 catalog.compact-index". A
// hunk none of whose lines a change covers (a comma after the element
// before an added one) is named by its first changed line.
func hunkLabel(lines []hunkLine, changes []diffChange) string {
	var parts []string
	seen := map[int]bool{}
	first := ""
	for _, l := range lines {
		if l.kind == udiff.Equal {
			continue
		}
		if first == "" {
			first = ptrText(l.ptr)
		}
		for k, ch := range changes {
			if !seen[k] && covers(ch.Pointer, l.ptr) {
				seen[k] = true
				part := ptrText(ch.Pointer)
				if ch.Rule != "" {
					part += " " + ruleLabel(ch.Rule)
				}
				parts = append(parts, part)
			}
		}
	}
	if len(parts) == 0 {
		return first
	}
	return strings.Join(parts, "; ")
}

// hunkHeader is the "@@ -a,b +c,d @@" line of a hunk, in the form patch
// reads.
func hunkHeader(h reviewHunk) string {
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

// writeHunks writes hunks as a unified diff under the two names, with
// ANSI colours and word-level highlighting when paint is set.
func writeHunks(b *strings.Builder, nameA, nameB string, hunks []reviewHunk, color bool) {
	if len(hunks) == 0 {
		return
	}
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	b.WriteString(paint(bold, "--- "+escape.Text(nameA)) + "\n")
	b.WriteString(paint(bold, "+++ "+escape.Text(nameB)) + "\n")
	for _, h := range hunks {
		b.WriteString(paint("36", hunkHeader(h)))
		if h.label != "" {
			b.WriteString(" " + h.label)
		}
		b.WriteByte('\n')
		lines := h.lines
		for i := 0; i < len(lines); {
			if lines[i].kind == udiff.Equal {
				b.WriteString(" " + lines[i].text + "\n")
				i++
				continue
			}
			// A run of deletions and the insertions that follow it.
			j := i
			for j < len(lines) && lines[j].kind == udiff.Delete {
				j++
			}
			k := j
			for k < len(lines) && lines[k].kind == udiff.Insert {
				k++
			}
			del, ins := lines[i:j], lines[j:k]
			for n, l := range del {
				b.WriteString(colorLine(color, "-", red, l.text, pairOf(ins, n)) + "\n")
			}
			for n, l := range ins {
				b.WriteString(colorLine(color, "+", green, l.text, pairOf(del, n)) + "\n")
			}
			i = k
		}
	}
}

func pairOf(lines []hunkLine, n int) *string {
	if n < len(lines) {
		return &lines[n].text
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
