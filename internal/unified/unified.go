// Package unified writes line diffs in the unified format that patch and
// git read.
//
// The line alignment is go-udiff's lcs package (the algorithm of the Go
// tools' internal diff: near-linear, with a bounded search). The hunks are
// built here, from line numbers, in one pass over the alignment: the
// go-udiff root package would do the same but compiles a regular expression
// when the program starts (which every command of the program would pay)
// and counts lines from the start of the text for every edit.
package unified

import (
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Kind is what one line of a diff does.
type Kind uint8

const (
	// Delete is a line of the old text that the new one lacks.
	Delete Kind = iota
	// Insert is a line of the new text that the old one lacks.
	Insert
	// Equal is a line both texts have, shown as context.
	Equal
)

// Lines splits text after each newline; a last line without one is a line
// too.
func Lines(text string) []string {
	n := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	out := make([]string, 0, n)
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// Diff returns the unified diff from before to after, labelled from and
// to, with context lines of unchanged text around each change; "" when the
// texts have the same lines. A last line without a newline is followed by
// patch's "\ No newline at end of file".
func Diff(from, to, before, after string, context int) string {
	if before == after {
		return ""
	}
	a, b := Lines(before), Lines(after)
	diffs := lcs.DiffLines(a, b)
	if len(diffs) == 0 {
		return ""
	}
	var w writer
	w.b.WriteString("--- " + from + "\n+++ " + to + "\n")
	// Changes closer than twice the context share a hunk.
	for i := 0; i < len(diffs); {
		j := i + 1
		for j < len(diffs) && diffs[j].Start-diffs[j-1].End <= 2*context {
			j++
		}
		w.hunk(a, b, diffs[i:j], context)
		i = j
	}
	return w.b.String()
}

type writer struct {
	b     strings.Builder
	lines []line
}

type line struct {
	kind Kind
	text string
}

// hunk writes the changes ds (in order, each within 2*context lines of the
// one before) with their context.
func (w *writer) hunk(a, b []string, ds []lcs.Diff, context int) {
	first, last := ds[0], ds[len(ds)-1]
	fromStart := max(first.Start-context, 0)
	fromEnd := min(last.End+context, len(a))
	// The new text's lines before the hunk: the old ones before it, moved
	// by the changes before the first one's start (the same in both).
	toStart := first.ReplStart - (first.Start - fromStart)
	w.lines = w.lines[:0]
	at := fromStart
	for _, d := range ds {
		for ; at < d.Start; at++ {
			w.lines = append(w.lines, line{Equal, a[at]})
		}
		for _, t := range a[d.Start:d.End] {
			w.lines = append(w.lines, line{Delete, t})
		}
		for _, t := range b[d.ReplStart:d.ReplEnd] {
			w.lines = append(w.lines, line{Insert, t})
		}
		at = d.End
	}
	for ; at < fromEnd; at++ {
		w.lines = append(w.lines, line{Equal, a[at]})
	}
	fromCount, toCount := 0, 0
	for _, l := range w.lines {
		if l.kind != Insert {
			fromCount++
		}
		if l.kind != Delete {
			toCount++
		}
	}
	w.b.WriteString("@@")
	w.rangeOf(" -", fromStart+1, fromCount)
	w.rangeOf(" +", toStart+1, toCount)
	w.b.WriteString(" @@\n")
	for _, l := range w.lines {
		w.b.WriteByte(marks[l.kind])
		w.b.WriteString(l.text)
		if !strings.HasSuffix(l.text, "\n") {
			w.b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeOf writes one side's range: the first line and the count, the
// count left out when it is 1, and "0,0" for nothing at the start (as GNU
// diff -u writes it).
func (w *writer) rangeOf(sign string, start, count int) {
	w.b.WriteString(sign)
	switch {
	case count > 1:
		w.b.WriteString(strconv.Itoa(start) + "," + strconv.Itoa(count))
	case start == 1 && count == 0:
		w.b.WriteString("0,0")
	default:
		w.b.WriteString(strconv.Itoa(start))
	}
}

// marks are the first bytes of the lines of each kind.
var marks = [...]byte{Delete: '-', Insert: '+', Equal: ' '}
