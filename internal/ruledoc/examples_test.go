package ruledoc_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/reviewdiff"
	"github.com/skillopt/skillopt/internal/ruledoc"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

// caseRoot holds the test cases of every rule, testdata/rules/ID/CASE.
var caseRoot = filepath.Join("..", "..", "testdata", "rules")

// The bounds of an example: it shows the rule at work, not the case whole.
const (
	maxLines     = 18  // lines of an excerpt or of an output
	maxDiffLines = 24  // lines of a diff
	maxLineLen   = 100 // characters of one line
	maxStrLen    = 60  // characters of a JSON string in an excerpt
	maxMembers   = 10  // members or elements of a container in an excerpt
	excerptSpan  = 3   // lines of a skill file shown before and after a finding
)

// exampleOf builds the example of r from its first case (in name order)
// where it fires; nil when it has none.
func exampleOf(r *rules.Rule) (*ruledoc.Example, error) {
	dirs, _ := filepath.Glob(filepath.Join(caseRoot, r.ID, "*"))
	slices.Sort(dirs)
	if r.Kind == rules.Lint {
		// Trees whose files are written as they read first: a directive
		// (crlf, mkdir, …) makes the files differ from the archive's text.
		slices.SortStableFunc(dirs, func(a, b string) int { return boolInt(hasDirectives(a)) - boolInt(hasDirectives(b)) })
	}
	for _, dir := range dirs {
		var e *ruledoc.Example
		var err error
		switch {
		case r.Kind == rules.Lint:
			if strings.HasPrefix(filepath.Base(dir), "valid") {
				continue
			}
			e, err = lintExample(r, dir)
		case r.Kind == rules.Transform:
			e, err = transformExample(r, dir)
		case r.Kind == rules.Check:
			e, err = checkExample(r, dir)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if e != nil {
			e.Case = filepath.ToSlash(strings.TrimPrefix(dir, filepath.Join("..", "..")+string(filepath.Separator)))
			return e, nil
		}
	}
	return nil, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasDirectives reports whether a lint case's tree has directives other
// than the paths it lints.
func hasDirectives(dir string) bool {
	ar, err := txtar.ParseFile(filepath.Join(dir, "tree.txtar"))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[0] != "args" && f[0] != "ambient" {
			return true
		}
	}
	return false
}

// inputOf is the capture file of a case, "" when it has none.
func inputOf(dir string) string {
	for _, n := range []string{"input.json", "input.jsonl", "input.har"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// diagLine is a diagnostic of want.txt of a capture case:
// "CAPTURE: ID SEVERITY POINTER: MESSAGE".
var diagLine = regexp.MustCompile(`^(\S+): (\S+) (error|warning|info) (.*?): (.*)$`)

// checkExample: the value the first diagnostic of r points at, and every
// diagnostic of r on that capture.
func checkExample(r *rules.Rule, dir string) (*ruledoc.Example, error) {
	input := inputOf(dir)
	if input == "" {
		return nil, nil
	}
	want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
	if err != nil {
		return nil, err
	}
	var name, ptr string
	var out []string
	for _, l := range strings.Split(string(want), "\n") {
		m := diagLine.FindStringSubmatch(l)
		if m == nil || m[2] != r.ID || name != "" && m[1] != name {
			continue
		}
		if name == "" {
			name, ptr = m[1], m[4]
		}
		out = append(out, fmt.Sprintf("%s %s: %s", m[3], orRoot(m[4]), m[5]))
	}
	if name == "" {
		return nil, nil
	}
	c, err := captureNamed(input, name)
	if err != nil {
		return nil, err
	}
	node, err := c.Doc.Lookup(ptr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	shown, focus := node, capture.NoNode
	if k := c.Doc.Kind(node); k != capture.Object && k != capture.Array && ptr != "" {
		shown, focus = c.Doc.ParentOf(node), node
	}
	return &ruledoc.Example{
		Where:  fmt.Sprintf("%s at %s", name, orRoot(c.Doc.Pointer(shown))),
		Input:  excerpt(c.Doc, shown, focus),
		Lang:   "json",
		Result: "reports",
		Output: cut(strings.Join(out, "\n")),
	}, nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the top level"
	}
	return ptr
}

// captureNamed reads the capture of a case file that want.txt calls name
// (FILE or FILE#N).
func captureNamed(path, name string) (*capture.Capture, error) {
	f, err := capture.ReadFile(path, nil, capture.Options{})
	if err != nil {
		return nil, err
	}
	for _, c := range f.Captures {
		if filepath.Base(c.Name) == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no capture %s in %s", name, path)
}

// transformExample: the review diff of the capture before and after the
// rule's own step (the rules it requires run first), on the first case
// where the step is applied.
func transformExample(r *rules.Rule, dir string) (*ruledoc.Example, error) {
	input := inputOf(dir)
	if input == "" {
		return nil, nil
	}
	want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(want, []byte(" "+r.ID+" applied: ")) {
		return nil, nil
	}
	cfg := config.Default()
	if data, err := os.ReadFile(filepath.Join(dir, "skillopt.toml")); err == nil {
		if err := config.DecodeWith("skillopt.toml", data, cfg, ruleset.Registry().Binding()); err != nil {
			return nil, err
		}
		cfg.Path = filepath.Join(dir, "skillopt.toml")
	}
	archive, err := os.MkdirTemp("", "ruledoc-archive-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(archive)
	cfg.Archive.Dir = archive
	f, err := capture.ReadFile(input, nil, capture.Options{})
	if err != nil {
		return nil, err
	}
	pipeline, err := ruleset.Registry().Resolve([]string{r.ID})
	if err != nil {
		return nil, err
	}
	env := ruleset.Env(cfg, pipeline)
	for _, c := range f.Captures {
		res, err := rules.Run(c, pipeline, env)
		if err != nil {
			return nil, err
		}
		before := res.Original
		for _, s := range res.Steps {
			if s.Rule == r && s.Applied {
				var b bytes.Buffer
				pair := reviewdiff.Pair{Name: filepath.Base(c.Name), A: before, B: s.After, NameA: "before", NameB: "after"}
				if err := reviewdiff.Write(&b, []reviewdiff.Pair{pair}, reviewdiff.Options{Format: "text", Context: 1}); err != nil {
					return nil, err
				}
				return &ruledoc.Example{
					Where:  filepath.Base(c.Name),
					Result: "changes it so",
					Output: cutTo(mainHunk(b.String()), maxDiffLines),
				}, nil
			}
			before = s.After
		}
	}
	return nil, fmt.Errorf("want.txt says %s applied, but its step is not applied now (go test ./internal/ruleset -update)", r.ID)
}

// mainHunk keeps, of a review diff, its header and the hunk that removes
// the most lines (else changes the most): the rule's main change rather
// than, say, a tool declaration it adds.
func mainHunk(diff string) string {
	var head, total []string
	var hunks [][]string
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	// The summary after the last hunk: a blank line, a line per changed
	// value, and the total, which is kept.
	if n := len(lines); n > 0 && summaryTotal.MatchString(lines[n-1]) {
		total = lines[n-1:]
		k := n - 1
		for k > 0 && lines[k-1] != "" {
			k--
		}
		lines = lines[:max(0, k-1)]
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "@@"):
			hunks = append(hunks, []string{l})
		case len(hunks) == 0:
			head = append(head, l)
		default:
			hunks[len(hunks)-1] = append(hunks[len(hunks)-1], l)
		}
	}
	if len(hunks) == 0 {
		return diff
	}
	score := func(h []string) (removed, changed int) {
		for _, l := range h[1:] {
			if strings.HasPrefix(l, "-") {
				removed++
			}
			if strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
				changed++
			}
		}
		return
	}
	best := 0
	for i, h := range hunks {
		r, c := score(h)
		br, bc := score(hunks[best])
		if r > br || r == br && c > bc {
			best = i
		}
	}
	out := append(head, shortRuns(hunks[best])...)
	if len(out) > maxDiffLines-2 {
		out = append(out[:maxDiffLines-3], "…")
	}
	if n := len(hunks) - 1; n == 1 {
		out = append(out, "… and 1 more hunk")
	} else if n > 1 {
		out = append(out, fmt.Sprintf("… and %d more hunks", n))
	}
	return strings.Join(append(out, total...), "\n") + "\n"
}

// maxRun is the longest run of removed, added or kept lines a diff of an
// example shows: the rest of the run is counted.
const maxRun = 6

// shortRuns shortens each run of lines with the same mark (-, + or space)
// to maxRun lines, so that a hunk shows both what went and what came.
func shortRuns(hunk []string) []string {
	var out []string
	for i := 0; i < len(hunk); {
		j := i + 1
		for j < len(hunk) && hunk[j] != "" && hunk[i] != "" && hunk[j][0] == hunk[i][0] && !strings.HasPrefix(hunk[j], "@@") {
			j++
		}
		run := hunk[i:j]
		if len(run) > maxRun && !strings.HasPrefix(run[0], "@@") {
			out = append(out, run[:maxRun-1]...)
			out = append(out, fmt.Sprintf("%c … %s", run[0][0], moreLines(len(run)-maxRun+1)))
		} else {
			out = append(out, run...)
		}
		i = j
	}
	return out
}

// summaryTotal is the last line of a review diff.
var summaryTotal = regexp.MustCompile(`^\d+ changes?: `)

// lintLine is a diagnostic of want.txt of a lint case:
// "FILE:LINE:COL: ID SEVERITY: MESSAGE".
var lintLine = regexp.MustCompile(`^(.*):(\d+):(\d+): (\S+) (error|warning|info): (.*)$`)

// lintExample: the lines of the skill file around the first finding of
// r, the findings of r, and what --fix changes when the case says.
func lintExample(r *rules.Rule, dir string) (*ruledoc.Example, error) {
	ar, err := txtar.ParseFile(filepath.Join(dir, "tree.txtar"))
	if err != nil {
		return nil, err
	}
	want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
	if err != nil {
		return nil, err
	}
	var file string
	var line int
	var out []string
	for _, l := range strings.Split(string(want), "\n") {
		m := lintLine.FindStringSubmatch(l)
		if m == nil || m[4] != r.ID {
			continue
		}
		if file == "" {
			file = m[1]
			fmt.Sscan(m[2], &line)
		}
		out = append(out, fmt.Sprintf("%s:%s:%s: %s: %s", m[1], m[2], m[3], m[5], m[6]))
	}
	if file == "" {
		return nil, nil
	}
	e := &ruledoc.Example{Result: "reports", Output: cut(strings.Join(out, "\n"))}
	var data []byte
	found := false
	for _, f := range ar.Files {
		if f.Name == file {
			data, found = f.Data, true
		}
	}
	if !found {
		// A finding on a folder or a path the tree makes (a link, a
		// missing file): the tree's files show the case.
		e.Where = "the tree"
		var names []string
		for _, f := range ar.Files {
			names = append(names, f.Name)
		}
		if len(names) == 0 {
			names = append(names, "(no files)")
		}
		if c := strings.TrimSpace(string(ar.Comment)); c != "" {
			names = append([]string{c, ""}, names...)
		}
		e.Input = cut(strings.Join(names, "\n"))
	} else {
		e.Where = file
		e.Lang = "markdown"
		e.Input = around(string(data), line)
		if l := len(strings.Split(string(data), "\n")); l > maxLines {
			e.Where = fmt.Sprintf("%s, lines around %d", file, line)
		}
	}
	if fixed, err := txtar.ParseFile(filepath.Join(dir, "fixed.txtar")); err == nil {
		for _, f := range fixed.Files {
			if f.Name != file || bytes.Equal(f.Data, data) {
				continue
			}
			d := unified.Diff(file, file+" (after lint --fix)", string(data), string(f.Data), 1)
			e.Result = "reports, and lint --fix changes it"
			e.Output += "\n\n" + cut(d)
		}
	}
	return e, nil
}

// around is the lines of text near line (1-based), at most maxLines.
func around(text string, line int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	from, to := max(0, line-1-excerptSpan), min(len(lines), line+excerptSpan)
	if len(lines) <= maxLines {
		from, to = 0, len(lines)
	}
	var b strings.Builder
	for _, l := range lines[from:to] {
		b.WriteString(clip(l) + "\n")
	}
	return b.String()
}

// cut bounds text to maxLines lines of maxLineLen characters.
func cut(text string) string { return cutTo(text, maxLines) }

func cutTo(text string, n int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == n {
			fmt.Fprintf(&b, "… (%s)\n", moreLines(len(lines)-i))
			break
		}
		b.WriteString(clip(l) + "\n")
	}
	return b.String()
}

func clip(l string) string {
	l = strings.TrimSuffix(l, "\r")
	if utf8.RuneCountInString(l) <= maxLineLen {
		return l
	}
	return string([]rune(l)[:maxLineLen-1]) + "…"
}

// excerpt writes the value of node shown as indented JSON, members in
// their order, with long strings shortened and containers below the
// first two levels, or beyond maxMembers, elided. focus, when not -1, is
// a child of shown that is always written.
func excerpt(d *capture.Doc, shown capture.Node, focus capture.Node) string {
	var b strings.Builder
	w := bufio.NewWriter(&b)
	writeValue(w, d, shown, focus, 0)
	w.WriteString("\n")
	w.Flush()
	return cut(b.String())
}

func writeValue(w *bufio.Writer, d *capture.Doc, i capture.Node, focus capture.Node, depth int) {
	switch d.Kind(i) {
	case capture.String:
		// As the input spells it, escapes included (a rule may be about
		// one), shortened before an escape it would cut.
		raw := []rune(string(d.Raw(i)))
		if len(raw) > maxStrLen {
			raw = raw[:maxStrLen-1]
			if k := lastIndex(raw, '\\'); k >= 0 && k >= len(raw)-6 {
				raw = raw[:k]
			}
			raw = append(raw, '…', '"')
		}
		w.WriteString(string(raw))
	case capture.Object, capture.Array:
		open, close := "[", "]"
		if d.Kind(i) == capture.Object {
			open, close = "{", "}"
		}
		n := d.Len(i)
		if n == 0 {
			w.WriteString(open + close)
			return
		}
		if depth >= 2 {
			w.WriteString(open + "…" + close)
			return
		}
		kids := slices.Collect(d.Children(i))
		fi := slices.Index(kids, focus)
		lo, hi := 0, min(n, maxMembers)
		if fi >= hi {
			lo, hi = max(0, fi-maxMembers/2), min(n, fi+maxMembers/2)
		}
		pad := strings.Repeat("  ", depth+1)
		w.WriteString(open + "\n")
		if lo > 0 {
			fmt.Fprintf(w, "%s… %d before\n", pad, lo)
		}
		for k := lo; k < hi; k++ {
			w.WriteString(pad)
			if d.Kind(i) == capture.Object {
				w.Write(quote(d.Key(kids[k])))
				w.WriteString(": ")
			}
			writeValue(w, d, kids[k], capture.NoNode, depth+1)
			if k < n-1 {
				w.WriteString(",")
			}
			w.WriteString("\n")
		}
		if hi < n {
			fmt.Fprintf(w, "%s… %d more\n", pad, n-hi)
		}
		w.WriteString(strings.Repeat("  ", depth) + close)
	default:
		w.Write(d.Raw(i))
	}
}

func lastIndex(rs []rune, r rune) int {
	for k := len(rs) - 1; k >= 0; k-- {
		if rs[k] == r {
			return k
		}
	}
	return -1
}

func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func moreLines(n int) string {
	if n == 1 {
		return "1 more line"
	}
	return fmt.Sprintf("%d more lines", n)
}
