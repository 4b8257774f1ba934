package reduce

import (
	"encoding/json"
	"fmt"
	"strings"
)

// go test -json (test2json): one JSON event per line, each with an Action
// ("start", "run", "pause", "cont", "output", "pass", "fail", "skip",
// "bench", "build-output", "build-fail"), a Package, a Test for events of
// one test, and an Output for "output" events. Every event of a failing
// test but its RUN/PAUSE/CONT/NAME lines is kept, and so are the package
// verdicts, build output and the package-level output that is evidence;
// the events of passing and skipped tests are summarised.

// goEvent is the part of a test2json event the reducer reads.
type goEvent struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// goEventOf parses line l as a test2json event.
func goEventOf(l string) (goEvent, bool) {
	var e goEvent
	if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"Action"`) {
		return e, false
	}
	if json.Unmarshal([]byte(l), &e) != nil || e.Action == "" {
		return e, false
	}
	return e, true
}

func detectGoJSON(d *doc) bool {
	n := count(d, func(i int) bool {
		l := d.line(i)
		return strings.HasPrefix(l, "{") && strings.Contains(l, `"Action":"`) && (strings.Contains(l, `"Package":"`) || strings.Contains(l, `"ImportPath":"`))
	})
	return n >= 3 && n*2 >= nonBlank(d)
}

// goJSONKey names one test of one package.
func goJSONKey(e goEvent) string { return e.Package + "\x00" + e.Test }

func planGoJSON(d *doc, o Options) *plan {
	p := newPlan(d)
	events := make([]goEvent, d.n())
	isEvent := make([]bool, d.n())
	failed := map[string]bool{}
	for i := range d.lines {
		e, ok := goEventOf(d.line(i))
		events[i], isEvent[i] = e, ok
		if ok && e.Action == "fail" {
			failed[goJSONKey(e)] = true
		}
	}
	var passed, skipped, failedN, okPkgs int
	start := -1 // first line of a stretch that is not events
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	for i := range d.lines {
		if !isEvent[i] {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		e := events[i]
		switch e.Action {
		case "fail", "build-fail", "build-output":
			p.set(i, protect)
			if e.Action == "fail" && e.Test != "" {
				failedN++
			}
		case "pass":
			if e.Test != "" {
				passed++
			} else {
				okPkgs++
			}
		case "skip":
			if e.Test != "" {
				skipped++
			}
		case "output":
			p.set(i, goJSONOutput(e, failed[goJSONKey(e)], failed[e.Package+"\x00"]))
		}
	}
	flush(d.n())
	p.note = fmt.Sprintf("[go test -json: %d passed, %d skipped, %d failed; %d package(s) ok; run/pass events and the output of passing tests elided]",
		passed, skipped, failedN, okPkgs)
	return p
}

// goJSONOutput decides an "output" event: failed says its test (or, for
// package-level output, its package) failed, pkgFailed that its package
// did.
func goJSONOutput(e goEvent, failed, pkgFailed bool) uint8 {
	t := strings.TrimLeft(e.Output, " ")
	if strings.HasPrefix(t, "=== ") {
		return drop // RUN, PAUSE, CONT, NAME
	}
	if e.Test != "" {
		if failed {
			return protect
		}
		return drop
	}
	// Package-level output: verdicts, build errors, panics outside a test,
	// prints from init and TestMain.
	switch {
	case strings.HasPrefix(t, "ok  \t"), strings.HasPrefix(t, "FAIL"), t == "PASS\n":
		return protect
	case strings.HasPrefix(t, "?   \t"):
		return drop
	case classify(strings.TrimRight(e.Output, "\n")) != 0:
		return protect
	case pkgFailed:
		return keep
	}
	return drop
}
