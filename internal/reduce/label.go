package reduce

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Labels are the provider-visible recovery texts. They carry the opaque
// handle of the archived original and never a filesystem location.

// labelPrefix starts every label skillopt writes.
const labelPrefix = "[skillopt: "

// SmartLabel is appended to a reduced tool result.
func SmartLabel(reducer string, lines, bytes int, handle string) string {
	return labelPrefix + "output reduced (" + reducer + "), original " + strconv.Itoa(lines) + " lines / " + strconv.Itoa(bytes) +
		` bytes; retrieve_output {"handle":"` + handle + `"} returns it exactly, add "lines":"A:B" for a range]`
}

// ReducerOf returns the reducer named in a smart label inside text, or "".
func ReducerOf(text string) string {
	const key = labelPrefix + "output reduced ("
	i := strings.LastIndex(text, key)
	if i < 0 {
		return ""
	}
	rest := text[i+len(key):]
	j := strings.IndexByte(rest, ')')
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// StripSmartLabel returns text without its trailing smart label.
func StripSmartLabel(text string) string {
	i := strings.LastIndex(text, "\n"+labelPrefix+"output reduced (")
	if i < 0 {
		return text
	}
	return text[:i]
}

// DuplicateLabel replaces a later exact copy of an earlier tool result.
func DuplicateLabel(bytes int, handle string) string {
	return labelPrefix + "identical to an earlier tool result (" + strconv.Itoa(bytes) +
		` bytes); retrieve_output {"handle":"` + handle + `"} returns it]`
}

// IsDuplicateLabel reports whether text is a duplicate reference.
func IsDuplicateLabel(text string) bool {
	return strings.HasPrefix(text, labelPrefix+"identical to an earlier tool result (")
}

// OverflowText replaces an output over the overflow ceiling: the size, the
// handle and a bounded preview of the first head and last tail characters.
func OverflowText(tool string, bytes, ceiling int, handle, text string, head, tail int) string {
	var b strings.Builder
	b.WriteString(labelPrefix + "the output of " + tool + " was " + strconv.Itoa(bytes) + " bytes, over the " + strconv.Itoa(ceiling) +
		`-byte ceiling; retrieve_output {"handle":"` + handle + `","lines":"A:B"} reads it in parts. A preview follows.]`)
	h := prefixChars(text, head)
	rest := text[len(h):]
	t := suffixChars(rest, tail)
	b.WriteString("\n")
	b.WriteString(h)
	if omitted := len(rest) - len(t); omitted > 0 {
		b.WriteString("\n[… " + strconv.Itoa(utf8.RuneCountInString(rest[:omitted])) + " characters not shown …]\n")
	}
	b.WriteString(t)
	return b.String()
}

// RefineText replaces an output over the overflow ceiling when context
// memory is off.
func RefineText(tool string, bytes, ceiling int) string {
	return labelPrefix + "the output of " + tool + " was " + strconv.Itoa(bytes) + " bytes, over the " + strconv.Itoa(ceiling) +
		"-byte ceiling, and was not returned. Refine the " + tool + " query to be more specific.]"
}

// IsOverflow reports whether text is an overflow replacement.
func IsOverflow(text string) bool {
	return strings.HasPrefix(text, labelPrefix+"the output of ") && strings.Contains(text[:min(len(text), 300)], "-byte ceiling")
}

// OverflowBytes returns the size of the original an overflow replacement
// names.
func OverflowBytes(text string) (int, bool) {
	if !IsOverflow(text) {
		return 0, false
	}
	head := text[:min(len(text), 300)]
	i := strings.Index(head, " bytes, over the ")
	if i < 0 {
		return 0, false
	}
	j := strings.LastIndex(head[:i], " was ")
	if j < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(head[j+len(" was ") : i])
	return n, err == nil
}

func suffixChars(s string, n int) string {
	i := len(s)
	for k := 0; k < n && i > 0; k++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// Thresholds decide whether a reduction is worth returning: the complete
// returned text, label included, must save at least MinSavedBytes and at
// least MinSavedRatio of the original.
type Thresholds struct {
	MinSavedBytes int
	MinSavedRatio float64
}

// Clears reports whether going from before to after bytes clears both
// thresholds.
func (t Thresholds) Clears(before, after int) bool {
	saved := before - after
	return saved > 0 && saved >= t.MinSavedBytes && float64(saved) >= t.MinSavedRatio*float64(before)
}

// Smart reduces text for return in place of the original: the reduction
// followed by its recovery label naming handle. ok is false when no reducer
// applies or the complete text does not clear the thresholds; nothing has
// to be archived then.
func Smart(text string, o Options, t Thresholds, handle string) (string, Result, bool) {
	res, ok := Reduce(text, o)
	if !ok {
		return "", Result{}, false
	}
	out := res.Text
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	out += SmartLabel(res.Reducer, res.Lines, len(text), handle)
	if !t.Clears(len(text), len(out)) {
		return "", Result{}, false
	}
	return out, res, true
}
