package reduce

import (
	"fmt"
	"strings"
)

// git log (full, --stat, -p and --oneline) and diff --stat. A log keeps
// every commit line and subject; author and date lines, message bodies,
// per-file stat lines and patch hunks are elided and counted. A diff stat
// keeps its first and last entries and the "files changed" summary.

func isHexWord(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func gitCommitLine(l string) bool {
	if !strings.HasPrefix(l, "commit ") {
		return false
	}
	f := strings.Fields(l[7:])
	return len(f) > 0 && isHexWord(f[0], 7, 64)
}

func gitOneline(l string) bool {
	i := strings.IndexByte(l, ' ')
	return i > 0 && isHexWord(l[:i], 7, 40)
}

func diffStatLine(l string) bool {
	if !strings.HasPrefix(l, " ") {
		return false
	}
	i := strings.LastIndex(l, " | ")
	if i < 0 {
		return false
	}
	r := strings.TrimSpace(l[i+3:])
	return r != "" && (isDigit(r[0]) || strings.HasPrefix(r, "Bin"))
}

func diffStatSummary(l string) bool {
	t := strings.TrimSpace(l)
	return strings.Contains(t, " changed") && (strings.Contains(t, " file changed") || strings.Contains(t, " files changed"))
}

func detectGitLog(d *doc) bool {
	commits := count(d, func(i int) bool { return gitCommitLine(d.line(i)) })
	if commits >= 2 {
		return true
	}
	nb := nonBlank(d)
	one := count(d, func(i int) bool { return gitOneline(d.line(i)) })
	return one >= 5 && one*10 >= nb*8
}

func planGitLog(d *doc, o Options) *plan {
	p := newPlan(d)
	commits := 0
	for i := range d.lines {
		if gitCommitLine(d.line(i)) {
			commits++
		}
	}
	if commits < 2 {
		// --oneline: every line is a commit; keep the newest and oldest.
		p.headTail(o.HeadLines*2, o.TailLines)
		p.note = fmt.Sprintf("[git log: %d commits, one per line]", d.n())
		return p
	}
	var evidence []string
	bodies, stats, hunks := 0, 0, 0
	state := "" // "header", "message", "patch"
	subject := false
	for i := 0; i < d.n(); i++ {
		l := d.line(i)
		switch {
		case gitCommitLine(l):
			state, subject = "header", false
			p.set(i, protect)
			evidence = append(evidence, l)
		case state == "header" && (strings.HasPrefix(l, "Merge: ")):
			p.set(i, keep)
		case state == "header" && l == "":
			state = "message"
		case state == "header":
			// Author:, Date:, and other header fields.
		case diffStatSummary(l):
			p.set(i, protect)
			evidence = append(evidence, l)
		case diffStatLine(l):
			stats++
		case strings.HasPrefix(l, "diff --git "):
			state = "patch"
			p.set(i, keep)
		case state == "patch":
			hunks++
		case state == "message" && strings.HasPrefix(l, "    ") && !subject:
			subject = true
			p.set(i, protect)
			evidence = append(evidence, l)
		case state == "message" && !d.blank(i):
			bodies++
		}
	}
	p.quiet = true
	p.evidence = evidence
	if evidence == nil {
		p.evidence = []string{}
	}
	p.note = fmt.Sprintf("[git log: %d commits with subjects kept; author and date lines, %d message body line(s), %d stat line(s) and %d patch line(s) elided]",
		commits, bodies, stats, hunks)
	return p
}

func detectDiffStat(d *doc) bool {
	nb := nonBlank(d)
	n := count(d, func(i int) bool { return diffStatLine(d.line(i)) })
	return n >= 5 && n*10 >= nb*8
}

func planDiffStat(d *doc, o Options) *plan {
	p := newPlan(d)
	files := 0
	for i := range d.lines {
		l := d.line(i)
		switch {
		case diffStatSummary(l):
			p.set(i, protect)
		case diffStatLine(l):
			files++
		default:
			p.set(i, keep)
		}
	}
	p.headTail(o.HeadLines, o.TailLines)
	p.note = fmt.Sprintf("[diff stat: %d file line(s); the middle entries elided]", files)
	return p
}
