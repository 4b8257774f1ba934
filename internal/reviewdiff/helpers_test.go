package reviewdiff

import (
	"io"

	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
)

// The diff helpers the tests use to look at a diff whole; the command
// streams it instead (see differ).

// compareDocs lists the deepest values that differ between two documents
// (see compareHashed).
func compareDocs(a, b *capture.Doc) []Change {
	return compareHashed(newPair(a, b))
}

// wrapLine splits s into pieces of at most width characters (the pieces
// after the first leave room for wrapMark), at a space when there is one
// in the second half of the piece.
func wrapLine(s string, width int) []string {
	t := &blockText{s: s, width: width, offs: make([]int, width+1)}
	var out []string
	for it := t.from(0); ; {
		p, ok := it.next()
		if !ok {
			return out
		}
		out = append(out, t.text(p))
	}
}

// reviewHunk is a hunk of a review diff with its lines.
type reviewHunk struct {
	hunkSpan
	lines []hunkLine
}

// hunkLine is one line of a diff: its kind and text.
type hunkLine struct {
	kind unified.Kind
	text string
}

// collector keeps all the lines of a diff (and with ptr, the pointer of
// the value each shows).
type collector struct {
	lines []hunkLine
	ptrs  []string
	ptr   bool
}

func (c *collector) note(_ *differ, text string) {
	c.lines = append(c.lines, hunkLine{opNote, text})
}

func (c *collector) op(w *differ, kind unified.Kind, ln lineSpec) {
	c.lines = append(c.lines, hunkLine{kind, w.text(ln)})
	if c.ptr {
		c.ptrs = append(c.ptrs, w.pointer(ln.side))
	}
}

// testLabel names the rules the tests use as the registry does.
func testLabel(id string) string {
	if name, ok := map[string]string{"SO101": "catalog.compact-index", "SO301": "output.smart"}[id]; ok {
		return id + " " + name
	}
	return id
}

// reviewDiff diffs the renderings of two documents (see renderView) with
// ctx lines of context and labels each hunk with the changes, and their
// rules, that it shows; the hunks hold their lines.
func reviewDiff(a, b *capture.Doc, changes []Change, ctx int) []reviewHunk {
	p := newPair(a, b)
	spans := layoutDiff(p, reviewView, changes, ctx, testLabel)
	if len(spans) == 0 {
		return nil
	}
	c := &collector{}
	newDiffer(p, reviewView, c).run()
	// The operations, notes aside, in order.
	var out []reviewHunk
	k := 0
	var notes []hunkLine
	var cur *reviewHunk
	for _, l := range c.lines {
		if l.kind == opNote {
			notes = append(notes, l)
			continue
		}
		if len(out) < len(spans) && k == spans[len(out)].from {
			out = append(out, reviewHunk{hunkSpan: spans[len(out)]})
			cur = &out[len(out)-1]
		}
		if cur != nil && k < cur.to {
			cur.lines = append(cur.lines, notes...)
			cur.lines = append(cur.lines, l)
		}
		notes = notes[:0]
		k++
	}
	return out
}

// writeHunks writes hunks as a unified diff under the two names, with
// ANSI colours and word-level highlighting when color is set.
func writeHunks(out io.Writer, nameA, nameB string, hunks []reviewHunk, color bool) {
	if len(hunks) == 0 {
		return
	}
	h := &hunkWriter{out: out, color: color}
	h.files(nameA, nameB)
	for _, hk := range hunks {
		h.header(&hk.hunkSpan)
		for _, l := range hk.lines {
			h.line(l.kind, l.text)
		}
		h.flush()
	}
}

// viewLine is one line of a rendering and the JSON Pointer of the value
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
	c := &collector{ptr: true}
	w := newDiffer(newPair(d, d), reviewView, c)
	w.track = true
	w.render(0, unified.Delete, 0, -1, 0, "")
	out := make([]viewLine, len(c.lines))
	for k, l := range c.lines {
		out[k] = viewLine{l.text, c.ptrs[k]}
	}
	return out
}
