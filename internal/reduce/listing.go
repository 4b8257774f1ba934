package reduce

import (
	"fmt"
	"strconv"
	"strings"
)

// ls -l style listings (also -R and -a): the first and last entries and
// every error line are kept; the rest are counted by type with their total
// size.

// lsEntry parses a long-listing line: its type character and size.
func lsEntry(l string) (kind byte, size int64, ok bool) {
	if len(l) < 11 {
		return 0, 0, false
	}
	if !strings.ContainsRune("-dlcbpsD", rune(l[0])) {
		return 0, 0, false
	}
	for _, c := range l[1:10] {
		if !strings.ContainsRune("rwxsStTl-", c) {
			return 0, 0, false
		}
	}
	var buf [8]string
	f := fields(l, buf[:0])
	if len(f) < 6 {
		return 0, 0, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return 0, 0, false
	}
	// The size is the first field after owner and group that is a number
	// (device files show "major, minor").
	for _, s := range f[2:min(len(f), 6)] {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			size = n
			break
		}
	}
	return l[0], size, true
}

func detectListing(d *doc) bool {
	nb := nonBlank(d)
	n := count(d, func(i int) bool {
		l := d.line(i)
		_, _, ok := lsEntry(l)
		return ok || strings.HasPrefix(l, "total ")
	})
	return n >= 5 && n*10 >= nb*7
}

func planListing(d *doc, o Options) *plan {
	p := newPlan(d)
	var files, dirs, links, other, dirHeaders int
	var bytes int64
	for i := range d.lines {
		l := d.line(i)
		kind, size, ok := lsEntry(l)
		switch {
		case ok:
			switch kind {
			case '-':
				files++
				bytes += size
			case 'd':
				dirs++
			case 'l':
				links++
			default:
				other++
			}
		case strings.HasPrefix(l, "total "), d.blank(i):
		case strings.HasSuffix(l, ":") && !strings.Contains(l, ": "):
			dirHeaders++ // ls -R directory headers
		default:
			p.universal(d, i, i+1, o)
			p.set(i, keep)
		}
	}
	p.headTail(o.HeadLines*2, o.TailLines)
	p.note = fmt.Sprintf("[listing: %d files (%d bytes), %d directories, %d links, %d other entries in %d listed director(ies); middle entries elided]",
		files, bytes, dirs, links, other, max(dirHeaders, 1))
	return p
}

// fields splits l at runs of spaces and tabs like strings.Fields, into buf
// and without allocating, stopping after cap(buf) fields.
func fields(l string, buf []string) []string {
	for i := 0; i < len(l) && len(buf) < cap(buf); {
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		j := i
		for j < len(l) && l[j] != ' ' && l[j] != '\t' {
			j++
		}
		if j > i {
			buf = append(buf, l[i:j])
		}
		i = j
	}
	return buf
}
