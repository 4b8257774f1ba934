// Package reviewdiff compares two JSON request bodies value by value and
// writes what differs: a review diff whose hunks name the JSON Pointers and
// rules behind them, a change list, a stat, and a unified diff of the
// pretty-printed bodies, in time and memory linear in their size.
package reviewdiff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure/units"
)

// Change is one value that differs between the two bodies of a pair.
type Change struct {
	Capture     string `json:"capture,omitempty"`
	Pointer     string `json:"pointer"`
	BytesBefore int    `json:"bytes_before"`
	BytesAfter  int    `json:"bytes_after"`
	Rule        string `json:"rule,omitempty"`
	// Unaligned marks two arrays or objects too different to align,
	// compared whole.
	Unaligned bool `json:"unaligned,omitempty"`
	// na and nb are the nodes of the value in the two documents (-1 where
	// it is missing) when known is set, for the review diff to name its
	// hunks; otherwise Pointer is looked up.
	na    capture.Node
	nb    capture.Node
	known bool
}

// Pair is one capture and what it is compared with: its transform, or
// the capture in the same place of a second file.
type Pair struct {
	// Name names the pair in summaries of several pairs; NameA and NameB
	// head the two sides of its diff.
	Name         string
	A, B         *capture.Capture
	NameA, NameB string
	// Changes are the rules' changes, or nil for Write to compare the
	// two bodies.
	Changes []Change
	docs    *docPair
}

// Options say how Write reports.
type Options struct {
	// Format is text, markdown or json.
	Format string
	// Context is the number of lines of context around each hunk.
	Context int
	// Stat prints only the changes per pointer and per rule (text and
	// markdown).
	Stat bool
	// Color highlights the text diff with ANSI colours, words that
	// differ in reverse video.
	Color bool
	// Label names a rule by its ID in hunk headers and summaries ("SO101
	// catalog.compact-index"); nil shows the ID.
	Label func(id string) string
	// JSONTail is a last member of the JSON object, written as it is
	// (`"config": null`); "" for none.
	JSONTail string
	// Quiet writes nothing, as git diff --quiet: the caller tells by the
	// exit code whether the bodies differ.
	Quiet bool
	// WordDiff writes the text diff with each changed line and the line
	// facing it merged into one, the words that differ as [-removed-] and
	// {+added+}, as git diff --word-diff=plain does (text format only).
	WordDiff bool
}

// Width is the widest line of the review rendering, indentation included
// (a block's lines are wrapped to fit; the diff adds one column).
const Width = viewWidth

// WrapMark starts the continuation of a line of text wrapped to fit.
const WrapMark = wrapMark

// Write compares the pairs and writes their diff as o asks.
func Write(w io.Writer, pairs []Pair, o Options) error {
	if o.Quiet {
		return nil
	}
	label := labeler(o.Label)
	for k := range pairs {
		p := &pairs[k]
		p.docs = newPair(p.A.Doc, p.B.Doc)
		if p.Changes == nil {
			p.Changes = compareHashed(p.docs)
			for k := range p.Changes {
				p.Changes[k].Capture = p.Name
			}
		}
	}
	out := &countingWriter{w: bufio.NewWriterSize(w, 64<<10)}
	switch o.Format {
	case "json":
		writeDiffJSON(out, pairs, o.Context, o.JSONTail)
	case "markdown":
		if !o.Stat {
			writeMarkdownDiff(out, pairs, o.Context, label)
		}
		writeChangeTable(out, pairs, label)
	default:
		if o.Stat {
			writeStat(out, pairs, label)
			break
		}
		for i, p := range pairs {
			spans := layoutDiff(p.docs, reviewView, p.Changes, o.Context, label)
			if i > 0 && out.n > 0 {
				io.WriteString(out, "\n")
			}
			out.fail(writeDiffWords(out, p.docs, reviewView, p.NameA, p.NameB, spans, o.Color, o.WordDiff))
		}
		if out.n > 0 {
			io.WriteString(out, "\n")
		}
		writeSummary(out, pairs, label)
	}
	return out.flush()
}

// writeMarkdownDiff writes the review diffs of the pairs in one fenced
// block (nothing when no pair differs).
func writeMarkdownDiff(out *countingWriter, pairs []Pair, ctx int, label labeler) {
	spans := make([][]hunkSpan, len(pairs))
	some := false
	for k, p := range pairs {
		spans[k] = layoutDiff(p.docs, reviewView, p.Changes, ctx, label)
		some = some || len(spans[k]) > 0
	}
	if !some {
		return
	}
	// Longer than any run of backticks the bodies hold, so that no line
	// of the diff closes the block.
	fence := "```"
	for _, p := range pairs {
		fence = longerFence(fence, p.A.Body, p.B.Body, []byte(p.NameA), []byte(p.NameB))
	}
	io.WriteString(out, fence+"diff\n")
	for k, p := range pairs {
		out.fail(writeDiff(out, p.docs, reviewView, p.NameA, p.NameB, spans[k], false))
	}
	io.WriteString(out, fence+"\n\n")
}

// labeler names rules (see Options.Label).
type labeler func(id string) string

func (l labeler) of(id string) string {
	if l == nil {
		return id
	}
	return l(id)
}

// signedBytes renders a byte delta with its sign, "−6,330 B", "+476 B".
func signedBytes(n int) string {
	switch {
	case n < 0:
		return "−" + units.Thousands(-n) + " B"
	case n > 0:
		return "+" + units.Thousands(n) + " B"
	}
	return "±0 B"
}

// changeText describes one change: "/system/0/text −6,330 B (9,768 → 3,438 B)".
func changeText(ch Change) string {
	s := ptrText(ch.Pointer) + " " + signedBytes(ch.BytesAfter-ch.BytesBefore)
	switch {
	case ch.BytesBefore == 0:
		return s + " (added)"
	case ch.BytesAfter == 0:
		return s + " (removed)"
	}
	s += fmt.Sprintf(" (%s → %s B", units.Thousands(ch.BytesBefore), units.Thousands(ch.BytesAfter))
	if ch.Unaligned {
		s += "; too different to align, compared whole"
	}
	return s + ")"
}

// writeSummary writes a line per change, naming its rule, and a total per
// pair: the body before and after.
func writeSummary(b io.Writer, pairs []Pair, label labeler) {
	many := len(pairs) > 1
	total := 0
	for _, p := range pairs {
		prefix := ""
		if many {
			prefix = escape.Text(p.Name) + ": "
		}
		if len(p.Changes) == 0 {
			if bytes.Equal(p.A.Body, p.B.Body) {
				fmt.Fprintf(b, "%sno changes\n", prefix)
			} else {
				fmt.Fprintf(b, "%sno changes but white space: %s → %s B\n", prefix, units.Thousands(len(p.A.Body)), units.Thousands(len(p.B.Body)))
			}
			continue
		}
		for _, ch := range p.Changes {
			rule := ""
			if ch.Rule != "" {
				rule = label.of(ch.Rule) + ": "
			}
			fmt.Fprintf(b, "%s%s%s\n", prefix, rule, changeText(ch))
		}
		fmt.Fprintf(b, "%s%s: %s → %s B (%s)\n", prefix, counted(len(p.Changes), "change"),
			units.Thousands(len(p.A.Body)), units.Thousands(len(p.B.Body)), signedBytes(len(p.B.Body)-len(p.A.Body)))
		total += len(p.Changes)
	}
	if many {
		before, after := 0, 0
		for _, p := range pairs {
			before += len(p.A.Body)
			after += len(p.B.Body)
		}
		fmt.Fprintf(b, "%d captures, %s: %s → %s B (%s)\n", len(pairs), counted(total, "change"), units.Thousands(before), units.Thousands(after), signedBytes(after-before))
	}
}

// counted is n and word, plural unless n is 1: "4 changes".
func counted(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// writeStat writes the changes per JSON Pointer with a bar of their size,
// then the changes per rule, then the total, like git diff --stat.
func writeStat(b io.Writer, pairs []Pair, label labeler) {
	const barWidth = 24
	var all []Change
	for _, p := range pairs {
		all = append(all, p.Changes...)
	}
	if len(all) == 0 {
		io.WriteString(b, "no changes\n")
		return
	}
	many := len(pairs) > 1
	names := make([]string, len(all))
	biggest, wName, wRule := 1, 0, 0
	for i, ch := range all {
		names[i] = ptrText(ch.Pointer)
		if many {
			names[i] = escape.Text(ch.Capture) + " " + names[i]
		}
		biggest = max(biggest, abs(ch.BytesAfter-ch.BytesBefore))
		wName = max(wName, utf8.RuneCountInString(names[i]))
		wRule = max(wRule, len(ch.Rule))
	}
	cells := func(ch Change) [3]string {
		return [3]string{units.Thousands(ch.BytesBefore), units.Thousands(ch.BytesAfter), signedBytes(ch.BytesAfter - ch.BytesBefore)}
	}
	var w [3]int
	for _, ch := range all {
		for k, s := range cells(ch) {
			w[k] = max(w[k], utf8.RuneCountInString(s))
		}
	}
	for i, ch := range all {
		c := cells(ch)
		delta := ch.BytesAfter - ch.BytesBefore
		n := max((abs(delta)*barWidth+biggest-1)/biggest, 1)
		bar := strings.Repeat("-", n)
		if delta > 0 {
			bar = strings.Repeat("+", n)
		}
		rule := ""
		if wRule > 0 {
			rule = pad(ch.Rule, wRule) + "  "
		}
		fmt.Fprintf(b, " %s  %s%s → %s  %s  %s\n", pad(names[i], wName), rule,
			lpad(c[0], w[0]), lpad(c[1], w[1]), lpad(c[2], w[2]), bar)
	}
	// Per rule, in pipeline order.
	type perRule struct {
		id           string
		count, delta int
	}
	var rs []*perRule
	byID := map[string]*perRule{}
	for _, ch := range all {
		if ch.Rule == "" {
			continue
		}
		r := byID[ch.Rule]
		if r == nil {
			r = &perRule{id: ch.Rule}
			byID[ch.Rule] = r
			rs = append(rs, r)
		}
		r.count++
		r.delta += ch.BytesAfter - ch.BytesBefore
	}
	if len(rs) > 0 {
		io.WriteString(b, " "+strings.Repeat("─", 3)+"\n")
		wl, wc, wd := 0, 0, 0
		for _, r := range rs {
			wl = max(wl, utf8.RuneCountInString(label.of(r.id)))
			wc = max(wc, len(counted(r.count, "change")))
			wd = max(wd, utf8.RuneCountInString(signedBytes(r.delta)))
		}
		for _, r := range rs {
			fmt.Fprintf(b, " %s  %s  %s\n", pad(label.of(r.id), wl), pad(counted(r.count, "change"), wc), lpad(signedBytes(r.delta), wd))
		}
	}
	io.WriteString(b, " "+strings.Repeat("─", 3)+"\n")
	before, after := 0, 0
	for _, p := range pairs {
		before += len(p.A.Body)
		after += len(p.B.Body)
	}
	fmt.Fprintf(b, " %s: %s → %s B (%s, %s)\n", counted(len(all), "change"), units.Thousands(before), units.Thousands(after),
		signedBytes(after-before), units.SignedPercentText(after-before, before))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// pad and lpad align s in a column of w characters, left and right.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-utf8.RuneCountInString(s), 0))
}

func lpad(s string, w int) string {
	return strings.Repeat(" ", max(w-utf8.RuneCountInString(s), 0)) + s
}

// writeChangeTable writes the changes as a Markdown table.
func writeChangeTable(w io.Writer, pairs []Pair, label labeler) {
	var all []Change
	for _, p := range pairs {
		all = append(all, p.Changes...)
	}
	if len(all) == 0 {
		fmt.Fprintln(w, "no changes")
		return
	}
	many := len(pairs) > 1
	fmt.Fprint(w, "| ")
	if many {
		fmt.Fprint(w, "capture | ")
	}
	fmt.Fprint(w, "rule | pointer | before | after | change |\n|")
	if many {
		fmt.Fprint(w, " --- |")
	}
	fmt.Fprint(w, " --- | --- | ---: | ---: | ---: |\n")
	for _, ch := range all {
		fmt.Fprint(w, "| ")
		if many {
			fmt.Fprintf(w, "%s | ", escape.Markdown(ch.Capture))
		}
		rule := ""
		if ch.Rule != "" {
			rule = label.of(ch.Rule)
		}
		fmt.Fprintf(w, "%s | %s | %s | %s | %s |\n", rule, escape.MarkdownCode(ptrText(ch.Pointer)), units.Thousands(ch.BytesBefore), units.Thousands(ch.BytesAfter), signedBytes(ch.BytesAfter-ch.BytesBefore))
	}
	before, after := 0, 0
	for _, p := range pairs {
		before += len(p.A.Body)
		after += len(p.B.Body)
	}
	fmt.Fprintf(w, "\n%s: %s → %s B (%s)\n", counted(len(all), "change"), units.Thousands(before), units.Thousands(after), signedBytes(after-before))
}

// ptrText shows a pointer on one line of text, keys with line breaks or
// control characters escaped.
func ptrText(p string) string {
	if p == "" {
		return "(root)"
	}
	return escape.Text(p)
}

// pretty indents a JSON body two spaces deep, keeping key order, number
// spellings and escapes exactly as captured.
func pretty(body []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, body, "", "  "); err != nil {
		return string(body)
	}
	b.WriteByte('\n')
	return b.String()
}

// compareHashed lists the deepest values that differ between the two
// documents of a pair, in document order: objects are compared member by
// member; arrays are aligned (see align), the elements between matched ones
// compared pairwise and the rest as removed or added (so a message appended
// to the history is one addition at its index); anything else that differs
// is one change. A value changed in place is named by its pointer in b. Two
// arrays or objects too different to align are one change, marked
// Unaligned.
func compareHashed(p *docPair) []Change {
	a, b := p.a, p.b
	c := &comparer{pair: p, a: a, b: b}
	if len(a.d.Nodes) > 0 && len(b.d.Nodes) > 0 {
		c.walk(0, 0)
	}
	for k := range c.out {
		c.out[k].known = true
	}
	return c.out
}

// comparer walks two documents together, keeping the path to the values
// it compares (a pointer is spelled only for a change).
type comparer struct {
	pair *docPair
	a, b *docHashes
	path []pathStep
	out  []Change
}

// pathStep is one step of a JSON Pointer: the member node (of doc) whose key
// it names, or an array index.
type pathStep struct {
	doc   *capture.Doc
	node  capture.Node
	index int32 // -1 for a member
}

// pointerOf spells a path as a JSON Pointer.
func pointerOf(path []pathStep) string {
	var b strings.Builder
	for _, s := range path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(int(s.index)))
		} else {
			b.WriteString(pointerToken(s.doc.Key(s.node)))
		}
	}
	return b.String()
}

func (c *comparer) change(step pathStep, ch Change) {
	c.path = append(c.path, step)
	ch.Pointer = pointerOf(c.path)
	c.path = c.path[:len(c.path)-1]
	c.out = append(c.out, ch)
}

func (c *comparer) walk(i capture.Node, j capture.Node) {
	a, b := c.a.d, c.b.d
	if equalNodes(c.a, c.b, i, j) {
		return
	}
	ka, kb := a.Kind(i), b.Kind(j)
	switch {
	case ka == capture.Object && kb == capture.Object:
		if !c.pair.alignObjects(i, j) {
			c.out = append(c.out, Change{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)),
				Unaligned: true, na: i, nb: j})
			return
		}
		ma, mb := elements(a, i), elements(b, j)
		// Members in the same order are paired in place; the rest by key.
		p := 0
		for p < ma.n && p < mb.n && sameKey(a, ma.at(p), b, mb.at(p)) {
			c.member(ma.at(p), mb.at(p))
			p++
		}
		ma, mb = ma.from(p), mb.from(p)
		inA, inB := keyIndex(a, ma), keyIndex(b, mb)
		for x := range ma.n {
			m := ma.at(x)
			if n, ok := inB[a.Key(m)]; ok {
				c.member(m, n)
			} else {
				c.change(pathStep{a, m, -1}, Change{BytesBefore: len(a.Raw(m)), na: m, nb: capture.NoNode})
			}
		}
		for y := range mb.n {
			n := mb.at(y)
			if _, ok := inA[b.Key(n)]; !ok {
				c.change(pathStep{b, n, -1}, Change{BytesAfter: len(b.Raw(n)), na: capture.NoNode, nb: n})
			}
		}
		return
	case ka == capture.Array && kb == capture.Array:
		ea, eb, al := c.pair.alignArrays(i, j)
		if !al.ok {
			c.out = append(c.out, Change{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)),
				Unaligned: true, na: i, nb: j})
			return
		}
		al.blocks(ea.n, eb.n, func(eq bool, x0, x1, y0, y1 int) {
			if eq {
				return
			}
			p := min(x1-x0, y1-y0)
			for k := range p {
				c.path = append(c.path, pathStep{b, eb.at(y0 + k), int32(y0 + k)})
				c.walk(ea.at(x0+k), eb.at(y0+k))
				c.path = c.path[:len(c.path)-1]
			}
			// A pointer names a value in either document: an element
			// removed at an index also names the element b has there.
			at := func(l elemList, k int) capture.Node {
				if k < l.n {
					return l.at(k)
				}
				return capture.NoNode
			}
			for x := x0 + p; x < x1; x++ {
				e := ea.at(x)
				c.change(pathStep{a, e, int32(x)}, Change{BytesBefore: len(a.Raw(e)), na: e, nb: at(eb, x)})
			}
			for y := y0 + p; y < y1; y++ {
				e := eb.at(y)
				c.change(pathStep{b, e, int32(y)}, Change{BytesAfter: len(b.Raw(e)), na: at(ea, y), nb: e})
			}
		})
		return
	}
	c.out = append(c.out, Change{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)), na: i, nb: j})
}

// member compares two members with the same key.
func (c *comparer) member(m capture.Node, n capture.Node) {
	c.path = append(c.path, pathStep{c.b.d, n, -1})
	c.walk(m, n)
	c.path = c.path[:len(c.path)-1]
}

// sameKey reports whether members i of a and j of b have the same key.
func sameKey(a *capture.Doc, i capture.Node, b *capture.Doc, j capture.Node) bool {
	ra, rb := a.RawKey(i), b.RawKey(j)
	if bytes.Equal(ra, rb) {
		return true
	}
	if bytes.IndexByte(ra, '\\') < 0 && bytes.IndexByte(rb, '\\') < 0 {
		return false
	}
	return a.Key(i) == b.Key(j)
}

// keyIndex maps the decoded keys of members to their nodes.
func keyIndex(d *capture.Doc, members elemList) map[string]capture.Node {
	m := make(map[string]capture.Node, members.n)
	for x := range members.n {
		k := members.at(x)
		m[d.Key(k)] = k
	}
	return m
}

// longerFence returns fence, made longer than any run of backticks in the
// texts.
func longerFence(fence string, texts ...[]byte) string {
	longest := len(fence) - 1
	for _, t := range texts {
		run := 0
		for _, c := range t {
			if c == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", longest+1)
}

// pointerToken spells a key as a JSON Pointer token.
func pointerToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// unifiedDiff returns the unified diff of a and b with ctx lines of
// context, labelled with the two names ("" when the texts are equal); a
// last line without a newline is marked as patch marks it.
func unifiedDiff(nameA, nameB, a, b string, ctx int) string {
	if a == b {
		return ""
	}
	return unified.Diff(nameA, nameB, a, b, ctx)
}

// countingWriter counts what it writes and keeps the first error.
type countingWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countingWriter) WriteString(s string) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.WriteString(s)
	c.n += int64(n)
	c.err = err
	return n, err
}

// fail keeps err unless an error is already kept.
func (c *countingWriter) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

func (c *countingWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	return c.w.Flush()
}

// smallDiff is the size of two pretty texts up to which the unified diff
// of --format json is that of the diff library over them; larger ones
// (long bodies, or deep ones, whose lines are mostly indentation) are
// diffed value by value (see differ), in linear time and memory.
const smallDiff = 1 << 20

// prettySize bounds the length of pretty(d.Src): the body and, per value,
// its indentation and punctuation.
func prettySize(d *capture.Doc) int {
	size := len(d.Src)
	// ends holds the ends of the containers around the current node.
	var ends []capture.Node
	for i := range capture.Node(len(d.Nodes)) {
		for len(ends) > 0 && i >= ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
		}
		size += 2*len(ends) + 4
		if k := d.Nodes[i].Kind; k == capture.Array || k == capture.Object {
			ends = append(ends, d.Nodes[i].Skip)
		}
		if size > smallDiff {
			return size
		}
	}
	return size
}

// writeDiffJSON writes {"changes":[…],"unified":"…"} and the tail member,
// indented two spaces, the changes and the diff streamed.
func writeDiffJSON(out *countingWriter, pairs []Pair, ctx int, tail string) {
	io.WriteString(out, "{\n  \"changes\": [")
	n := 0
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for _, p := range pairs {
		for _, ch := range p.Changes {
			buf.Reset()
			out.fail(enc.Encode(ch))
			if n > 0 {
				io.WriteString(out, ",")
			}
			io.WriteString(out, "\n    ")
			out.Write(escape.JSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
			n++
		}
	}
	if n > 0 {
		io.WriteString(out, "\n  ")
	}
	io.WriteString(out, "],\n  \"unified\": \"")
	js := jsonStringWriter{out}
	for _, p := range pairs {
		if prettySize(p.A.Doc)+prettySize(p.B.Doc) <= smallDiff {
			js.WriteString(unifiedDiff(p.NameA, p.NameB, pretty(p.A.Body), pretty(p.B.Body), ctx))
			continue
		}
		spans := layoutDiff(p.docs, prettyView, nil, ctx, nil)
		out.fail(writeDiff(js, p.docs, prettyView, p.NameA, p.NameB, spans, false))
	}
	if tail == "" {
		io.WriteString(out, "\"\n}\n")
		return
	}
	io.WriteString(out, "\",\n  "+string(escape.JSON([]byte(tail)))+"\n}\n")
}

// jsonStringWriter writes text escaped as in a JSON string, as
// encoding/json escapes it without HTML escapes and then escape.JSON.
// Each write must end on a character boundary.
type jsonStringWriter struct{ w io.Writer }

func (j jsonStringWriter) Write(p []byte) (int, error) {
	_, err := j.WriteString(string(p))
	return len(p), err
}

func (j jsonStringWriter) WriteString(s string) (int, error) {
	const hex = "0123456789abcdef"
	var buf []byte
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default: // the other C0 controls and DEL
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xF])
		case escape.JSONEscapes(r):
			buf = append(buf, s[start:i]...)
			buf = fmt.Appendf(buf, `\u%04x`, r)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	if buf == nil {
		return io.WriteString(j.w, s)
	}
	buf = append(buf, s[start:]...)
	_, err := j.w.Write(buf)
	return len(s), err
}
