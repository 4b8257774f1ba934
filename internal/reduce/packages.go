package reduce

import (
	"fmt"
	"strings"
)

// Package lists: dpkg -l, npm ls (tree), pip list and pip freeze, apt list.
// Headers, the first and last rows, every package in an abnormal state
// (dpkg status other than "ii"; npm UNMET, invalid, extraneous, missing or
// ERR! lines, with the rows of the tree they hang under) and every error
// line are kept; the other rows are counted.

// dpkgRow reports whether l is a dpkg -l row and returns its status.
func dpkgRow(l string) (string, bool) {
	if len(l) < 4 || l[2] != ' ' && l[3] != ' ' {
		return "", false
	}
	if !strings.ContainsRune("uihrp", rune(l[0])) || !strings.ContainsRune("ncHUFWti", rune(l[1])) {
		return "", false
	}
	var buf [3]string
	f := fields(l, buf[:0])
	if len(f) < 3 {
		return "", false
	}
	return f[0], true
}

func npmTreeLine(l string) bool {
	return (strings.Contains(l, "├──") || strings.Contains(l, "└──") || strings.Contains(l, "+--") || strings.Contains(l, "`--")) && strings.Contains(l, "@")
}

// npmNode is a row of an npm tree: its depth and line.
type npmNode struct{ depth, line int }

// npmDepth returns the byte offset of the branch of an npm tree row
// ("├──", "└─┬", "+--", "`--"), which grows with its depth, or -1.
func npmDepth(l string) int {
	if !strings.Contains(l, "@") {
		return -1
	}
	for i := 0; i+1 < len(l); i++ {
		switch {
		case strings.HasPrefix(l[i:], "├─"), strings.HasPrefix(l[i:], "└─"), strings.HasPrefix(l[i:], "+--"), strings.HasPrefix(l[i:], "`--"):
			return i
		case l[i] != ' ' && l[i] != '|' && !strings.HasPrefix(l[i:], "│"):
			return -1
		}
		if strings.HasPrefix(l[i:], "│") {
			i += len("│") - 1
		}
	}
	return -1
}

func npmProblem(l string) bool {
	return strings.Contains(l, "UNMET") || strings.Contains(l, " invalid") || strings.Contains(l, " extraneous") ||
		strings.Contains(l, "missing") || strings.Contains(l, "npm ERR!") || strings.Contains(l, "npm error")
}

func pipRow(l string) bool {
	if i := strings.Index(l, "=="); i > 0 && !strings.ContainsAny(l[:i], " \t") {
		return true
	}
	if i := strings.Index(l, " @ "); i > 0 && !strings.ContainsAny(l[:i], " \t") {
		return true
	}
	var buf [3]string
	f := fields(l, buf[:0])
	return len(f) == 2 && f[1] != "" && isDigit(f[1][0]) // pip list table rows
}

func aptRow(l string) bool {
	i := strings.IndexByte(l, '/')
	return i > 0 && !strings.ContainsAny(l[:i], " \t") && strings.Contains(l, "[installed")
}

func packageKind(d *doc) string {
	nb := nonBlank(d)
	if nb < 5 {
		return ""
	}
	dpkg := count(d, func(i int) bool { _, ok := dpkgRow(d.line(i)); return ok })
	if dpkg*10 >= nb*7 {
		return "dpkg"
	}
	if npm := count(d, func(i int) bool { return npmTreeLine(d.line(i)) }); npm*10 >= nb*6 {
		return "npm"
	}
	if pip := count(d, func(i int) bool { return pipRow(d.line(i)) }); pip*10 >= nb*8 {
		return "pip"
	}
	if apt := count(d, func(i int) bool { return aptRow(d.line(i)) }); apt*10 >= nb*8 {
		return "apt"
	}
	return ""
}

func detectPackages(d *doc) bool { return packageKind(d) != "" }

func planPackages(d *doc, o Options) *plan {
	p := newPlan(d)
	kind := packageKind(d)
	rows, flagged := 0, 0
	var chain []npmNode // npm: the rows above the current one in the tree
	for i := range d.lines {
		l := d.line(i)
		switch kind {
		case "dpkg":
			if st, ok := dpkgRow(l); ok {
				rows++
				if st != "ii" {
					flagged++
					p.set(i, protect)
				}
				continue
			}
			p.set(i, keep) // the header block
		case "npm":
			depth := npmDepth(l)
			if depth >= 0 {
				// The packages this row hangs under, nearest last.
				for len(chain) > 0 && chain[len(chain)-1].depth >= depth {
					chain = chain[:len(chain)-1]
				}
			}
			if npmProblem(l) {
				flagged++
				p.set(i, protect)
				for _, a := range chain {
					p.set(a.line, keep)
				}
			} else if depth < 0 {
				p.set(i, keep)
			}
			if depth >= 0 {
				rows++
				chain = append(chain, npmNode{depth, i})
			}
		default:
			if (kind == "pip" && pipRow(l)) || (kind == "apt" && aptRow(l)) {
				rows++
				continue
			}
			p.universal(d, i, i+1, o)
			p.set(i, keep)
		}
	}
	p.headTail(o.HeadLines, o.TailLines)
	p.note = fmt.Sprintf("[%s package list: %d package(s), %d in an abnormal state kept; the other rows elided]", kind, rows, flagged)
	return p
}
