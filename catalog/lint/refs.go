package lint

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// mdLink is a link destination found in markdown.
type mdLink struct {
	target string
	off    int // byte offset of the destination in the file
}

// scanLinks finds the destinations of inline links and images
// ([text](dest), ![alt](dest)) and of link reference definitions
// ([label]: dest) in data from byte offset start, skipping fenced code
// blocks and inline code spans.
func scanLinks(data []byte, start int) []mdLink {
	var out []mdLink
	var fence []byte // the open fence ("```" or "~~~~"…), nil outside code
	pos := start
	for pos < len(data) {
		line, next := catalog.CutLine(data, pos)
		trimmed := bytes.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != nil {
			if indent < 4 && bytes.HasPrefix(trimmed, fence) && len(bytes.TrimSpace(bytes.TrimLeft(trimmed, string(fence[:1])))) == 0 {
				fence = nil
			}
			pos = next
			continue
		}
		if indent < 4 && (bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~"))) {
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = trimmed[:n]
			pos = next
			continue
		}
		if len(trimmed) > 0 && trimmed[0] == '[' && indent < 4 {
			if m := refDefRe().FindSubmatchIndex(line); m != nil {
				out = append(out, mdLink{target: string(line[m[2]:m[3]]), off: pos + m[2]})
				pos = next
				continue
			}
		}
		if bytes.IndexByte(line, ']') < 0 {
			pos = next // no link on this line
			continue
		}
		out = append(out, inlineLinks(line, pos)...)
		pos = next
	}
	return out
}

// refDefRe matches a link reference definition; footnotes ([^1]: text)
// are not links.
var refDefRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}\[[^\]^][^\]]*\]:[ \t]*<?([^\s>]+)>?`) })

// inlineLinks finds ](dest) destinations on one line outside code spans.
func inlineLinks(line []byte, base int) []mdLink {
	var out []mdLink
	// The runs of backticks of the line by length, found on the first
	// backtick, so that the closing run of a code span is looked up
	// rather than searched for (a search per length would cost the line's
	// length times the number of lengths).
	var runs map[int][]int
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '`':
			// Skip a code span: a run of n backticks up to the next run of
			// exactly n.
			if runs == nil {
				runs = tickRuns(line[i:], i)
			}
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			starts := runs[n]
			k := sort.SearchInts(starts, i+n)
			if k < len(starts) {
				i = starts[k] + n - 1
			} else {
				i += n - 1
			}
		case '\\':
			i++ // an escaped character
		case ']':
			if i+1 >= len(line) || line[i+1] != '(' {
				continue
			}
			j := i + 2
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			if j < len(line) && line[j] == '<' {
				end := bytes.IndexByte(line[j+1:], '>')
				if end < 0 {
					return out // no '>' anywhere further on this line
				}
				out = append(out, mdLink{target: string(line[j+1 : j+1+end]), off: base + j + 1})
				i = j + 1 + end
				continue
			}
			k, depth := j, 0
			for k < len(line) {
				c := line[k]
				if c == ' ' || c == '\t' {
					break
				}
				if c == '(' {
					depth++
				} else if c == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
				k++
			}
			if k > j {
				out = append(out, mdLink{target: string(line[j:k]), off: base + j})
			}
			i = k
		}
	}
	return out
}

// tickRuns returns the offsets (from base) where the runs of backticks of
// s start, by the length of the run. An escaped backtick still counts: a
// code span may end in a backslash.
func tickRuns(s []byte, base int) map[int][]int {
	runs := map[int][]int{}
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			continue
		}
		m := 1
		for i+m < len(s) && s[i+m] == '`' {
			m++
		}
		runs[m] = append(runs[m], base+i)
		i += m - 1
	}
	return runs
}

var schemeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`) })

// localTarget returns the path part of a link destination that names a
// local file relative to the linking file, or "" for URLs, anchors,
// absolute paths and templates.
func localTarget(t string) (string, bool) {
	t = strings.TrimSpace(t)
	switch {
	case t == "", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/"):
		return "", false
	case strings.ContainsAny(t, "{}") || strings.Contains(t, "$"):
		return "", false // a template placeholder, resolved by someone else
	}
	if schemeRe().MatchString(t) {
		// A Windows drive path (C:\x or C:/x) is local but absolute.
		return "", false
	}
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	if t == "" {
		return "", false
	}
	if dec, err := url.PathUnescape(t); err == nil {
		t = dec
	}
	return t, true
}

// refKind classifies a finding of the reference check; each reference
// rule reports one kind.
type refKind int

const (
	refBroken    refKind = iota + 1 // the target does not exist
	refOutside                      // the target is outside the skill folder
	refBackslash                    // the link uses backslashes
	refDeep                         // a file reachable only through another reference file
)

// refFinding is one finding of the reference check.
type refFinding struct {
	kind      refKind
	file      string
	line, col int
	msg       string
}

// maxRefFiles bounds the reference files one skill's check reads.
const maxRefFiles = 100

// references checks the local links of a skill: broken targets, targets
// outside the skill folder, backslashes, and files reachable only through
// another reference file.
func (u *Skill) references() []refFinding {
	u.refsOnce.Do(func() {
		if u.doc == nil || u.notSkill {
			return
		}
		newRefWalk(u).run()
	})
	return u.refs
}

// refFile is a file whose links the reference check reads.
type refFile struct {
	path  string // as reached, for messages
	abs   string
	depth int
}

// refWalk reads a skill's links breadth first, from SKILL.md down through
// the reference files it reaches.
type refWalk struct {
	u        *Skill
	skillDir string
	exists   map[string]bool
	level    map[string]int
	queue    []refFile
}

func newRefWalk(u *Skill) *refWalk {
	// Paths stay as reached (relative or absolute alike): joining and
	// Rel need no working directory.
	mainAbs := filepath.Clean(u.src.Path)
	return &refWalk{
		u:        u,
		skillDir: filepath.Dir(mainAbs),
		exists:   map[string]bool{},
		level:    map[string]int{mainAbs: 0},
		queue:    []refFile{{path: u.src.Path, abs: mainAbs}},
	}
}

func (w *refWalk) run() {
	d := w.u.doc
	read := 0
	for len(w.queue) > 0 {
		rf := w.queue[0]
		w.queue = w.queue[1:]
		var data []byte
		// The file positions are computed in: the skill's own
		// document, or a reference file's text.
		pos := d
		start := 0
		if rf.depth == 0 {
			data = d.Raw
			start = len(d.Raw) - len(d.Body)
		} else {
			if read >= maxRefFiles {
				break
			}
			read++
			b, err := catalog.ReadSkillFile(rf.path, nil)
			if err != nil {
				continue
			}
			data = b
			pos = &catalog.SkillDoc{Path: rf.path, Raw: data}
		}
		var next []refFile
		for _, l := range scanLinks(data, start) {
			if n, ok := w.link(rf, pos, l); ok {
				next = append(next, n)
			}
		}
		w.queue = append(w.queue, next...)
	}
}

func (w *refWalk) stat(p string) bool {
	if v, ok := w.exists[p]; ok {
		return v
	}
	_, err := os.Stat(p)
	w.exists[p] = err == nil
	return err == nil
}

// link checks one link of rf and returns the reference file it leads to
// when that is to be read next.
func (w *refWalk) link(rf refFile, pos *catalog.SkillDoc, l mdLink) (refFile, bool) {
	u := w.u
	add := func(kind refKind, format string, args ...any) {
		// Positions are computed only for findings.
		line, col := pos.Pos(l.off)
		u.refs = append(u.refs, refFinding{kind: kind, file: rf.path, line: line, col: col, msg: fmt.Sprintf(format, args...)})
	}
	t, ok := localTarget(l.target)
	if !ok {
		if len(l.target) > 2 && l.target[1] == ':' && strings.Contains(l.target, `\`) {
			add(refBackslash, "link \"%s\" uses backslashes: use forward slashes", l.target)
		}
		return refFile{}, false
	}
	if strings.Contains(t, `\`) {
		add(refBackslash, "link \"%s\" uses backslashes: use forward slashes", l.target)
		t = strings.ReplaceAll(t, `\`, "/")
	}
	abs := filepath.Join(filepath.Dir(rf.abs), filepath.FromSlash(t))
	outside := false
	if u.dirSkill {
		if rel, err := filepath.Rel(w.skillDir, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			outside = true
			add(refOutside, "link %q points outside the skill folder", l.target)
		}
	}
	if !w.stat(abs) {
		add(refBroken, "link %q points to a file that does not exist", l.target)
		return refFile{}, false
	}
	if outside || !u.dirSkill {
		return refFile{}, false
	}
	if _, seen := w.level[abs]; seen {
		return refFile{}, false
	}
	w.level[abs] = rf.depth + 1
	if rf.depth >= 1 {
		shown := t
		if rel, err := filepath.Rel(w.skillDir, abs); err == nil {
			shown = filepath.ToSlash(rel)
		}
		add(refDeep, "%s is linked only from this reference file, not from %s: keep references one level deep", shown, filepath.Base(u.src.Path))
	}
	if !strings.EqualFold(filepath.Ext(abs), ".md") {
		return refFile{}, false
	}
	// A reference file is read only when it is a regular file that stays
	// in the skill folder once symlinks are resolved.
	if _, err := untrusted.Within(w.skillDir, abs); err != nil {
		return refFile{}, false
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return refFile{}, false
	}
	return refFile{path: filepath.Join(filepath.Dir(rf.path), filepath.FromSlash(t)), abs: abs, depth: rf.depth + 1}, true
}
