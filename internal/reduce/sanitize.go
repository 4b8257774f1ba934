package reduce

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The final-output sanitizer keeps internal tool traces out of an agent's
// final answer: fenced blocks whose info string names a trace (tool_use,
// tool_result, mcp, codebase-retrieval, auggie, scratchpad, internal, with
// "-" and "_" interchangeable and in any case) are removed, and so are bare
// lines that are JSON-RPC messages or tool-call envelopes ({"jsonrpc":…},
// {"tool_use_id":…}, {"tool_call_id":…}). Ordinary code fences and bare
// {"type":…} lines stay. The result is then capped at a character budget
// that includes the truncation marker.

// SanitizeOptions configures Sanitize.
type SanitizeOptions struct {
	// StripTraces removes trace fences and envelope lines.
	StripTraces bool
	// MaxChars caps the result in characters (code points), marker
	// included; 0 disables the cap.
	MaxChars int
}

// SanitizeResult says what Sanitize did.
type SanitizeResult struct {
	Text            string `json:"text"`
	RemovedSections int    `json:"removed_sections"`
	Truncated       bool   `json:"truncated"`
	OriginalChars   int    `json:"original_chars"`
	FinalChars      int    `json:"final_chars"`
}

var traceLabels = map[string]bool{
	"tool_use": true, "tool_result": true, "mcp": true, "codebase_retrieval": true,
	"auggie": true, "scratchpad": true, "internal": true,
}

// traceFence reports whether an opening fence's info string names a trace.
func traceFence(info string) bool {
	f := strings.Fields(info)
	if len(f) == 0 {
		return false
	}
	label := strings.ToLower(strings.ReplaceAll(f[0], "-", "_"))
	return traceLabels[label]
}

// fence parses an opening or closing code fence: its character, length and
// info string.
func fence(line string) (ch byte, n int, info string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	ch = t[0]
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	info = strings.TrimSpace(t[n:])
	if ch == '`' && strings.Contains(info, "`") {
		return 0, 0, "", false
	}
	return ch, n, info, true
}

// envelopeLine reports whether a line (outside any fence) is a bare
// JSON-RPC message or tool-call envelope.
func envelopeLine(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return false
	}
	t = strings.TrimLeft(t[1:], " \t")
	for _, k := range []string{`"jsonrpc"`, `"tool_use_id"`, `"tool_call_id"`} {
		if strings.HasPrefix(t, k) {
			rest := strings.TrimLeft(t[len(k):], " \t")
			return strings.HasPrefix(rest, ":")
		}
	}
	return false
}

// Sanitize cleans an agent's final text.
func Sanitize(text string, o SanitizeOptions) SanitizeResult {
	res := SanitizeResult{OriginalChars: utf8.RuneCountInString(text)}
	out := text
	if o.StripTraces {
		out, res.RemovedSections = stripTraces(text)
	}
	if o.MaxChars > 0 {
		out, res.Truncated = capChars(out, o.MaxChars)
	}
	res.Text = out
	res.FinalChars = utf8.RuneCountInString(out)
	return res
}

func stripTraces(text string) (string, int) {
	d := newDoc(text)
	keepLine := make([]bool, d.n())
	removed := 0
	for i := 0; i < d.n(); i++ {
		keepLine[i] = true
		l := d.raw(i)
		ch, n, info, ok := fence(l)
		if ok {
			// Find the closing fence: same character, at least as long,
			// no info string.
			end := d.n()
			for j := i + 1; j < d.n(); j++ {
				if c2, n2, info2, ok2 := fence(d.raw(j)); ok2 && c2 == ch && n2 >= n && info2 == "" {
					end = j
					break
				}
			}
			if traceFence(info) {
				removed++
				for k := i; k <= min(end, d.n()-1); k++ {
					keepLine[k] = false
				}
			} else {
				for k := i; k <= min(end, d.n()-1); k++ {
					keepLine[k] = true
				}
			}
			i = end
			continue
		}
		if envelopeLine(l) {
			removed++
			keepLine[i] = false
		}
	}
	if removed == 0 {
		return text, 0
	}
	var b strings.Builder
	b.Grow(len(text))
	prevBlank := true
	for i := 0; i < d.n(); i++ {
		if !keepLine[i] {
			continue
		}
		blank := d.blank(i)
		if blank && prevBlank {
			continue // removal left two blank lines in a row
		}
		b.WriteString(d.full(i))
		prevBlank = blank
	}
	return strings.TrimRight(b.String(), " \t\r\n") + trailing(text), removed
}

// trailing returns the line break that ends text, if any.
func trailing(text string) string {
	switch {
	case strings.HasSuffix(text, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(text, "\n"):
		return "\n"
	}
	return ""
}

// capChars cuts text to at most max characters, the marker included.
func capChars(text string, max int) (string, bool) {
	total := utf8.RuneCountInString(text)
	if total <= max {
		return text, false
	}
	// The marker names how many characters were cut, which depends on
	// where the cut falls: iterate until the count is stable.
	keep := max
	marker := ""
	for range 8 {
		marker = "\n[… output truncated: " + strconv.Itoa(total-keep) + " of " + strconv.Itoa(total) + " characters omitted]"
		next := max - utf8.RuneCountInString(marker)
		if next == keep {
			break
		}
		keep = next
	}
	if keep < 0 {
		// The budget cannot even hold the marker: cut to the budget.
		return prefixChars(text, max), true
	}
	return prefixChars(text, keep) + marker, true
}

func prefixChars(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
