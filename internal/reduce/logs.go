package reduce

import (
	"fmt"
	"strings"
)

// Logs: lines that start with a timestamp (ISO 8601, syslog, bracketed
// clock times) or that repeat heavily. The message of a log line is what
// follows its timestamp. The first occurrence of every distinct error or
// warning message is kept verbatim; later lines with the same message, and
// ordinary lines outside the head and tail, are elided and counted.

// stampLen returns the length of a leading timestamp (and the separator
// after it), or 0. The timestamp may follow the name of the program that
// wrote the line ("update-alternatives 2025-06-24 14:36:53: …"); the name
// then counts as part of it.
func stampLen(l string) int {
	if n := stampAt(l); n > 0 {
		return n
	}
	k := 0
	for k < len(l) && k <= 32 && (isLetter(l[k]) || isDigit(l[k]) || l[k] == '-' || l[k] == '_' || l[k] == '.') {
		k++
	}
	if k == 0 || k > 32 || k >= len(l) || l[k] != ' ' || !isLetter(l[0]) {
		return 0
	}
	if n := stampAt(l[k+1:]); n > 0 {
		return k + 1 + n
	}
	return 0
}

// stampAt is stampLen without a program name.
func stampAt(l string) int {
	i := 0
	if strings.HasPrefix(l, "[") {
		i = 1
	}
	end := isoStamp(l, i)
	if end == 0 {
		end = syslogStamp(l, i)
	}
	if end == 0 {
		end = clockStamp(l, i)
	}
	if end == 0 {
		return 0
	}
	if i == 1 {
		if k := strings.IndexByte(l[end:], ']'); k >= 0 && k < 12 {
			end += k + 1
		}
	}
	for end < len(l) && (l[end] == ' ' || l[end] == '\t') {
		end++
	}
	return end
}

// digitsAt reports whether l holds n digits from j.
func digitsAt(l string, j, n int) bool {
	if j+n > len(l) {
		return false
	}
	for k := j; k < j+n; k++ {
		if !isDigit(l[k]) {
			return false
		}
	}
	return true
}

// isoStamp returns the end of an ISO 8601 date at i,
// 2024-05-01[T ]12:00:00[.123][Z|+02:00], or 0.
func isoStamp(l string, i int) int {
	if !digitsAt(l, i, 4) || i+10 > len(l) || l[i+4] != '-' || !digitsAt(l, i+5, 2) || l[i+7] != '-' || !digitsAt(l, i+8, 2) {
		return 0
	}
	end := i + 10
	if end < len(l) && (l[end] == 'T' || l[end] == ' ') && digitsAt(l, end+1, 2) && end+3 < len(l) && l[end+3] == ':' {
		end += 3
		for end < len(l) && (isDigit(l[end]) || strings.IndexByte(":.,+-Z", l[end]) >= 0) {
			end++
		}
	}
	return end
}

// syslogStamp returns the end of a syslog time at i, "May  1 12:00:00",
// or 0.
func syslogStamp(l string, i int) int {
	if i+15 <= len(l) && isLetter(l[i]) && isLetter(l[i+1]) && isLetter(l[i+2]) && l[i+3] == ' ' && (l[i+4] == ' ' || isDigit(l[i+4])) &&
		isDigit(l[i+5]) && l[i+6] == ' ' && digitsAt(l, i+7, 2) && l[i+9] == ':' {
		return i + 15
	}
	return 0
}

// clockStamp returns the end of a clock time at i, 12:00:00[.123], or 0.
func clockStamp(l string, i int) int {
	if !digitsAt(l, i, 2) || i+8 > len(l) || l[i+2] != ':' || !digitsAt(l, i+3, 2) || l[i+5] != ':' || !digitsAt(l, i+6, 2) {
		return 0
	}
	end := i + 8
	for end < len(l) && (isDigit(l[end]) || l[end] == '.' || l[end] == ',') {
		end++
	}
	return end
}

// logMessage is the part of a log line after its timestamp.
func logMessage(l string) string { return l[stampLen(l):] }

func detectLog(d *doc) bool {
	nb := nonBlank(d)
	if nb < 10 {
		return false
	}
	stamped := count(d, func(i int) bool { return stampLen(d.line(i)) > 0 })
	if stamped*10 >= nb*6 {
		return true
	}
	// Heavy repetition without timestamps.
	// Only long lines count: short ones ("}", "return nil") repeat in
	// any source file.
	seen := make(map[string]bool, sampled(d))
	dup, long := 0, 0
	for _, i := range d.sample() {
		m := d.trimmed(i)
		if len(m) < 24 {
			continue
		}
		long++
		if seen[m] {
			dup++
		}
		seen[m] = true
	}
	return long*2 >= nb && dup*10 >= long*4
}

func planLog(d *doc, o Options) *plan {
	p := newPlan(d)
	first := map[string]bool{}
	var evidence []string
	repeats, distinctMsgs := 0, 0
	for i := range d.lines {
		l := d.line(i)
		msg := strings.TrimSpace(logMessage(l))
		if msg == "" {
			continue
		}
		f := classify(l)
		if f == 0 {
			continue
		}
		if first[msg] {
			repeats++
			continue
		}
		first[msg] = true
		distinctMsgs++
		p.set(i, protect)
		if d.plain != nil {
			msg = d.raw(i) // escapes may sit inside the message
		}
		evidence = append(evidence, msg)
		if errorish(f) {
			p.keepRange(i-min(o.ContextLines, 1), i+min(o.ContextLines, 1)+1)
		}
		if f&flagFileRef != 0 && strings.HasPrefix(l, "\t") && i > 0 {
			p.set(i-1, keep)
		}
	}
	p.headTail(o.HeadLines, o.TailLines)
	p.evidence = evidence
	if p.evidence == nil {
		p.evidence = []string{}
	}
	p.note = fmt.Sprintf("[log: %d lines; first occurrence of %d distinct error/warning message(s) kept, %d repeat(s) and ordinary lines elided]",
		d.n(), distinctMsgs, repeats)
	return p
}
