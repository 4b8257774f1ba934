package reduce

import "strings"

// Evidence classes of a line. Any class makes a line protected evidence in
// the generic reducer; format-aware reducers decide per format (a file:line
// reference in the log of a passing test is not evidence of anything).
const (
	flagError   = 1 << iota // error, failure, panic, exception, warning vocabulary
	flagFrame               // a stack frame
	flagFileRef             // file:line[:col] or file(line,col)
	flagExit                // an exit code or status
	flagSummary             // a test or build summary ("3 passed, 1 failed")
	flagExpect              // expected / actual, got / want, left / right
)

// errorWords are whole words (letters only, lower-cased) that mark an error
// or failure line.
var errorWords = map[string]bool{
	"error": true, "errors": true, "fail": true, "failed": true, "fails": true,
	"failure": true, "failures": true, "failing": true, "fatal": true, "panic": true,
	"panicked": true, "panics": true, "exception": true, "exceptions": true, "traceback": true,
	"abort": true, "aborted": true, "aborting": true, "segfault": true, "segmentation": true,
	"denied": true, "refused": true, "timeout": true, "cannot": true, "couldn": true,
	"unable": true, "undefined": true, "unresolved": true, "invalid": true, "unexpected": true,
	"warning": true, "warnings": true, "warn": true, "critical": true, "killed": true,
	"assert": true, "assertion": true, "assertionerror": true, "mismatch": true, "mismatched": true,
	"crash": true, "crashed": true, "broken": true, "unmet": true, "missing": true,
	"typeerror": true, "valueerror": true, "keyerror": true, "indexerror": true,
	"attributeerror": true, "runtimeerror": true, "importerror": true, "syntaxerror": true,
	"nameerror": true, "referenceerror": true, "zerodivisionerror": true, "oserror": true,
	"filenotfounderror": true, "modulenotfounderror": true, "nullpointerexception": true,
}

// expectWords mark expected/actual comparisons.
var expectWords = map[string]bool{
	"expected": true, "expecting": true, "actual": true, "received": true,
}

// summaryWords follow a count in a test or build summary ("12 passed").
var summaryWords = map[string]bool{
	"passed": true, "failed": true, "skipped": true, "errors": true, "error": true,
	"tests": true, "test": true, "total": true, "pending": true, "todo": true,
	"xfailed": true, "xpassed": true, "warnings": true, "warning": true, "deselected": true,
	"suites": true, "failures": true, "ignored": true, "measured": true, "filtered": true,
	"passing": true, "failing": true, "succeeded": true,
}

// classify returns the evidence classes of one line.
func classify(line string) int {
	f := 0
	t := strings.TrimLeft(line, " \t")
	if isFrame(t) {
		f |= flagFrame
	}
	if hasFileRef(line) || inFileLine(t) {
		f |= flagFileRef
	}
	if exceptionName(t) {
		f |= flagError
	}
	return f | classifyWords(line, t) | prefixFlags(t)
}

// wordWalk is the state of classifyWords: the previous word, whether a
// number came just before, whether an exit and a "got" were seen.
type wordWalk struct {
	prev                     string
	prevNum, sawExit, sawGot bool
}

// classifyWords walks the words of line (letters only, lower-cased) and
// the numbers before them (for summaries); t is line without its
// indentation.
func classifyWords(line, t string) int {
	f := 0
	var ww wordWalk
	var buf [48]byte
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case isLetter(c):
			j := i
			w := buf[:0]
			for j < len(line) && (isLetter(line[j]) || line[j] == '\'') {
				if line[j] != '\'' && len(w) < cap(w) {
					w = append(w, lower(line[j]))
				}
				j++
			}
			f |= ww.word(w, i == len(line)-len(t), t)
			i = j
		case isDigit(c):
			j := i
			for j < len(line) && (isDigit(line[j]) || line[j] == ',' && j+1 < len(line) && isDigit(line[j+1])) {
				j++
			}
			if ww.sawExit {
				f |= flagExit
			}
			// "3 passed" and "3 tests" separate the count from the word
			// by one space only.
			ww.prevNum = j >= len(line) || line[j] == ' '
			i = j
		default:
			if c != ' ' {
				ww.prevNum = false
			}
			i++
		}
	}
	return f
}

// word classifies one word w; first says it starts the line's text.
// Indexing a map with string(w) does not allocate; the word is only
// materialised as the previous word, which is short.
func (ww *wordWalk) word(w []byte, first bool, t string) int {
	f := 0
	switch {
	case len(w) < 2 || len(w) > 20:
	case errorWords[string(w)]:
		f |= flagError
	case expectWords[string(w)]:
		f |= flagExpect
	case errorPair(ww.prev, w):
		f |= flagError
	case string(w) == "exit" || string(w) == "exited" || string(w) == "exitcode" || string(w) == "status" && ww.prev == "exit":
		ww.sawExit = true
	case string(w) == "got":
		ww.sawGot = true
	case (string(w) == "want" || string(w) == "wanted") && ww.sawGot:
		f |= flagExpect
	case string(w) == "ran" && first:
		// unittest: "Ran 12 tests in 0.01s"
		if strings.Contains(t, " test") {
			f |= flagSummary
		}
	}
	if ww.prevNum && summaryWords[string(w)] {
		f |= flagSummary
	}
	ww.prev, ww.prevNum = prevWord(w), false
	return f
}

// errorPair reports whether prev and w make an error phrase ("not found",
// "no such", "could not", "timed out", "core dumped", "unable to").
func errorPair(prev string, w []byte) bool {
	switch string(w) {
	case "found":
		return prev == "not"
	case "such":
		return prev == "no"
	case "not":
		return prev == "could"
	case "out":
		return prev == "timed"
	case "dumped":
		return prev == "core"
	case "to":
		return prev == "unable"
	}
	return false
}

// prefixFlags are the classes a line's text has by how it starts:
// expected/actual pairs and test summaries.
func prefixFlags(t string) int {
	f := 0
	for _, p := range []string{"left:", "right:", "want:", "got:", "- Expected", "+ Received"} {
		if strings.HasPrefix(t, p) {
			f |= flagExpect
		}
	}
	for _, p := range []string{"test result:", "# tests ", "# fail ", "# pass "} {
		if strings.HasPrefix(t, p) {
			f |= flagSummary
		}
	}
	return f
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isFrame reports whether a (left-trimmed) line is a stack frame of a
// common runtime.
func isFrame(t string) bool {
	switch {
	case strings.HasPrefix(t, "File \"") && strings.Contains(t, "\", line "): // Python
		return true
	case strings.HasPrefix(t, "at ") && (strings.Contains(t, ".java:") || strings.Contains(t, "(Native Method)") ||
		strings.Contains(t, "(Unknown Source)") || strings.Contains(t, "<anonymous>") || strings.Contains(t, "node:") ||
		hasFileRef(t)): // Java, JavaScript, Rust backtraces
		return true
	case strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, ":") && strings.Contains(t, " ["): // Go
		return true
	case strings.HasPrefix(t, "Caused by: "), strings.HasPrefix(t, "Traceback (most recent call last)"):
		return true
	case strings.HasPrefix(t, "...") && strings.HasSuffix(t, " more"): // Java "... 12 more"
		return true
	}
	return false
}

// hasFileRef reports whether line mentions a source position: name.ext:LINE
// (optionally :COL) or name.ext(LINE,COL).
func hasFileRef(line string) bool {
	for i := 1; i+1 < len(line); i++ {
		c := line[i]
		if (c != ':' && c != '(') || !isDigit(line[i+1]) {
			continue
		}
		// Look back over an extension and a name: [path/]name.ext
		j := i - 1
		ext := 0
		for j >= 0 && (isLetter(line[j]) || isDigit(line[j])) {
			j--
			ext++
		}
		if ext == 0 || ext > 6 || j < 1 || line[j] != '.' {
			continue
		}
		k := j - 1
		name := 0
		for k >= 0 && isPathByte(line[k]) {
			k--
			name++
		}
		if name == 0 {
			continue
		}
		if c == '(' {
			// name.ext(12,5) as tsc and MSVC write it
			m := i + 1
			for m < len(line) && isDigit(line[m]) {
				m++
			}
			if m < len(line) && (line[m] == ',' || line[m] == ')') {
				return true
			}
			continue
		}
		return true
	}
	return false
}

func isPathByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '\\' || c == '@' || c == '+' || c >= 0x80
}

// errorish reports whether flags call for context lines around the line.
func errorish(f int) bool { return f&(flagError|flagExpect) != 0 }

// prevWord keeps the few previous words the two-word phrases need, as
// constants, so remembering a word never allocates.
func prevWord(w []byte) string {
	switch string(w) {
	case "not":
		return "not"
	case "no":
		return "no"
	case "could":
		return "could"
	case "timed":
		return "timed"
	case "core":
		return "core"
	case "unable":
		return "unable"
	case "exit":
		return "exit"
	}
	return ""
}

// exceptionName reports whether t names an exception class followed by
// its message, by the Python, Java and JavaScript convention:
// "ConnectionError: …", "java.lang.IllegalStateException: …".
func exceptionName(t string) bool {
	for _, suf := range []string{"Error:", "Exception:"} {
		for off := 0; ; {
			k := strings.Index(t[off:], suf)
			if k < 0 {
				break
			}
			k += off
			if k > 0 && isLetter(t[k-1]) {
				return true
			}
			off = k + len(suf)
		}
	}
	return false
}

// inFileLine reports whether t is a location line in prose, as shellcheck
// writes one before each finding: "In deploy.sh line 8:".
func inFileLine(t string) bool {
	rest, ok := strings.CutPrefix(t, "In ")
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, " line ")
	if i < 1 || strings.ContainsAny(rest[:i], " \t") || !strings.HasSuffix(rest, ":") {
		return false
	}
	n := rest[i+len(" line ") : len(rest)-1]
	if n == "" {
		return false
	}
	for j := 0; j < len(n); j++ {
		if !isDigit(n[j]) {
			return false
		}
	}
	return true
}
