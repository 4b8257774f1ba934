package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
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
		Description: "With one CAPTURE, diffs it against its transform; with two, diffs A against B. The\n" +
			"diff is a unified diff of the pretty-printed JSON bodies (key order, numbers and\n" +
			"escapes as captured), followed by a summary of bytes before and after per JSON Pointer.\n\n" +
			"Formats: text, json ({\"changes\":[…],\"unified\":\"…\"}), markdown.\n\n" +
			"Examples:\n" +
			"  skillopt diff --rules SO101 capture.json\n" +
			"  skillopt diff turn1.json turn2.json",
		Flags: []cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag(),
			&cli.IntFlag{Name: "context", Aliases: []string{"U"}, Value: 3, Usage: "lines of context in the unified diff"}},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json", "markdown"); err != nil {
				return err
			}
			if c.NArg() < 1 || c.NArg() > 2 {
				return usageErr("diff: want CAPTURE or A B, got %d arguments", c.NArg())
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
					return usageErr("diff: want CAPTURE or A B as files, got %d files from %d arguments", len(files), c.NArg())
				}
				return e.finish(nil)
			}
			type pair struct {
				name string
				a, b *capture.Capture
				rule []rules.Change
			}
			var pairs []pair
			if c.NArg() == 1 {
				results, err := e.transformFile(files[0], pipeline, e.readOnlyEnv(pipeline))
				if err != nil {
					return err
				}
				for _, r := range results {
					pairs = append(pairs, pair{r.Original.Name, r.Original, r.Final, r.Changes()})
				}
			} else {
				fa, fb := files[0], files[1]
				if len(fa.Captures) != len(fb.Captures) {
					return usageErr("diff: %s holds %d captures but %s holds %d", fa.Name, len(fa.Captures), fb.Name, len(fb.Captures))
				}
				for i := range fa.Captures {
					pairs = append(pairs, pair{fa.Captures[i].Name + " → " + fb.Captures[i].Name, fa.Captures[i], fb.Captures[i], nil})
				}
			}
			var unified strings.Builder
			changes := []diffChange{}
			for _, p := range pairs {
				ctx := max(c.Int("context"), 0)
				nameA, nameB := p.a.Name, p.b.Name
				if c.NArg() == 1 {
					nameA, nameB = p.a.Name+" (original)", p.a.Name+" (transformed)"
				}
				unified.WriteString(unifiedDiff(nameA, nameB, pretty(p.a.Body), pretty(p.b.Body), ctx))
				if p.rule != nil {
					for _, ch := range p.rule {
						changes = append(changes, diffChange{Capture: p.a.Name, Pointer: ch.Pointer, BytesBefore: ch.BytesBefore, BytesAfter: ch.BytesAfter, Rule: ch.Rule})
					}
				} else {
					for _, ch := range compareDocs(p.a.Doc, p.b.Doc) {
						ch.Capture = p.name
						changes = append(changes, ch)
					}
				}
			}
			switch e.format {
			case "json":
				return e.finish(writeJSON(e, struct {
					Changes []diffChange `json:"changes"`
					Unified string       `json:"unified"`
				}{changes, unified.String()}))
			case "markdown":
				fmt.Fprintf(e.stdout, "```diff\n%s```\n\n", unified.String())
				writeChanges(e, changes, true)
			default:
				e.stdout.Write([]byte(e.colorDiff(unified.String())))
				writeChanges(e, changes, false)
			}
			return e.finish(nil)
		},
	}
}

func writeChanges(e *env, changes []diffChange, md bool) {
	if len(changes) == 0 {
		fmt.Fprintln(e.stdout, "no changes")
		return
	}
	if md {
		fmt.Fprintf(e.stdout, "| pointer | before | after | change |\n| --- | ---: | ---: | ---: |\n")
	} else {
		fmt.Fprintln(e.stdout)
	}
	before, after := 0, 0
	for _, ch := range changes {
		before += ch.BytesBefore
		after += ch.BytesAfter
		delta := fmt.Sprintf("%+d", ch.BytesAfter-ch.BytesBefore)
		if md {
			fmt.Fprintf(e.stdout, "| `%s` | %s | %s | %s |\n", ch.Pointer, measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter), delta)
		} else {
			fmt.Fprintf(e.stdout, "%s %s: %s → %s bytes (%s)\n", ch.Capture, ptrText(ch.Pointer), measure.Thousands(ch.BytesBefore), measure.Thousands(ch.BytesAfter), delta)
		}
	}
	if !md {
		fmt.Fprintf(e.stdout, "%d change(s): %s → %s bytes\n", len(changes), measure.Thousands(before), measure.Thousands(after))
	}
}

func ptrText(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func (e *env) colorDiff(s string) string {
	if !e.color {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			lines[i] = e.paint(bold, strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "+"):
			lines[i] = e.paint(green, strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "-"):
			lines[i] = e.paint(red, strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "@@"):
			lines[i] = e.paint("36", strings.TrimSuffix(l, "\n")) + "\n"
		}
	}
	return strings.Join(lines, "")
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

// compareDocs lists the deepest values that differ between two documents:
// objects are compared member by member, arrays of equal length element by
// element; anything else that differs is one change.
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
				p := ptr + "/" + escape(k)
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
		case ka == capture.Array && kb == capture.Array && a.Len(i) == b.Len(j):
			n := 0
			cj := j + 1
			for ci := range a.Children(i) {
				walk(ci, cj, ptr+"/"+strconv.Itoa(n))
				cj = int(b.Nodes[cj].Skip)
				n++
			}
			return
		}
		out = append(out, diffChange{Pointer: ptr, BytesBefore: len(ra), BytesAfter: len(rb)})
	}
	walk(0, 0, "")
	sort.SliceStable(out, func(x, y int) bool { return out[x].Pointer < out[y].Pointer })
	return out
}

func escape(s string) string {
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
