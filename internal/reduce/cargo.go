package reduce

import (
	"fmt"
	"strings"
)

// cargo and rustc: build progress (Compiling, Checking, Downloaded, …) and
// passing tests are summarised; error diagnostics are kept whole, warning
// diagnostics keep their message and location, and the failures section,
// panics and "test result:" lines are kept.

var cargoProgress = []string{"Compiling ", "Checking ", "Downloaded ", "Downloading ", "Updating ", "Fresh ", "Documenting ", "Locking ", "Adding ", "Blocking ", "Packaging ", "Verifying ", "Installing ", "Installed ", "Replacing ", "Fetching ", "Unpacking ", "Building "}

func cargoProgressLine(l string) bool {
	if !strings.HasPrefix(l, " ") {
		return false
	}
	t := strings.TrimLeft(l, " ")
	for _, p := range cargoProgress {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// rustDiagHeader reports whether l opens a rustc diagnostic and whether it
// is an error.
func rustDiagHeader(l string) (isErr, ok bool) {
	switch {
	case strings.HasPrefix(l, "error[E"), strings.HasPrefix(l, "error: "):
		return true, true
	case strings.HasPrefix(l, "warning: "), strings.HasPrefix(l, "warning["):
		return false, true
	}
	return false, false
}

func cargoTestLine(l string) (verdict string, ok bool) {
	if !strings.HasPrefix(l, "test ") {
		return "", false
	}
	i := strings.LastIndex(l, " ... ")
	if i < 0 {
		return "", false
	}
	v := strings.TrimSpace(l[i+5:])
	switch {
	case v == "ok", v == "FAILED", v == "ignored", strings.HasPrefix(v, "ignored,"), strings.HasPrefix(v, "bench:"):
		return v, true
	}
	return "", false
}

func detectCargo(d *doc) bool {
	n := count(d, func(i int) bool {
		l := d.line(i)
		_, t := cargoTestLine(l)
		return cargoProgressLine(l) || t || strings.HasPrefix(l, "test result: ") || strings.HasPrefix(strings.TrimLeft(l, " "), "Finished ") ||
			strings.HasPrefix(l, "error[E") || strings.HasPrefix(l, "  --> ") || strings.HasPrefix(l, "running ") && strings.HasSuffix(l, " tests")
	})
	return n >= 3 || n >= 1 && n*10 >= sampled(d)
}

func planCargo(d *doc, o Options) *plan {
	p := newPlan(d)
	progress, passed, ignored, failed, warnings := 0, 0, 0, 0, 0
	start := -1
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	inFailures := false
	for i := 0; i < d.n(); i++ {
		l := d.line(i)
		if isErr, ok := rustDiagHeader(l); ok {
			flush(i)
			// The diagnostic runs to the next blank line.
			end := i + 1
			for end < d.n() && !d.blank(end) {
				if _, next := rustDiagHeader(d.line(end)); next {
					break
				}
				end++
			}
			summary := strings.Contains(l, " generated ") || strings.HasPrefix(l, "error: could not compile") || strings.HasPrefix(l, "error: test failed")
			if isErr || summary {
				for k := i; k < end; k++ {
					p.set(k, protect)
				}
			} else {
				warnings++
				p.set(i, protect)
				for k := i + 1; k < end; k++ {
					if strings.HasPrefix(strings.TrimLeft(d.line(k), " "), "--> ") {
						p.set(k, protect)
					} else {
						p.hide(k)
					}
				}
				if end < d.n() && d.blank(end) {
					p.hide(end) // the blank line that closes it
				}
			}
			i = end - 1
			continue
		}
		if v, ok := cargoTestLine(l); ok {
			flush(i)
			switch {
			case v == "ok", strings.HasPrefix(v, "bench:"):
				passed++
			case v == "FAILED":
				failed++
				p.set(i, protect)
			default:
				ignored++
			}
			continue
		}
		t := strings.TrimLeft(l, " ")
		switch {
		case cargoProgressLine(l):
			flush(i)
			progress++
		case l == "failures:":
			flush(i)
			inFailures = true
			p.set(i, protect)
		case strings.HasPrefix(l, "test result: "):
			flush(i)
			inFailures = false
			p.set(i, protect)
		case inFailures:
			if !d.blank(i) {
				p.set(i, protect)
			}
		case strings.HasPrefix(t, "Running "), strings.HasPrefix(t, "Doc-tests "), strings.HasPrefix(l, "running "), strings.HasPrefix(t, "Finished "):
			flush(i)
			p.set(i, keep)
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(d.n())
	p.note = fmt.Sprintf("[cargo: %d progress line(s), %d passed, %d ignored, %d failed, %d warning(s) with code excerpts elided unmarked]", progress, passed, ignored, failed, warnings)
	return p
}
