package reduce

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// doc is a text split into lines. Each line remembers its own terminator
// ("\n", "\r\n" or none), so kept lines are written back byte for byte.
type doc struct {
	text  string
	lines []span
	// plain holds the lines without ANSI escape sequences, for
	// classification, when the text has any; lines are written raw.
	plain []string
	samp  []int // the lines detection samples
}

// span locates one line: text[start:end] is its content, text[end:next] its
// terminator.
type span struct{ start, end, next int }

func newDoc(text string) *doc {
	d := &doc{text: text}
	n := strings.Count(text, "\n") + 1
	d.lines = make([]span, 0, n)
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			d.lines = append(d.lines, span{i, len(text), len(text)})
			break
		}
		end := i + j
		if end > i && text[end-1] == '\r' {
			end--
		}
		d.lines = append(d.lines, span{i, end, i + j + 1})
		i += j + 1
	}
	if strings.IndexByte(text, 0x1b) >= 0 {
		d.plain = make([]string, len(d.lines))
		for i := range d.lines {
			d.plain[i] = stripANSI(d.raw(i))
		}
	}
	return d
}

// stripANSI removes CSI escape sequences (colours, cursor movement).
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func (d *doc) n() int { return len(d.lines) }

// line returns line i as classification sees it (without ANSI escapes).
func (d *doc) line(i int) string {
	if d.plain != nil {
		return d.plain[i]
	}
	s := d.lines[i]
	return d.text[s.start:s.end]
}

// raw returns line i exactly as written.
func (d *doc) raw(i int) string { s := d.lines[i]; return d.text[s.start:s.end] }

func (d *doc) full(i int) string    { s := d.lines[i]; return d.text[s.start:s.next] }
func (d *doc) term(i int) string    { s := d.lines[i]; return d.text[s.end:s.next] }
func (d *doc) size(i int) int       { s := d.lines[i]; return s.next - s.start }
func (d *doc) blank(i int) bool     { return strings.TrimSpace(d.line(i)) == "" }
func (d *doc) trimmed(i int) string { return strings.TrimSpace(d.line(i)) }
func (d *doc) indent(i int) int     { l := d.line(i); return len(l) - len(strings.TrimLeft(l, " \t")) }

// eol is the terminator markers use: the document's own.
func (d *doc) eol() string {
	for i := range d.lines {
		if t := d.term(i); t != "" {
			return t
		}
	}
	return "\n"
}

// Line marks.
const (
	drop    uint8 = iota // elided, counted in a marker
	keep                 // kept verbatim (structure, context, head and tail); long lines may be cut
	protect              // evidence: kept verbatim, never cut
)

// plan is what a reducer decides: a mark per line, the protected evidence,
// and an optional summary placed before the kept lines.
type plan struct {
	mark []uint8
	// evidence lists the strings a reduction must keep verbatim; nil means
	// "the content of every protected line".
	evidence []string
	// note is a one-line summary of what was elided.
	note string
	// quiet elides runs without a marker each; the note speaks for them.
	quiet bool
	// hidden lines, when elided, need no marker: a run of hidden lines
	// only is left out silently, because the note says what such lines
	// are (the code excerpt under each warning, say). nil when none are.
	hidden []bool
	// repeat[i], for an elided line that copies an earlier kept line, is
	// that line's index plus one. nil when no line is such a copy.
	repeat []int32
}

// hide lets line i, if elided, go without a marker.
func (p *plan) hide(i int) {
	if i < 0 || i >= len(p.mark) {
		return
	}
	if p.hidden == nil {
		p.hidden = make([]bool, len(p.mark))
	}
	p.hidden[i] = true
}

// silent reports whether the elided run [i, j) needs no marker.
func (p *plan) silent(i, j int) bool {
	if p.quiet {
		return true
	}
	if p.hidden == nil {
		return false
	}
	for k := i; k < j; k++ {
		if !p.hidden[k] {
			return false
		}
	}
	return true
}

func newPlan(d *doc) *plan { return &plan{mark: make([]uint8, d.n())} }

func (p *plan) set(i int, m uint8) {
	if i >= 0 && i < len(p.mark) && m > p.mark[i] {
		p.mark[i] = m
	}
}

// keepRange raises lines [from, to) to at least keep.
func (p *plan) keepRange(from, to int) {
	for i := max(from, 0); i < min(to, len(p.mark)); i++ {
		p.set(i, keep)
	}
}

// headTail keeps the first h and the last t lines.
func (p *plan) headTail(h, t int) {
	p.keepRange(0, h)
	p.keepRange(len(p.mark)-t, len(p.mark))
}

// evidenceOf returns the plan's evidence strings, distinct, in order.
func (p *plan) evidenceOf(d *doc) []string {
	if p.evidence != nil {
		return distinct(p.evidence)
	}
	var out []string
	for i, m := range p.mark {
		if m == protect {
			if l := d.raw(i); strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
	}
	return distinct(out)
}

func distinct(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := in[:0:0]
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// minRepeat is the shortest run of identical lines collapsed into one line
// and a repeat marker.
const minRepeat = 3

// render writes the kept lines verbatim and a counted marker for every run
// of elided lines, collapsing runs of identical kept lines. It returns the
// text and the number of lines kept.
func (d *doc) render(p *plan, o Options) (string, int) {
	var b strings.Builder
	b.Grow(len(d.text) / 4)
	eol := d.eol()
	if p.note != "" {
		b.WriteString(p.note)
		b.WriteString(eol)
	}
	kept := 0
	n := d.n()
	for i := 0; i < n; {
		if p.mark[i] != drop {
			line := d.raw(i)
			// Identical kept lines that follow collapse into a marker.
			j, evidence := i+1, p.mark[i] == protect
			for j < n && p.mark[j] != drop && d.raw(j) == line {
				evidence = evidence || p.mark[j] == protect
				j++
			}
			reps := j - i - 1
			if reps < minRepeat-1 {
				j, reps = i+1, 0
			}
			if !evidence && o.MaxLineBytes > 0 && len(line) > o.MaxLineBytes {
				b.WriteString(cutLine(line, o.MaxLineBytes))
			} else {
				b.WriteString(line)
			}
			b.WriteString(d.term(i))
			kept++
			if reps > 0 {
				b.WriteString("[… previous line repeated ")
				b.WriteString(strconv.Itoa(reps))
				b.WriteString(" more times …]")
				b.WriteString(d.term(j - 1))
			}
			i = j
			continue
		}
		j := i
		for j < n && p.mark[j] == drop {
			j++
		}
		// A run may hold copies of earlier kept lines (see
		// collapseRepeats); each stretch of it gets its own marker.
		for s := i; s < j; {
			e := s + 1
			if p.repeat != nil && p.repeat[s] != 0 {
				for e < j && p.repeat[e] == p.repeat[e-1]+1 {
					e++
				}
			} else {
				for e < j && (p.repeat == nil || p.repeat[e] == 0) {
					e++
				}
			}
			kept += p.writeElided(&b, d, s, e, eol)
			s = e
		}
		i = j
	}
	return b.String(), kept
}

// writeElided writes the marker of the elided lines [i, j), which are all
// copies of earlier lines or none are, and returns the number of lines it
// wrote verbatim instead (when a marker would not be shorter).
func (p *plan) writeElided(b *strings.Builder, d *doc, i, j int, eol string) int {
	if p.repeat == nil || p.repeat[i] == 0 {
		if p.silent(i, j) {
			return 0
		}
	}
	bytes := 0
	for k := i; k < j; k++ {
		bytes += d.size(k)
	}
	m := marker(i, j)
	if p.repeat != nil && p.repeat[i] != 0 {
		src := int(p.repeat[i]) - 1
		m = repeatMarker(i, j, src)
	}
	if bytes <= len(m)+len(eol) {
		// Eliding would not save anything: keep the run.
		for k := i; k < j; k++ {
			b.WriteString(d.full(k))
		}
		return j - i
	}
	b.WriteString(m)
	b.WriteString(d.term(j - 1))
	return 0
}

// marker describes the elided run of lines [i, j) with 1-based line numbers,
// so a reader can ask for exactly those lines.
func marker(i, j int) string {
	if j-i == 1 {
		return "[… 1 line elided (" + strconv.Itoa(i+1) + ") …]"
	}
	return "[… " + strconv.Itoa(j-i) + " lines elided (" + strconv.Itoa(i+1) + "-" + strconv.Itoa(j) + ") …]"
}

// repeatMarker describes the elided lines [i, j) that repeat the lines
// starting at src (indentation aside).
func repeatMarker(i, j, src int) string {
	return "[… " + strconv.Itoa(j-i) + " lines elided (" + strconv.Itoa(i+1) + "-" + strconv.Itoa(j) + "), the same as lines " +
		strconv.Itoa(src+1) + "-" + strconv.Itoa(src+j-i) + " …]"
}

// cutLine keeps the start and end of a long line, cutting on UTF-8
// character boundaries, with a counted marker between them.
func cutLine(line string, max int) string {
	half := max / 2
	head := truncUTF8(line, half)
	tail := tailUTF8(line, half)
	elided := len(line) - len(head) - len(tail)
	m := " [… " + strconv.Itoa(elided) + " bytes elided …] "
	if elided <= len(m) {
		return line
	}
	return head + m + tail
}

// truncUTF8 returns the longest prefix of s of at most n bytes that ends on
// a character boundary.
func truncUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailUTF8 returns the longest suffix of s of at most n bytes that starts on
// a character boundary.
func tailUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
