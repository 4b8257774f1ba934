package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/gctune"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

type diffChange struct {
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
	na, nb int32
	known  bool
}

func diffCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "show what the pipeline changes in a capture, or how two captures differ",
		ArgsUsage: "CAPTURE | A B",
		Description: "With one CAPTURE, diffs it against its transform; with two, diffs A against B.\n\n" +
			"The text diff is a unified diff of the bodies indented as pretty JSON (keys, numbers\n" +
			"and short strings as captured). A string that holds a line break or does not fit a\n" +
			"line is shown as a block of its decoded lines under `\"key\": |`, lines too long\n" +
			"for " + strconv.Itoa(viewWidth) + " columns continuing on lines that start with " + strings.TrimSpace(wrapMark) + ", so a rewritten prompt\n" +
			"or tool result diffs line by line. Each hunk header names the JSON Pointers it changes\n" +
			"and the rule that changed each; a summary line per change follows the diff:\n" +
			"  SO101 catalog.compact-index: /system/0/text −6,330 B (9,768 → 3,438 B)\n" +
			"An element a rule appends is named by the index it gets (/tools/4). With --color\n" +
			"(auto on a terminal, or always) the words that differ between a removed line and the\n" +
			"added line facing it are highlighted.\n\n" +
			"Arrays and the lines of strings are aligned in time and memory linear in their\n" +
			"length: elements and lines are matched across insertions and removals, elements\n" +
			"changed where they stand are paired. Two long arrays, objects or texts with less\n" +
			"than half in common are too different to align: the hunk says so on a line that\n" +
			"starts with \\ and shows them replaced; such an array or object is one change,\n" +
			"marked \"too different to align, compared whole\" (\"unaligned\": true in JSON).\n\n" +
			"--stat prints only the changes per pointer and per rule. --exit-code exits 1 when the\n" +
			"bodies differ, as git diff --exit-code does.\n\n" +
			"Formats: text, markdown, json ({\"changes\":[…],\"unified\":\"…\"}, where unified is\n" +
			"the diff of the pretty-printed bodies, escapes as captured, for patch and scripts).\n\n" +
			"Examples:\n" +
			"  skillopt diff --rules SO101 capture.json\n" +
			"  skillopt diff --stat captures/turn-3.json\n" +
			"  skillopt diff --exit-code turn1.json turn2.json",
		Flags: []cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag(),
			&cli.IntFlag{Name: "context", Aliases: []string{"U"}, Value: 3, Usage: "lines of context in the unified diff"},
			&cli.BoolFlag{Name: "stat", Usage: "print only the changes per JSON Pointer and per rule"},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when the bodies differ"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json", "markdown"); err != nil {
				return err
			}
			if c.NArg() < 1 || c.NArg() > 2 {
				return argErr(c, "want CAPTURE or A B, got %d arguments", c.NArg())
			}
			pipeline, err := e.pipeline(c)
			if err != nil {
				return err
			}
			files, err := e.readCaptures(c)
			if err != nil {
				return err
			}
			total := 0
			for _, f := range files {
				total += len(f.Data)
			}
			gctune.Hold(total)
			if len(files) != c.NArg() {
				if !e.errored {
					// A folder argument: diff takes files.
					return argErr(c, "want CAPTURE or A B as files, got %d files from %d arguments", len(files), c.NArg())
				}
				return e.finish(nil)
			}
			var pairs []diffPair
			if c.NArg() == 1 {
				results, err := e.transformFile(files[0], pipeline, e.readOnlyEnv(pipeline))
				if err != nil {
					return err
				}
				for _, r := range results {
					pairs = append(pairs, diffPair{name: r.Original.Name, a: r.Original, b: r.Final, nameA: r.Original.Name + " (original)", nameB: r.Original.Name + " (transformed)",
						changes: ruleChanges(r.Original.Name, r.Changes())})
				}
			} else {
				fa, fb := files[0], files[1]
				if len(fa.Captures) != len(fb.Captures) {
					return usageErr("%s holds %d captures but %s holds %d", fa.Name, len(fa.Captures), fb.Name, len(fb.Captures))
				}
				for i := range fa.Captures {
					a, b := fa.Captures[i], fb.Captures[i]
					pairs = append(pairs, diffPair{name: a.Name + " → " + b.Name, a: a, b: b, nameA: a.Name, nameB: b.Name})
				}
			}
			differ := false
			for _, p := range pairs {
				differ = differ || !bytes.Equal(p.a.Body, p.b.Body)
			}
			if err := e.writeDiffs(pairs, max(c.Int("context"), 0), c.Bool("stat")); err != nil {
				return err
			}
			if differ && c.Bool("exit-code") {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// writeDiffs compares the pairs and writes their diff in e's format (or
// with stat, the changes per pointer), with ctx lines of context.
func (e *env) writeDiffs(pairs []diffPair, ctx int, stat bool) error {
	for k := range pairs {
		p := &pairs[k]
		p.docs = newPair(p.a.Doc, p.b.Doc)
		if p.changes == nil {
			p.changes = compareHashed(p.docs)
			for k := range p.changes {
				p.changes[k].Capture = p.name
			}
		}
	}
	out := &countingWriter{w: bufio.NewWriterSize(e.stdout, 64<<10)}
	switch e.format {
	case "json":
		writeDiffJSON(out, e, pairs, ctx)
	case "markdown":
		if !stat {
			spans := make([][]hunkSpan, len(pairs))
			some := false
			for k, p := range pairs {
				spans[k] = layoutDiff(p.docs, reviewView, p.changes, ctx)
				some = some || len(spans[k]) > 0
			}
			if some {
				// Longer than any run of backticks the bodies hold, so
				// that no line of the diff closes the block.
				fence := "```"
				for _, p := range pairs {
					fence = longerFence(fence, p.a.Body, p.b.Body, []byte(p.nameA), []byte(p.nameB))
				}
				io.WriteString(out, fence+"diff\n")
				for k, p := range pairs {
					out.fail(writeDiff(out, p.docs, reviewView, p.nameA, p.nameB, spans[k], false))
				}
				io.WriteString(out, fence+"\n\n")
			}
		}
		writeChangeTable(out, pairs)
	default:
		if stat {
			writeStat(out, pairs)
		} else {
			for i, p := range pairs {
				spans := layoutDiff(p.docs, reviewView, p.changes, ctx)
				if i > 0 && out.n > 0 {
					io.WriteString(out, "\n")
				}
				out.fail(writeDiff(out, p.docs, reviewView, p.nameA, p.nameB, spans, e.color))
			}
			if out.n > 0 {
				io.WriteString(out, "\n")
			}
			writeSummary(out, pairs)
		}
	}
	return out.flush()
}

// diffPair is one capture and what it is compared with: its transform, or
// the capture in the same place of the second file.
type diffPair struct {
	name         string
	a, b         *capture.Capture
	nameA, nameB string
	// changes are the rules' changes, or nil until the two are compared.
	changes []diffChange
	docs    *docPair
}

// ruleChanges converts the pipeline's changes of one capture.
func ruleChanges(name string, chs []rules.Change) []diffChange {
	out := make([]diffChange, 0, len(chs))
	for _, ch := range chs {
		out = append(out, diffChange{Capture: name, Pointer: ch.Pointer, BytesBefore: ch.BytesBefore, BytesAfter: ch.BytesAfter, Rule: ch.Rule})
	}
	return out
}

// ruleLabel is a rule's ID and name, "SO101 catalog.compact-index".
func ruleLabel(id string) string {
	if r := ruleset.Registry().Lookup(id); r != nil {
		return r.ID + " " + r.Name
	}
	return id
}

// signedBytes renders a byte delta with its sign, "−6,330 B", "+476 B".
func signedBytes(n int) string {
	switch {
	case n < 0:
		return "−" + measure.Thousands(-n) + " B"
	case n > 0:
		return "+" + measure.Thousands(n) + " B"
	}
	return "±0 B"
}

// changeText describes one change: "/system/0/text −6,330 B (9,768 → 3,438 B)".
func changeText(ch diffChange) string {
	s := ptrText(ch.Pointer) + " " + signedBytes(ch.BytesAfter-ch.BytesBefore)
	switch {
	case ch.BytesBefore == 0:
		return s + " (added)"
	case ch.BytesAfter == 0:
		return s + " (removed)"
	}
	s += fmt.Sprintf(" (%s → %s B", measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter))
	if ch.Unaligned {
		s += "; too different to align, compared whole"
	}
	return s + ")"
}

// writeSummary writes a line per change, naming its rule, and a total per
// pair: the body before and after.
func writeSummary(b io.Writer, pairs []diffPair) {
	many := len(pairs) > 1
	total := 0
	for _, p := range pairs {
		prefix := ""
		if many {
			prefix = escape.Text(p.name) + ": "
		}
		if len(p.changes) == 0 {
			if bytes.Equal(p.a.Body, p.b.Body) {
				fmt.Fprintf(b, "%sno changes\n", prefix)
			} else {
				fmt.Fprintf(b, "%sno changes but white space: %s → %s B\n", prefix, measure.Thousands(len(p.a.Body)), measure.Thousands(len(p.b.Body)))
			}
			continue
		}
		for _, ch := range p.changes {
			rule := ""
			if ch.Rule != "" {
				rule = ruleLabel(ch.Rule) + ": "
			}
			fmt.Fprintf(b, "%s%s%s\n", prefix, rule, changeText(ch))
		}
		fmt.Fprintf(b, "%s%s: %s → %s B (%s)\n", prefix, counted(len(p.changes), "change"),
			measure.Thousands(len(p.a.Body)), measure.Thousands(len(p.b.Body)), signedBytes(len(p.b.Body)-len(p.a.Body)))
		total += len(p.changes)
	}
	if many {
		before, after := 0, 0
		for _, p := range pairs {
			before += len(p.a.Body)
			after += len(p.b.Body)
		}
		fmt.Fprintf(b, "%d captures, %s: %s → %s B (%s)\n", len(pairs), counted(total, "change"), measure.Thousands(before), measure.Thousands(after), signedBytes(after-before))
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
func writeStat(b io.Writer, pairs []diffPair) {
	const barWidth = 24
	var all []diffChange
	for _, p := range pairs {
		all = append(all, p.changes...)
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
	cells := func(ch diffChange) [3]string {
		return [3]string{measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter), signedBytes(ch.BytesAfter - ch.BytesBefore)}
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
			wl = max(wl, utf8.RuneCountInString(ruleLabel(r.id)))
			wc = max(wc, len(counted(r.count, "change")))
			wd = max(wd, utf8.RuneCountInString(signedBytes(r.delta)))
		}
		for _, r := range rs {
			fmt.Fprintf(b, " %s  %s  %s\n", pad(ruleLabel(r.id), wl), pad(counted(r.count, "change"), wc), lpad(signedBytes(r.delta), wd))
		}
	}
	io.WriteString(b, " "+strings.Repeat("─", 3)+"\n")
	before, after := 0, 0
	for _, p := range pairs {
		before += len(p.a.Body)
		after += len(p.b.Body)
	}
	fmt.Fprintf(b, " %s: %s → %s B (%s, %s)\n", counted(len(all), "change"), measure.Thousands(before), measure.Thousands(after),
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
func writeChangeTable(w io.Writer, pairs []diffPair) {
	var all []diffChange
	for _, p := range pairs {
		all = append(all, p.changes...)
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
			rule = ruleLabel(ch.Rule)
		}
		fmt.Fprintf(w, "%s | %s | %s | %s | %s |\n", rule, escape.MarkdownCode(ptrText(ch.Pointer)), measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter), signedBytes(ch.BytesAfter-ch.BytesBefore))
	}
	before, after := 0, 0
	for _, p := range pairs {
		before += len(p.a.Body)
		after += len(p.b.Body)
	}
	fmt.Fprintf(w, "\n%s: %s → %s B (%s)\n", counted(len(all), "change"), measure.Thousands(before), measure.Thousands(after), signedBytes(after-before))
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
func compareHashed(p *docPair) []diffChange {
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
	out  []diffChange
}

// pathStep is one step of a JSON Pointer: the member node (of doc) whose key
// it names, or an array index.
type pathStep struct {
	doc   *capture.Doc
	node  int32
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
			b.WriteString(pointerToken(s.doc.Key(int(s.node))))
		}
	}
	return b.String()
}

func (c *comparer) change(step pathStep, ch diffChange) {
	c.path = append(c.path, step)
	ch.Pointer = pointerOf(c.path)
	c.path = c.path[:len(c.path)-1]
	c.out = append(c.out, ch)
}

func (c *comparer) walk(i, j int) {
	a, b := c.a.d, c.b.d
	if equalNodes(c.a, c.b, i, j) {
		return
	}
	ka, kb := a.Kind(i), b.Kind(j)
	switch {
	case ka == capture.Object && kb == capture.Object:
		if !c.pair.alignObjects(i, j) {
			c.out = append(c.out, diffChange{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)),
				Unaligned: true, na: int32(i), nb: int32(j)})
			return
		}
		ma, mb := elements(a, i), elements(b, j)
		// Members in the same order are paired in place; the rest by key.
		p := 0
		for p < ma.n && p < mb.n && sameKey(a, int(ma.at(p)), b, int(mb.at(p))) {
			c.member(int(ma.at(p)), int(mb.at(p)))
			p++
		}
		ma, mb = ma.from(p), mb.from(p)
		inA, inB := keyIndex(a, ma), keyIndex(b, mb)
		for x := range ma.n {
			m := ma.at(x)
			if n, ok := inB[a.Key(int(m))]; ok {
				c.member(int(m), int(n))
			} else {
				c.change(pathStep{a, m, -1}, diffChange{BytesBefore: len(a.Raw(int(m))), na: m, nb: -1})
			}
		}
		for y := range mb.n {
			n := mb.at(y)
			if _, ok := inA[b.Key(int(n))]; !ok {
				c.change(pathStep{b, n, -1}, diffChange{BytesAfter: len(b.Raw(int(n))), na: -1, nb: n})
			}
		}
		return
	case ka == capture.Array && kb == capture.Array:
		ea, eb, al := c.pair.alignArrays(i, j)
		if !al.ok {
			c.out = append(c.out, diffChange{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)),
				Unaligned: true, na: int32(i), nb: int32(j)})
			return
		}
		al.blocks(ea.n, eb.n, func(eq bool, x0, x1, y0, y1 int) {
			if eq {
				return
			}
			p := min(x1-x0, y1-y0)
			for k := range p {
				c.path = append(c.path, pathStep{b, eb.at(y0 + k), int32(y0 + k)})
				c.walk(int(ea.at(x0+k)), int(eb.at(y0+k)))
				c.path = c.path[:len(c.path)-1]
			}
			// A pointer names a value in either document: an element
			// removed at an index also names the element b has there.
			at := func(l elemList, k int) int32 {
				if k < l.n {
					return l.at(k)
				}
				return -1
			}
			for x := x0 + p; x < x1; x++ {
				e := ea.at(x)
				c.change(pathStep{a, e, int32(x)}, diffChange{BytesBefore: len(a.Raw(int(e))), na: e, nb: at(eb, x)})
			}
			for y := y0 + p; y < y1; y++ {
				e := eb.at(y)
				c.change(pathStep{b, e, int32(y)}, diffChange{BytesAfter: len(b.Raw(int(e))), na: at(ea, y), nb: e})
			}
		})
		return
	}
	c.out = append(c.out, diffChange{Pointer: pointerOf(c.path), BytesBefore: len(a.Raw(i)), BytesAfter: len(b.Raw(j)), na: int32(i), nb: int32(j)})
}

// member compares two members with the same key.
func (c *comparer) member(m, n int) {
	c.path = append(c.path, pathStep{c.b.d, int32(n), -1})
	c.walk(m, n)
	c.path = c.path[:len(c.path)-1]
}

// sameKey reports whether members i of a and j of b have the same key.
func sameKey(a *capture.Doc, i int, b *capture.Doc, j int) bool {
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
func keyIndex(d *capture.Doc, members elemList) map[string]int32 {
	m := make(map[string]int32, members.n)
	for x := range members.n {
		k := members.at(x)
		m[d.Key(int(k))] = k
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
	out, err := udiff.ToUnified(nameA, nameB, a, udiff.Lines(a, b), ctx)
	if err != nil {
		// The edits come from the same texts; this cannot happen.
		panic(err)
	}
	return out
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
	var ends []int32
	for i := range d.Nodes {
		for len(ends) > 0 && int32(i) >= ends[len(ends)-1] {
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

// writeDiffJSON writes {"changes":[…],"unified":"…","config":…} as
// writeJSON would, the changes and the diff streamed.
func writeDiffJSON(out *countingWriter, e *env, pairs []diffPair, ctx int) {
	io.WriteString(out, "{\n  \"changes\": [")
	n := 0
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for _, p := range pairs {
		for _, ch := range p.changes {
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
		if prettySize(p.a.Doc)+prettySize(p.b.Doc) <= smallDiff {
			js.WriteString(unifiedDiff(p.nameA, p.nameB, pretty(p.a.Body), pretty(p.b.Body), ctx))
			continue
		}
		spans := layoutDiff(p.docs, prettyView, nil, ctx)
		out.fail(writeDiff(js, p.docs, prettyView, p.nameA, p.nameB, spans, false))
	}
	io.WriteString(out, "\",\n  "+string(escape.JSON([]byte(e.configField())))+"\n}\n")
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
