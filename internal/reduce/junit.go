package reduce

import (
	"fmt"
	"strings"
)

// JUnit XML reports (node --test --test-reporter=junit, Maven Surefire,
// pytest --junitxml, gotestsum, …): <testsuites> holds <testsuite>
// elements, each of <testcase> elements; a failing testcase holds a
// <failure> or <error> element, a skipped one <skipped/>. The report is
// read line by line, as every one of these tools writes one element a
// line. Passing and skipped testcases are summarised; failing testcases
// are kept whole (runtime frames of their traces aside), with the suites
// that hold failures and the closing summary comments.

// xmlTag returns the name of the element line t (trimmed) opens or closes,
// "/name" for a closing tag, and whether t ends the element ("/>").
func xmlTag(t string) (name string, selfClosed bool) {
	if !strings.HasPrefix(t, "<") || len(t) < 3 {
		return "", false
	}
	rest := t[1:]
	end := strings.IndexAny(rest, " \t>/")
	if rest[0] == '/' {
		end = strings.IndexAny(rest[1:], " \t>")
		if end < 0 {
			return "", false
		}
		return rest[:end+1], false
	}
	if end <= 0 {
		return "", false
	}
	return rest[:end], strings.HasSuffix(t, "/>")
}

// xmlCount returns the integer value of attribute attr on tag line t (0
// when absent or not a number).
func xmlCount(t, attr string) int {
	i := strings.Index(t, " "+attr+`="`)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range []byte(t[i+len(attr)+3:]) {
		if !isDigit(c) {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func detectJUnit(d *doc) bool {
	suites, cases := 0, 0
	for _, i := range d.sample() {
		switch name, _ := xmlTag(d.trimmed(i)); name {
		case "testsuite", "testsuites":
			suites++
		case "testcase":
			cases++
		}
	}
	return suites >= 1 && cases >= 2
}

func planJUnit(d *doc, o Options) *plan {
	p := newPlan(d)
	var passed, skipped, failed int
	start := -1 // first line outside testcases, for the generic rules
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	for i := 0; i < d.n(); i++ {
		t := d.trimmed(i)
		name, selfClosed := xmlTag(t)
		switch {
		case name == "testcase":
			flush(i)
			end := i + 1
			if !selfClosed {
				for end < d.n() && !strings.HasPrefix(d.trimmed(end), "</testcase>") {
					end++
				}
				end = min(end+1, d.n())
			}
			switch junitVerdict(d, i, end) {
			case "failed":
				failed++
				for k := i; k < end; k++ {
					if !d.blank(k) {
						p.set(k, protect)
					}
				}
			case "skipped":
				skipped++
			default:
				passed++
			}
			i = end - 1
		case name == "testsuite":
			flush(i)
			if xmlCount(t, "failures") > 0 || xmlCount(t, "errors") > 0 {
				p.set(i, protect)
			}
		case name == "testsuites" || name == "/testsuites" || name == "/testsuite" || strings.HasPrefix(t, "<?xml"):
			flush(i)
			p.set(i, keep)
		case strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->"):
			// node's closing counts: "<!-- tests 155 -->", "<!-- fail 4 -->"
			flush(i)
			if !strings.HasPrefix(t, "<!-- duration_ms") {
				p.set(i, protect)
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(d.n())
	p.note = fmt.Sprintf("[junit: %d passed, %d skipped, %d failed testcase(s); passing and skipped testcases elided]", passed, skipped, failed)
	return p
}

// junitVerdict classifies the testcase on lines [from, to): "failed" when
// it holds a <failure> or an <error> (or node's failure attribute),
// "skipped" when it holds <skipped>, "passed" otherwise.
func junitVerdict(d *doc, from, to int) string {
	if strings.Contains(d.line(from), ` failure="`) {
		return "failed"
	}
	v := "passed"
	for k := from + 1; k < to; k++ {
		switch name, _ := xmlTag(d.trimmed(k)); name {
		case "failure", "error":
			return "failed"
		case "skipped":
			v = "skipped"
		}
	}
	return v
}
