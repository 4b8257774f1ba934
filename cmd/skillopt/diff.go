package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

type diffChange struct {
	Capture     string `json:"capture,omitempty"`
	Pointer     string `json:"pointer"`
	BytesBefore int    `json:"bytes_before"`
	BytesAfter  int    `json:"bytes_after"`
	Rule        string `json:"rule,omitempty"`
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
					name := a.Name + " → " + b.Name
					changes := compareDocs(a.Doc, b.Doc)
					for k := range changes {
						changes[k].Capture = name
					}
					pairs = append(pairs, diffPair{name: name, a: a, b: b, nameA: a.Name, nameB: b.Name, changes: changes})
				}
			}
			ctx := max(c.Int("context"), 0)
			differ := false
			changes := []diffChange{}
			for _, p := range pairs {
				differ = differ || !bytes.Equal(p.a.Body, p.b.Body)
				changes = append(changes, p.changes...)
			}
			switch e.format {
			case "json":
				var unified strings.Builder
				for _, p := range pairs {
					unified.WriteString(unifiedDiff(p.nameA, p.nameB, pretty(p.a.Body), pretty(p.b.Body), ctx))
				}
				err = writeJSON(e, struct {
					Changes []diffChange `json:"changes"`
					Unified string       `json:"unified"`
				}{changes, unified.String()})
			case "markdown":
				var b strings.Builder
				if !c.Bool("stat") {
					for _, p := range pairs {
						writeHunks(&b, p.nameA, p.nameB, reviewDiff(p.a.Doc, p.b.Doc, p.changes, ctx), false)
					}
					if b.Len() > 0 {
						fence := codeFence(b.String())
						fmt.Fprintf(e.stdout, "%sdiff\n%s%s\n\n", fence, b.String(), fence)
					}
				}
				writeChangeTable(e.stdout, pairs)
			default:
				var b strings.Builder
				if c.Bool("stat") {
					writeStat(&b, pairs)
				} else {
					for i, p := range pairs {
						if i > 0 && b.Len() > 0 {
							b.WriteByte('\n')
						}
						writeHunks(&b, p.nameA, p.nameB, reviewDiff(p.a.Doc, p.b.Doc, p.changes, ctx), e.color)
					}
					if b.Len() > 0 {
						b.WriteByte('\n')
					}
					writeSummary(&b, pairs)
				}
				_, err = io.WriteString(e.stdout, b.String())
			}
			if err != nil {
				return err
			}
			if differ && c.Bool("exit-code") {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// diffPair is one capture and what it is compared with: its transform, or
// the capture in the same place of the second file.
type diffPair struct {
	name         string
	a, b         *capture.Capture
	nameA, nameB string
	changes      []diffChange
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
	return s + fmt.Sprintf(" (%s → %s B)", measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter))
}

// writeSummary writes a line per change, naming its rule, and a total per
// pair: the body before and after.
func writeSummary(b *strings.Builder, pairs []diffPair) {
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
func writeStat(b *strings.Builder, pairs []diffPair) {
	const barWidth = 24
	var all []diffChange
	for _, p := range pairs {
		all = append(all, p.changes...)
	}
	if len(all) == 0 {
		b.WriteString("no changes\n")
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
		b.WriteString(" " + strings.Repeat("─", 3) + "\n")
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
	b.WriteString(" " + strings.Repeat("─", 3) + "\n")
	before, after := 0, 0
	for _, p := range pairs {
		before += len(p.a.Body)
		after += len(p.b.Body)
	}
	fmt.Fprintf(b, " %s: %s → %s B (%s, %s)\n", counted(len(all), "change"), measure.Thousands(before), measure.Thousands(after),
		signedBytes(after-before), signedPct(after-before, before))
}

// signedPct is part of whole as a signed percentage, "−65.1 %".
func signedPct(part, whole int) string {
	if whole == 0 {
		return "±0.0 %"
	}
	p := float64(part) * 100 / float64(whole)
	switch s := fmt.Sprintf("%.1f %%", math.Abs(p)); {
	case s == "0.0 %":
		return "±" + s
	case p < 0:
		return "−" + s
	default:
		return "+" + s
	}
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

// ptrText shows a JSON Pointer on one line of output.
func ptrText(p string) string {
	if p == "" {
		return "(root)"
	}
	return escape.Text(p)
}

// codeFence is a fence for a Markdown code block holding text: longer
// than any run of backticks in it, so that no line of the text can close
// the block and let what follows render as Markdown or HTML.
func codeFence(text string) string {
	run, longest := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
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

// compareDocs lists the deepest values that differ between two documents,
// in document order: objects are compared member by member; arrays
// element by element, the elements between their equal first and last ones
// pairwise and the rest as removed or added (so a message appended to the
// history is one addition at its index); anything else that differs is one
// change.
func compareDocs(a, b *capture.Doc) []diffChange {
	var out []diffChange
	var walk func(i, j int, ptr string)
	walk = func(i, j int, ptr string) {
		ra, rb := a.Raw(i), b.Raw(j)
		if bytes.Equal(ra, rb) {
			return
		}
		ka, kb := a.Kind(i), b.Kind(j)
		switch {
		case ka == capture.Object && kb == capture.Object:
			keys := map[string]bool{}
			var order []string
			for m := range a.Children(i) {
				k := a.Key(m)
				keys[k] = true
				order = append(order, k)
			}
			for m := range b.Children(j) {
				if k := b.Key(m); !keys[k] {
					order = append(order, k)
				}
			}
			for _, k := range order {
				ci, cj := a.Get(i, k), b.Get(j, k)
				p := ptr + "/" + pointerToken(k)
				switch {
				case ci < 0:
					out = append(out, diffChange{Pointer: p, BytesAfter: len(b.Raw(cj))})
				case cj < 0:
					out = append(out, diffChange{Pointer: p, BytesBefore: len(a.Raw(ci))})
				default:
					walk(ci, cj, p)
				}
			}
			return
		case ka == capture.Array && kb == capture.Array:
			ea, eb := collect(a, i), collect(b, j)
			pre, suf, pair := alignElements(a, b, ea, eb)
			for n := pre; n < pre+pair; n++ {
				walk(ea[n], eb[n], ptr+"/"+strconv.Itoa(n))
			}
			for n := pre + pair; n < len(ea)-suf; n++ {
				out = append(out, diffChange{Pointer: ptr + "/" + strconv.Itoa(n), BytesBefore: len(a.Raw(ea[n]))})
			}
			for n := pre + pair; n < len(eb)-suf; n++ {
				out = append(out, diffChange{Pointer: ptr + "/" + strconv.Itoa(n), BytesAfter: len(b.Raw(eb[n]))})
			}
			return
		}
		out = append(out, diffChange{Pointer: ptr, BytesBefore: len(ra), BytesAfter: len(rb)})
	}
	walk(0, 0, "")
	return out
}

// pointerToken escapes a member name as a JSON Pointer reference token.
func pointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

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

// alignElements matches two arrays' elements (their nodes ea and eb): pre
// equal ones at the start, suf equal ones at the end, and pair compared
// pairwise between them; the rest of the longer array is inserted or
// deleted.
func alignElements(a, b *capture.Doc, ea, eb []int) (pre, suf, pair int) {
	for pre < len(ea) && pre < len(eb) && bytes.Equal(a.Raw(ea[pre]), b.Raw(eb[pre])) {
		pre++
	}
	for suf < len(ea)-pre && suf < len(eb)-pre && bytes.Equal(a.Raw(ea[len(ea)-1-suf]), b.Raw(eb[len(eb)-1-suf])) {
		suf++
	}
	return pre, suf, min(len(ea), len(eb)) - pre - suf
}
