package reduce

import (
	"fmt"
	"strings"
)

// go test output, with -v or without. Passing and skipped tests' RUN,
// PAUSE, CONT, NAME and PASS lines and everything they logged are
// summarised; every FAIL block with its output, panics and their goroutine
// traces, build errors and the package verdicts that failed are kept.

func goTestMarker(l string) bool {
	t := strings.TrimLeft(l, " ")
	return strings.HasPrefix(t, "=== RUN ") || strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- FAIL: ") ||
		strings.HasPrefix(t, "--- SKIP: ") || strings.HasPrefix(l, "ok  \t") || strings.HasPrefix(l, "FAIL\t") ||
		strings.HasPrefix(l, "?   \t") || strings.HasPrefix(t, "=== PAUSE ") || strings.HasPrefix(t, "=== CONT ") ||
		strings.HasPrefix(t, "=== NAME ")
}

func detectGoTest(d *doc) bool {
	n := count(d, func(i int) bool { return goTestMarker(d.line(i)) })
	return n >= 3 || n >= 1 && n*10 >= sampled(d)
}

// goTestEvent parses a test marker line into its verb and test name.
func goTestEvent(l string) (verb, name string) {
	t := strings.TrimLeft(l, " ")
	for _, v := range []string{"=== RUN ", "=== PAUSE ", "=== CONT ", "=== NAME ", "--- PASS: ", "--- FAIL: ", "--- SKIP: "} {
		if strings.HasPrefix(t, v) {
			rest := strings.TrimSpace(t[len(v):])
			if i := strings.Index(rest, " ("); i >= 0 {
				rest = rest[:i]
			}
			return strings.TrimSpace(strings.Trim(v, "=-: ")), rest
		}
	}
	return "", ""
}

func planGoTest(d *doc, o Options) *plan {
	p := newPlan(d)
	status := map[string]string{}
	for i := range d.lines {
		if v, name := goTestEvent(d.line(i)); v == "PASS" || v == "FAIL" || v == "SKIP" {
			status[name] = v
		}
	}
	// failed reports whether a test, or a subtest of it, failed.
	failed := func(name string) bool {
		for n := name; ; {
			if status[n] == "FAIL" {
				return true
			}
			i := strings.LastIndexByte(n, '/')
			if i < 0 {
				return false
			}
			n = n[:i]
		}
	}
	var passed, skipped, failedN, okPkgs, noTests int
	current := ""
	start := -1 // first line of a package-level stretch
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	for i := range d.lines {
		l := d.line(i)
		verb, name := goTestEvent(l)
		switch {
		case verb != "":
			flush(i)
			current = name
			switch verb {
			case "PASS":
				passed++
			case "SKIP":
				skipped++
			case "FAIL":
				failedN++
				p.set(i, protect)
			default: // RUN, PAUSE, CONT, NAME
				if status[name] == "FAIL" {
					p.set(i, keep)
				}
			}
		case strings.HasPrefix(l, "ok  \t"):
			// A package verdict is a test summary: kept.
			flush(i)
			current = ""
			okPkgs++
			p.set(i, protect)
		case strings.HasPrefix(l, "?   \t"):
			flush(i)
			current = ""
			noTests++
		case strings.HasPrefix(l, "FAIL\t") || l == "FAIL" || l == "PASS":
			flush(i)
			current = ""
			p.set(i, protect)
		case current != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") || l == ""):
			// Output of the current test.
			if status[current] == "FAIL" || status[current] == "" && failed(current) {
				if strings.TrimSpace(l) != "" {
					p.set(i, protect)
				}
			}
		default:
			// Package-level output: build errors, panics, prints.
			current = ""
			if start < 0 {
				start = i
			}
		}
	}
	flush(d.n())
	p.note = fmt.Sprintf("[go test: %d passed, %d skipped, %d failed; %d package(s) ok, %d without tests; RUN/PASS lines and logs of passing tests elided]",
		passed, skipped, failedN, okPkgs, noTests)
	return p
}
