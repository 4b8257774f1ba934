package reduce

import (
	"fmt"
	"strings"
)

// Compiler diagnostics: gcc and clang, tsc (plain and pretty), javac, go
// build and vet, and anything else that prints "path:line[:col]: message".
// Errors are kept with their code excerpts and notes; warnings keep their
// message line and lose the excerpt; other build chatter goes through the
// generic evidence rules.

// diagHeader reports whether l starts with a source position and returns
// the severity of the diagnostic ("error", "warning" or "note").
func diagHeader(l string) (string, bool) {
	if l == "" || l[0] == ' ' || l[0] == '\t' {
		return "", false
	}
	pos := diagPos(l)
	if pos < 0 {
		return "", false
	}
	rest := l[pos+1:]
	for len(rest) > 0 && (isDigit(rest[0]) || rest[0] == ':' || rest[0] == ',' || rest[0] == ')') {
		rest = rest[1:]
	}
	rest = strings.TrimLeft(rest, " -")
	switch {
	case rest == "":
		return "", false
	case strings.HasPrefix(rest, "warning"):
		return "warning", true
	case strings.HasPrefix(rest, "note"), strings.HasPrefix(rest, "info"):
		return "note", true
	}
	return "error", true
}

// diagPos returns the offset of the ':' or '(' that ends the file name of
// a leading "path.ext:line" or "path.ext(line", or -1.
func diagPos(l string) int {
	for k := 1; k < len(l)-1 && k < 512; k++ {
		c := l[k]
		if c == ':' && k == 1 && isLetter(l[0]) {
			continue // a drive letter
		}
		if (c == ':' || c == '(') && isDigit(l[k+1]) {
			j := k - 1
			ext := 0
			for j >= 0 && (isLetter(l[j]) || isDigit(l[j])) {
				j--
				ext++
			}
			if ext > 0 && ext <= 6 && j >= 1 && l[j] == '.' || c == ':' && gccSeverity(l[k:]) {
				return k
			}
			return -1
		}
		if !isPathByte(c) && !(c == ':' && k == 1) {
			return -1
		}
	}
	return -1
}

func diagContinuation(l string) bool {
	if l == "" || diagSummary(l) {
		return false
	}
	if l[0] == ' ' || l[0] == '\t' {
		return true
	}
	// tsc pretty frames start with the line number; gcc frames with "  12 |".
	t := strings.TrimLeft(l, "0123456789")
	return len(t) < len(l) && (strings.HasPrefix(t, " ") || strings.HasPrefix(t, "|"))
}

func detectDiag(d *doc) bool {
	n := count(d, func(i int) bool {
		sev, ok := diagHeader(d.line(i))
		return ok && sev != "note"
	})
	return n >= 2 || n >= 1 && n*20 >= sampled(d)
}

func planDiag(d *doc, o Options) *plan {
	p := newPlan(d)
	errs, warns, notes := 0, 0, 0
	notesOf := 0 // notes since the last error or warning
	start := -1
	flush := func(end int) {
		if start >= 0 {
			p.universal(d, start, end, o)
			start = -1
		}
	}
	lastSev := ""
	for i := 0; i < d.n(); i++ {
		l := d.line(i)
		sev, ok := diagHeader(l)
		if !ok {
			if strings.HasPrefix(l, "In file included from") || strings.HasSuffix(strings.TrimSpace(l), ":") && strings.Contains(l, ": In ") {
				// gcc's "x.c: In function 'f':" and include chains belong
				// to the diagnostic that follows.
				flush(i)
				p.hide(i)
				if k := nextDiag(d, i+1); k >= 0 {
					if s, _ := diagHeader(d.line(k)); s == "error" {
						p.set(i, keep)
					}
				}
				continue
			}
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		isNote := sev == "note"
		if isNote {
			sev = lastSev // a note belongs to the diagnostic before it
			notesOf++
		} else {
			notesOf = 0
		}
		lastSev = sev
		// The excerpt follows, possibly after one blank line (tsc --pretty).
		end := i + 1
		for end < d.n() {
			l := d.line(end)
			if d.blank(end) && end+1 < d.n() && diagContinuation(d.line(end+1)) && !d.blank(end+1) {
				if _, h := diagHeader(d.line(end + 1)); !h {
					end++
					continue
				}
			}
			if !diagContinuation(l) {
				break
			}
			if _, h := diagHeader(l); h {
				break
			}
			end++
		}
		if sev == "warning" || isNote {
			// A warning, and a note (gcc's candidate lists), keep their
			// message line; the excerpt under it goes.
			switch {
			case !isNote:
				warns++
				p.set(i, protect)
			case notesOf <= maxNotes:
				notes++
				p.set(i, keep)
			}
			for k := i + 1; k < end; k++ {
				p.hide(k)
			}
		} else {
			errs++
			for k := i; k < end; k++ {
				p.set(k, protect)
			}
		}
		i = end - 1
	}
	flush(d.n())
	p.note = fmt.Sprintf("[compiler: %d error diagnostic(s) kept with excerpts, %d warning(s) kept without excerpts, %d note(s) without theirs (excerpts and \"In function\" lines are elided unmarked; notes past the first %d of a diagnostic are elided)]", errs, warns, notes, maxNotes)
	return p
}

// maxNotes is how many notes of one diagnostic are kept: gcc and clang
// list every overload candidate, each with a note or two, and the first
// ones say what the rest repeat.
const maxNotes = 4

func nextDiag(d *doc, from int) int {
	for k := from; k < min(from+4, d.n()); k++ {
		if _, ok := diagHeader(d.line(k)); ok {
			return k
		}
	}
	return -1
}

// diagSummary reports whether l is a compiler's closing count: javac's
// "11 warnings" and "1 error", clang's "3 errors generated.", gcc's
// "2 warnings and 1 error generated.".
func diagSummary(l string) bool {
	t := strings.TrimSuffix(strings.TrimSuffix(l, "."), " generated")
	for _, part := range strings.Split(t, " and ") {
		n, word, ok := strings.Cut(part, " ")
		if !ok || n == "" || strings.TrimLeft(n, "0123456789") != "" {
			return false
		}
		switch word {
		case "error", "errors", "warning", "warnings":
		default:
			return false
		}
	}
	return true
}

// gccSeverity reports whether rest, what follows a file name, is gcc's
// ":line:column: severity: " — which names a file without an extension
// too, as C++ standard headers are (ostream, string_view).
func gccSeverity(rest string) bool {
	for range 2 {
		if len(rest) < 2 || rest[0] != ':' || !isDigit(rest[1]) {
			return false
		}
		rest = strings.TrimLeft(rest[1:], "0123456789")
	}
	for _, sev := range []string{": error: ", ": warning: ", ": note: ", ": fatal error: "} {
		if strings.HasPrefix(rest, sev) {
			return true
		}
	}
	return false
}
