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
	p := newPlan(d)
	passed, failed, skipped := 0, 0, 0
	start := -1
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	inFailures := false        // node spec "✖ failing tests:" section, jest "●" blocks
	subtestAt := map[int]int{} // indentation → the last "# Subtest:" line there
	for i := 0; i < d.n(); i++ {
		l := d.line(i)
		t := strings.TrimLeft(l, " ")
		if ok, r := tapResult(l); r {
			flush(i)
			ind := d.indent(i)
			// The YAML diagnostics block that follows: "  ---" … "  ...".
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
			case ok || skip:
				if skip {
					skipped++
				} else {
					passed++
				}
			default:
				failed++
				for k := i; k < end; k++ {
					if !d.blank(k) {
						p.set(k, protect)
					}
				}
				// The "# Subtest: name" line that opened it.
				if k, ok := subtestAt[ind]; ok {
					p.set(k, keep)
				}
			}
			i = end - 1
			continue
		}
		switch {
		case strings.HasPrefix(t, "# Subtest:"):
			flush(i)
			subtestAt[d.indent(i)] = i
		case strings.HasPrefix(t, "1.."), strings.HasPrefix(l, "TAP version"):
			flush(i)
		case strings.HasPrefix(t, "# ") && d.indent(i) == 0:
			// TAP trailer: "# tests 5", "# pass 4", "# fail 1", …
			flush(i)
			if !strings.HasPrefix(t, "# duration_ms") && !strings.HasPrefix(t, "# start") {
				p.set(i, protect)
			}
		case jestHeader(l):
			flush(i)
			inFailures = false
			if strings.HasPrefix(l, "FAIL ") {
				p.set(i, protect)
			}
		case specMark(l) != "":
			flush(i)
			switch specMark(l) {
			case "✔", "✓", "√":
				passed++
			case "﹣", "○":
				skipped++
			case "✖", "✕", "×":
				if strings.HasPrefix(t, "✖ failing tests") {
					inFailures = true
				} else if !inFailures {
					failed++
				}
				p.set(i, protect)
			case "ℹ":
				p.set(i, protect) // node spec summary: "ℹ tests 5", "ℹ fail 1"
			case "▶":
				p.set(i, keep)
			}
		case strings.HasPrefix(t, "● "):
			flush(i)
			inFailures = true
			p.set(i, protect)
		case strings.HasPrefix(l, "Tests:"), strings.HasPrefix(l, "Test Suites:"), strings.HasPrefix(l, "Snapshots:"),
			strings.HasPrefix(l, "Time:"), strings.HasPrefix(l, "Ran all test suites"):
			flush(i)
			inFailures = false
			p.set(i, protect)
		case inFailures:
			if !d.blank(i) {
				p.set(i, protect)
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(d.n())
	p.note = fmt.Sprintf("[js tests: %d passed, %d skipped, %d failing test or suite line(s); passing tests and their diagnostics elided]", passed, skipped, failed)
	return p
}
