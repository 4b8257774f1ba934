package reduce

import (
	"fmt"
	"strings"
)

// Python test runners: pytest (plain and -v) and unittest (-v). Passing,
// skipped and expected-failure progress lines and the session header are
// summarised; FAILURES and ERRORS sections, the short test summary, failing
// test lines, tracebacks and the final verdicts are kept.

// pySection reports whether l is a pytest section rule ("==== title ====")
// and returns its title.
func pySection(l string) (string, bool) {
	if len(l) < 10 || l[0] != '=' || !strings.HasPrefix(l, "===") || !strings.HasSuffix(l, "===") {
		return "", false
	}
	return strings.TrimSpace(strings.Trim(l, "=")), true
}

// pyTitle reports whether l is a pytest test title ("____ test_x ____").
func pyTitle(l string) bool {
	return strings.HasPrefix(l, "___") && strings.HasSuffix(l, "___") && len(strings.Trim(l, "_ ")) > 0
}

// pyCaptured reports whether l opens a captured-output subsection.
func pyCaptured(l string) bool {
	return strings.HasPrefix(l, "---") && strings.Contains(l, " Captured ")
}

func unittestLine(l string) (verdict string, ok bool) {
	i := strings.LastIndex(l, " ... ")
	if i < 0 {
		return "", false
	}
	// "test_name (module.Class.test_name) ... ok"
	id := l[:i]
	o := strings.IndexByte(id, '(')
	if o < 1 || !strings.HasSuffix(id, ")") || id[o-1] != ' ' || strings.ContainsAny(id[o:], " \t") {
		return "", false
	}
	v := strings.TrimSpace(l[i+5:])
	switch {
	case v == "ok", v == "FAIL", v == "ERROR", strings.HasPrefix(v, "skipped"), v == "expected failure", v == "unexpected success":
		return v, true
	}
	return "", false
}

// pytestVerbose parses a pytest -v line: a node id ("path/test_x.py::test"
// or "path/test_x.py::Class::test[param]", its file part naming a .py
// file) followed by the verdict.
func pytestVerbose(l string) (verdict string, ok bool) {
	c := strings.Index(l, "::")
	if c < 0 || !strings.HasSuffix(l[:c], ".py") || strings.ContainsAny(l[:c], " \t") {
		return "", false
	}
	for _, v := range []string{" PASSED", " FAILED", " ERROR", " SKIPPED", " XFAIL", " XPASS"} {
		if i := strings.Index(l, v); i > 0 {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// pyProgress reports whether l is a plain pytest progress line
// ("tests/test_a.py ..F.s [ 40%]"), or one of -q, without the file name
// ("..F.s [ 40%]").
func pyProgress(l string) bool {
	i := strings.IndexByte(l, ' ')
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(l), "%]") {
		return false
	}
	if !strings.Contains(l[:i], ".py") {
		i = 0 // -q: the marks start the line
	}
	j := strings.LastIndex(l, "[")
	if j < i {
		return false
	}
	for _, c := range strings.TrimSpace(l[i:j]) {
		if !strings.ContainsRune(".FEsxXp", c) {
			return false
		}
	}
	return true
}

func detectPyTest(d *doc) bool {
	n := count(d, func(i int) bool {
		l := d.line(i)
		if t, ok := pySection(l); ok {
			return strings.Contains(t, "test session starts") || strings.Contains(t, " in ") || t == "FAILURES" || t == "ERRORS"
		}
		_, u := unittestLine(l)
		_, v := pytestVerbose(l)
		return u || v || pyProgress(l) || strings.HasPrefix(l, "Ran ") && strings.Contains(l, " test") || pyQuietVerdict(l)
	})
	return n >= 3 || n >= 1 && n*10 >= sampled(d)
}

func planPyTest(d *doc, o Options) *plan {
	s := &pyScan{d: d, o: o, p: newPlan(d), counts: map[string]int{}, start: -1}
	for i := range d.lines {
		l := d.line(i)
		if s.structure(i, l) || s.verdict(i, l) {
			continue
		}
		s.body(i, l)
	}
	s.flush(d.n())
	counts := s.counts
	s.p.note = fmt.Sprintf("[python tests: %d passed, %d skipped, %d failed, %d errors, %d progress line(s); passing tests' lines elided]",
		counts["PASSED"]+counts["ok"]+counts["XPASS"], counts["SKIPPED"]+counts["XFAIL"]+counts["expected failure"]+skippedUnittest(counts),
		counts["FAILED"]+counts["FAIL"], counts["ERROR"], counts["progress"])
	return s.p
}

// pyScan is planPyTest's walk over the lines: the pytest section it is in,
// whether it is inside captured output or a unittest failure report, and
// where the run of lines the generic rules judge started.
type pyScan struct {
	d      *doc
	o      Options
	p      *plan
	counts map[string]int
	// section is the title of the pytest section ("" before any).
	section string
	// captured: inside a "Captured stdout" block of a failure.
	captured bool
	// unittestBlock: inside a unittest FAIL/ERROR report.
	unittestBlock bool
	// start is the first line of the pending run (-1: none).
	start int
}

// flush hands the pending run, up to end, to the generic rules.
func (s *pyScan) flush(end int) {
	if s.start >= 0 {
		s.p.universal(s.d, s.start, end, s.o)
		s.start = -1
	}
}

// pend adds line i to the pending run.
func (s *pyScan) pend(i int) {
	if s.start < 0 {
		s.start = i
	}
}

// structure handles the lines that delimit sections and reports: pytest
// section titles, unittest's ===== and ----- rules, and the lines of a
// unittest failure report.
func (s *pyScan) structure(i int, l string) bool {
	d, p := s.d, s.p
	if t, ok := pySection(l); ok {
		s.flush(i)
		s.section, s.captured = t, false
		p.set(i, keep)
		if strings.Contains(t, " in ") && (strings.Contains(t, "passed") || strings.Contains(t, "failed") || strings.Contains(t, "error") || strings.Contains(t, "skipped") || strings.Contains(t, "no tests")) {
			p.set(i, protect) // the final verdict
		}
		return true
	}
	// unittest reports: "=====" (70 of them) then "FAIL: test (mod.Class.test)".
	if strings.HasPrefix(l, "======") && strings.Trim(l, "=") == "" {
		s.flush(i)
		s.unittestBlock = i+1 < d.n() && (strings.HasPrefix(d.line(i+1), "FAIL: ") || strings.HasPrefix(d.line(i+1), "ERROR: "))
		if s.unittestBlock {
			p.set(i, keep)
		}
		return true
	}
	if strings.HasPrefix(l, "------") && strings.Trim(l, "-") == "" && i+1 < d.n() && strings.HasPrefix(d.line(i+1), "Ran ") {
		s.flush(i)
		s.unittestBlock = false
		return true
	}
	if s.unittestBlock {
		if !d.blank(i) {
			p.set(i, protect)
		}
		return true
	}
	return false
}

// verdict handles the lines that give one test's verdict: pytest -v,
// unittest -v and pytest's progress lines.
func (s *pyScan) verdict(i int, l string) bool {
	p := s.p
	if v, ok := pytestVerbose(l); ok && s.section == "test session starts" || ok && s.section == "" {
		s.flush(i)
		s.counts[v]++
		if v == "FAILED" || v == "ERROR" {
			p.set(i, protect)
		}
		return true
	}
	if v, ok := unittestLine(l); ok {
		s.flush(i)
		s.counts[v]++
		if v == "FAIL" || v == "ERROR" || v == "unexpected success" {
			p.set(i, protect)
		}
		return true
	}
	if pyProgress(l) {
		s.flush(i)
		s.counts["progress"]++
		marks := l[:strings.LastIndex(l, "[")]
		if f, rest, _ := strings.Cut(marks, " "); strings.Contains(f, ".py") {
			marks = rest
		}
		if strings.ContainsAny(marks, "FE") {
			p.set(i, keep)
		}
		return true
	}
	return false
}

// body handles every other line by the section it is in.
func (s *pyScan) body(i int, l string) {
	d, p, section := s.d, s.p, s.section
	switch {
	case section == "FAILURES" || section == "ERRORS":
		s.failure(i, l)
	case strings.HasPrefix(section, "short test summary"):
		// -r lists one test a line, by verdict: the passing ones (-rp,
		// -rA) are counted, skips and expected failures kept, the rest is
		// evidence.
		switch v, _, _ := strings.Cut(l, " "); v {
		case "PASSED":
			s.counts["PASSED"]++
		case "SKIPPED", "XFAIL", "XPASS":
			p.set(i, keep)
		default:
			if !d.blank(i) {
				p.set(i, protect)
			}
		}
	case section == "test session starts" && (strings.HasPrefix(l, "collected ") || strings.HasPrefix(l, "collecting ")):
		p.set(i, keep)
	case strings.HasPrefix(l, "Ran ") && strings.Contains(l, " test"):
		s.flush(i)
		p.set(i, protect)
	case l == "OK" || strings.HasPrefix(l, "OK (") || strings.HasPrefix(l, "FAILED (") || strings.HasPrefix(l, "FAILED") && section == "":
		s.flush(i)
		p.set(i, protect)
	default:
		s.pend(i)
	}
}

// failure handles a line of pytest's FAILURES or ERRORS section: titles
// and tracebacks are evidence, captured output goes to the generic rules.
func (s *pyScan) failure(i int, l string) {
	p := s.p
	switch {
	case pyCaptured(l):
		s.flush(i)
		s.captured = true
		p.set(i, keep)
	case pyTitle(l):
		s.flush(i)
		s.captured = false
		p.set(i, protect)
	case s.captured:
		s.pend(i)
	case !s.d.blank(i):
		p.set(i, protect)
	}
}

func skippedUnittest(counts map[string]int) int {
	n := 0
	for k, v := range counts {
		if strings.HasPrefix(k, "skipped") {
			n += v
		}
	}
	return n
}

// pyQuietVerdict reports whether l is the verdict pytest -q prints without
// the rule around it: "4 failed, 123 passed, 1 skipped in 0.64s".
func pyQuietVerdict(l string) bool {
	i := strings.LastIndex(l, " in ")
	if i < 0 || !strings.HasSuffix(l, "s") || l == "" || !isDigit(l[0]) {
		return false
	}
	for _, part := range strings.Split(l[:i], ", ") {
		n, word, ok := strings.Cut(part, " ")
		if !ok || strings.TrimLeft(n, "0123456789") != "" {
			return false
		}
		switch word {
		case "passed", "failed", "skipped", "xfailed", "xpassed", "error", "errors", "warning", "warnings", "deselected":
		default:
			return false
		}
	}
	return true
}
