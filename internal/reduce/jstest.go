package reduce

import (
	"fmt"
	"strings"
)

// JavaScript test output: TAP (node --test, tape, tap), node's spec
// reporter, and jest. Passing tests and their diagnostics are summarised;
// failing tests with their YAML diagnostics or failure blocks, and the
// summary counts, are kept.

// tapResult parses "ok 3 - name" / "not ok 3 - name" (any indentation).
func tapResult(l string) (ok, isResult bool) {
	t := strings.TrimLeft(l, " ")
	switch {
	case strings.HasPrefix(t, "not ok "):
		return false, len(t) > 7 && isDigit(t[7])
	case strings.HasPrefix(t, "ok "):
		return true, len(t) > 3 && isDigit(t[3])
	}
	return false, false
}

func specMark(l string) string {
	t := strings.TrimLeft(l, " ")
	for _, m := range []string{"✔ ", "✓ ", "√ ", "✖ ", "✕ ", "× ", "﹣ ", "○ ", "ℹ ", "▶ "} {
		if strings.HasPrefix(t, m) {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

func jestHeader(l string) bool {
	return (strings.HasPrefix(l, "PASS ") || strings.HasPrefix(l, "FAIL ")) && !strings.Contains(l, "\t")
}

func detectJSTest(d *doc) bool {
	if d.n() > 0 && strings.HasPrefix(d.line(0), "TAP version") {
		return true
	}
	n := count(d, func(i int) bool {
		l := d.line(i)
		_, r := tapResult(l)
		return r || specMark(l) != "" || jestHeader(l) || strings.HasPrefix(l, "Tests:") || strings.HasPrefix(l, "Test Suites:")
	})
	return n >= 3 || n >= 1 && n*10 >= sampled(d)
}

func planJSTest(d *doc, o Options) *plan {
	s := &jsScan{d: d, o: o, p: newPlan(d), start: -1, subtestAt: map[int]int{}}
	for i := 0; i < d.n(); i++ {
		l := d.line(i)
		if ok, r := tapResult(l); r {
			i = s.tap(i, l, ok) - 1
			continue
		}
		s.line(i, l)
	}
	s.flush(d.n())
	s.p.note = fmt.Sprintf("[js tests: %d passed, %d skipped, %d failing test or suite line(s); passing tests and their diagnostics elided]", s.passed, s.skipped, s.failed)
	return s.p
}

// jsScan is planJSTest's walk over the lines.
type jsScan struct {
	d                       *doc
	o                       Options
	p                       *plan
	passed, failed, skipped int
	// start is the first line of the run the generic rules judge (-1:
	// none).
	start int
	// inFailures: inside node spec's "✖ failing tests:" section or a jest
	// "●" block.
	inFailures bool
	// subtestAt maps an indentation to the last "# Subtest:" line there.
	subtestAt map[int]int
}

func (s *jsScan) flush(end int) {
	if s.start >= 0 {
		s.p.universal(s.d, s.start, end, s.o)
		s.start = -1
	}
}

// tap handles the TAP result on line i and the YAML diagnostics block
// that follows it ("  ---" … "  ..."), and returns the line after them.
func (s *jsScan) tap(i int, l string, ok bool) int {
	d, p := s.d, s.p
	s.flush(i)
	ind := d.indent(i)
	end := i + 1
	if end < d.n() && d.trimmed(end) == "---" && d.indent(end) > ind {
		for end < d.n() && !(d.trimmed(end) == "..." && d.indent(end) > ind) {
			end++
		}
		end++
	}
	end = min(end, d.n())
	skip := strings.Contains(l, "# SKIP") || strings.Contains(l, "# skip") || strings.Contains(l, "# TODO")
	switch {
	case skip:
		s.skipped++
	case ok:
		s.passed++
	default:
		s.failed++
		for k := i; k < end; k++ {
			if !d.blank(k) {
				p.set(k, protect)
			}
		}
		// The "# Subtest: name" line that opened it.
		if k, ok := s.subtestAt[ind]; ok {
			p.set(k, keep)
		}
	}
	return end
}

// line handles every line that is not a TAP result.
func (s *jsScan) line(i int, l string) {
	d, p := s.d, s.p
	t := strings.TrimLeft(l, " ")
	switch {
	case npmBanner(d, i):
		// "> pkg@1.0.0 test" and "> node --test": the script npm ran.
		s.flush(i)
		p.set(i, protect)
	case dotLine(l):
		// node's dot reporter: "." per passing test, "X" per failing one.
		s.flush(i)
		x := strings.Count(l, "X")
		s.passed += len(l) - x
		s.failed += x
		if x > 0 {
			p.set(i, keep)
		}
	case l == "Failed tests:":
		// the dot reporter's failure section
		s.flush(i)
		p.set(i, keep)
	case strings.HasPrefix(t, "# Subtest:"):
		s.flush(i)
		s.subtestAt[d.indent(i)] = i
	case strings.HasPrefix(t, "1.."), strings.HasPrefix(l, "TAP version"):
		s.flush(i)
	case strings.HasPrefix(t, "# ") && d.indent(i) == 0:
		// TAP trailer: "# tests 5", "# pass 4", "# fail 1", …
		s.flush(i)
		if !strings.HasPrefix(t, "# duration_ms") && !strings.HasPrefix(t, "# start") {
			p.set(i, protect)
		}
	case jestHeader(l):
		s.flush(i)
		s.inFailures = false
		if strings.HasPrefix(l, "FAIL ") {
			p.set(i, protect)
		}
	case specMark(l) != "":
		s.flush(i)
		s.spec(i, t, specMark(l))
	case strings.HasPrefix(t, "● "):
		s.flush(i)
		s.inFailures = true
		p.set(i, protect)
	case strings.HasPrefix(l, "Tests:"), strings.HasPrefix(l, "Test Suites:"), strings.HasPrefix(l, "Snapshots:"),
		strings.HasPrefix(l, "Time:"), strings.HasPrefix(l, "Ran all test suites"):
		s.flush(i)
		s.inFailures = false
		p.set(i, protect)
	case s.inFailures:
		if !d.blank(i) {
			p.set(i, protect)
		}
	default:
		if s.start < 0 {
			s.start = i
		}
	}
}

// spec handles a line of node's spec reporter or jest that starts with
// the verdict mark mark; t is the line without its indentation.
func (s *jsScan) spec(i int, t, mark string) {
	p := s.p
	switch mark {
	case "✔", "✓", "√":
		s.passed++
	case "﹣", "○":
		s.skipped++
	case "✖", "✕", "×":
		if strings.HasPrefix(t, "✖ failing tests") {
			s.inFailures = true
		} else if !s.inFailures {
			s.failed++
		}
		p.set(i, protect)
	case "ℹ":
		p.set(i, protect) // node spec summary: "ℹ tests 5", "ℹ fail 1"
	case "▶":
		p.set(i, keep)
	}
}

// npmBanner reports whether line i is the banner npm (and yarn, pnpm)
// prints before running a package script: "> name@version script" and,
// on the next line, "> command".
func npmBanner(d *doc, i int) bool {
	pkg := func(k int) bool {
		l := d.line(k)
		at := strings.LastIndexByte(l, '@')
		return strings.HasPrefix(l, "> ") && at > 2 && strings.IndexByte(l[at:], ' ') > 0
	}
	if !strings.HasPrefix(d.line(i), "> ") {
		return false
	}
	return pkg(i) && i+1 < d.n() && strings.HasPrefix(d.line(i+1), "> ") || i > 0 && pkg(i-1)
}

// dotLine reports whether l is a line of node's dot reporter: only "."
// (a passing test) and "X" (a failing one).
func dotLine(l string) bool {
	if len(l) < 3 {
		return false
	}
	for i := 0; i < len(l); i++ {
		if l[i] != '.' && l[i] != 'X' {
			return false
		}
	}
	return true
}
