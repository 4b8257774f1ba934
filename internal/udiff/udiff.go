// Package udiff renders line diffs, computed with sergi/go-diff, in the
// unified format that code review tools and patch understand.
package udiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

type op byte

const (
	opEqual  op = ' '
	opDelete op = '-'
	opInsert op = '+'
)

type line struct {
	op   op
	text string
}

// Unified returns the unified diff of a and b with ctx lines of context,
// labelled with the two names; "" when the texts are equal.
func Unified(nameA, nameB, a, b string, ctx int) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // exact, deterministic result
	ra, rb, lines := dmp.DiffLinesToRunes(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
	var all []line
	for _, d := range diffs {
		o := opEqual
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			o = opDelete
		case diffmatchpatch.DiffInsert:
			o = opInsert
		}
		for _, l := range splitLines(d.Text) {
			all = append(all, line{o, l})
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	// Walk the lines, emitting hunks around changes.
	aLine, bLine := 1, 1
	for i := 0; i < len(all); {
		if all[i].op == opEqual {
			aLine++
			bLine++
			i++
			continue
		}
		// A change starts at i: back up for context.
		start := max(i-ctx, 0)
		for k := start; k < i; k++ {
			if all[k].op != opEqual {
				start = k + 1
			}
		}
		hunkA, hunkB := aLine-(i-start), bLine-(i-start)
		// Extend the hunk while changes are within 2*ctx lines.
		end := i
		for end < len(all) {
			if all[end].op != opEqual {
				end++
				continue
			}
			run := end
			for run < len(all) && all[run].op == opEqual {
				run++
			}
			if run == len(all) || run-end > 2*ctx {
				end = min(end+ctx, len(all))
				break
			}
			end = run
		}
		var body strings.Builder
		na, nb := 0, 0
		for k := start; k < end; k++ {
			l := all[k]
			switch l.op {
			case opEqual:
				na++
				nb++
			case opDelete:
				na++
			case opInsert:
				nb++
			}
			body.WriteByte(byte(l.op))
			body.WriteString(l.text)
			body.WriteByte('\n')
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", rangeOf(hunkA, na), rangeOf(hunkB, nb))
		out.WriteString(body.String())
		for k := i; k < end; k++ {
			switch all[k].op {
			case opEqual:
				aLine++
				bLine++
			case opDelete:
				aLine++
			case opInsert:
				bLine++
			}
		}
		i = end
	}
	return out.String()
}

func rangeOf(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits text into lines without their terminators; a final line
// without a newline is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}
