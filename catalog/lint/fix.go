package lint

// Fixes: edits of a skill file that resolve a finding, applied by
// `skillopt lint --fix` until nothing more is fixable.

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// Fix is a change of one skill file that resolves a finding.
type Fix struct {
	// Unsafe marks a fix that changes more than the form of the file (a
	// list becomes a string, a name loses characters): it is applied only
	// when unsafe fixes are asked for.
	Unsafe bool
	// Edits replace byte ranges of the file as it was checked; they do not
	// overlap.
	Edits []Edit
	// Remove is, instead of edits, a leftover file to delete (SK065).
	Remove string
}

// Edit replaces the bytes [Start, End) with Text.
type Edit struct {
	Start, End int
	Text       string
}

// diagKey identifies a diagnostic of a run.
type diagKey struct {
	rule, file, msg string
	line, col       int
}

func keyOf(d rules.Diagnostic) diagKey {
	return diagKey{d.Rule, d.File, d.Message, d.Line, d.Column}
}

// fixTarget is what re-checking a skill file needs.
type fixTarget struct {
	src      catalog.Source
	miscased bool
	dirSkill bool
}

// Fixable reports whether a finding has a fix, and whether it is unsafe.
func (r *Report) Fixable(d rules.Diagnostic) (fixable, unsafe bool) {
	f := r.fixes[keyOf(d)]
	if f == nil {
		return false, false
	}
	return true, f.Unsafe
}

// FixCounts counts the findings with a safe and with an unsafe fix.
func (r *Report) FixCounts() (safe, unsafe int) {
	for _, d := range r.Diagnostics {
		if ok, u := r.Fixable(d); ok && u {
			unsafe++
		} else if ok {
			safe++
		}
	}
	return safe, unsafe
}

// Removals lists the files whose removal fixes a finding of the run
// (leftover temporary files), each once, in the order of the findings.
// Fixes does not include them: a caller deletes them, with
// atomicfile.RemoveTemp.
func (r *Report) Removals() []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range r.Diagnostics {
		if f := r.fixes[keyOf(d)]; f != nil && f.Remove != "" && !seen[f.Remove] {
			seen[f.Remove] = true
			out = append(out, f.Remove)
		}
	}
	return out
}

// FixOptions choose the fixes to apply.
type FixOptions struct {
	// Unsafe applies unsafe fixes too.
	Unsafe bool
}

// FileFix is the fixed content of one skill file.
type FileFix struct {
	// Path is the file as linted; Before and After its content.
	Path          string
	Before, After []byte
	// Fixed counts the findings the fixes resolved.
	Fixed int
}

// maxFixRounds bounds the fix-and-recheck loop of one file, and
// maxSingleTries the fixes tried one by one in a round whose fixes fail
// together.
const (
	maxFixRounds   = 10
	maxSingleTries = 16
)

// Fixes computes the fixed content of every skill file with a fixable
// finding: fixes are applied, the file is checked again and fixed again,
// until nothing fixable is left. A round is kept only when it leaves no
// finding that was not there before (when it does, its fixes are tried one
// at a time). Files reached through a symbolic link are left alone. The
// files are not written.
func (r *Report) Fixes(o FixOptions) ([]FileFix, error) {
	var paths []string
	for p := range r.targets {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	wanted := map[string]bool{}
	for _, d := range r.Diagnostics {
		if ok, unsafe := r.Fixable(d); ok && (!unsafe || o.Unsafe) {
			wanted[d.File] = true
		}
	}
	var out []FileFix
	for _, p := range paths {
		t := r.targets[p]
		if !wanted[p] {
			continue
		}
		if linked(p) {
			continue
		}
		before, err := catalog.ReadSkillFile(p, nil)
		if err != nil {
			return out, fmt.Errorf("%s: %w", p, err)
		}
		after, n, err := r.fixFile(t, before, o)
		if err != nil {
			return out, err
		}
		if n > 0 && !bytes.Equal(before, after) {
			out = append(out, FileFix{Path: p, Before: before, After: after, Fixed: n})
		}
	}
	return out, nil
}

// linked reports whether a path is, or passes through, a symbolic link.
func linked(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return true
	}
	real, err := filepath.EvalSymlinks(abs)
	return err != nil || real != abs
}

// recheck lints the content of a file as the run did, inline and
// configured suppressions applied, and returns the findings and their
// fixes.
func (r *Report) recheck(t *fixTarget, data []byte) ([]rules.Diagnostic, []*Fix, error) {
	u := &Skill{src: t.src, miscased: t.miscased, dirSkill: t.dirSkill}
	diags, fixes, _, err := r.x.lintSkillData(u, data)
	if err != nil {
		return nil, nil, err
	}
	byKey := map[diagKey]*Fix{}
	for i, f := range fixes {
		byKey[keyOf(diags[i])] = f
	}
	diags, _ = filterInline(u.inline, diags)
	diags, _ = suppress(r.opts, r.x.settings, diags, &Report{})
	out := make([]*Fix, len(diags))
	for i, d := range diags {
		out[i] = byKey[keyOf(d)]
	}
	return diags, out, nil
}

// fixFile applies the fixes of one file round after round.
func (r *Report) fixFile(t *fixTarget, data []byte, o FixOptions) ([]byte, int, error) {
	fixed := 0
	diags, fixes, err := r.recheck(t, data)
	if err != nil {
		return nil, 0, err
	}
	for round := 0; round < maxFixRounds; round++ {
		var cands []*Fix
		for _, f := range fixes {
			if f != nil && (!f.Unsafe || o.Unsafe) {
				cands = append(cands, f)
			}
		}
		if len(cands) == 0 {
			break
		}
		applied := append([]*Fix(nil), cands...)
		next, nextDiags, nextFixes, ok, err := r.tryFixes(t, data, diags, applied)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			// Together they break something: one at a time, the first
			// that works.
			for i, f := range cands {
				if i == maxSingleTries {
					break
				}
				applied = []*Fix{f}
				next, nextDiags, nextFixes, ok, err = r.tryFixes(t, data, diags, applied)
				if err != nil {
					return nil, 0, err
				}
				if ok {
					break
				}
			}
		}
		if !ok {
			break
		}
		// The findings fixed are those whose fix was applied (one fix
		// offered by several rules fixes each of their findings).
		done := newFixSet(applied)
		for _, f := range fixes {
			if f != nil && (!f.Unsafe || o.Unsafe) && done.has(f) {
				fixed++
			}
		}
		data, diags, fixes = next, nextDiags, nextFixes
	}
	return data, fixed, nil
}

// tryFixes applies the non-overlapping fixes of cands (identical fixes
// once) and checks the result: fewer findings, and no rule with more than
// before. While the frontmatter cannot be read, rules that read it are
// expected to appear once it can; only the frontmatter rules must not.
func (r *Report) tryFixes(t *fixTarget, data []byte, diags []rules.Diagnostic, cands []*Fix) ([]byte, []rules.Diagnostic, []*Fix, bool, error) {
	var edits []Edit
	set := newEditSet(cands)
	for i, f := range cands {
		if set.conflicts(f.Edits) {
			cands[i] = nil // not applied in this round
			continue
		}
		set.add(f.Edits)
		edits = append(edits, f.Edits...)
	}
	next, ok := applyEdits(data, edits)
	if !ok || bytes.Equal(next, data) {
		return nil, nil, nil, false, nil
	}
	nd, nf, err := r.recheck(t, next)
	if err != nil {
		return nil, nil, nil, false, err
	}
	before, after := countRules(diags), countRules(nd)
	unreadable, fmBefore, fmAfter := false, 0, 0
	for id := range frontmatterRules {
		unreadable = unreadable || before[id] > 0
		fmBefore += before[id]
		fmAfter += after[id]
	}
	for id, n := range after {
		if n > before[id] && (!unreadable || frontmatterRules[id]) {
			return nil, nil, nil, false, nil
		}
	}
	if len(nd) >= len(diags) && !(unreadable && fmAfter < fmBefore) {
		return nil, nil, nil, false, nil
	}
	return next, nd, nf, true, nil
}

// fixSet is a set of fixes, a fix being in it when it, or a fix with the
// same edits, was added.
type fixSet struct {
	ptr  map[*Fix]bool
	text map[string]bool
}

func newFixSet(fs []*Fix) *fixSet {
	s := &fixSet{ptr: map[*Fix]bool{}, text: map[string]bool{}}
	for _, f := range fs {
		if f != nil {
			s.ptr[f] = true
			s.text[editsKey(f.Edits)] = true
		}
	}
	return s
}

func (s *fixSet) has(f *Fix) bool { return s.ptr[f] || s.text[editsKey(f.Edits)] }

// editsKey spells a list of edits as a string, equal for equal lists.
func editsKey(es []Edit) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%d,%d,%d:%s", e.Start, e.End, len(e.Text), e.Text)
	}
	return b.String()
}

// frontmatterRules are the rules about reading the frontmatter at all.
var frontmatterRules = map[string]bool{"SK003": true, "SK004": true, "SK006": true, "SK007": true, "SK008": true}

func countRules(diags []rules.Diagnostic) map[string]int {
	m := map[string]int{}
	for _, d := range diags {
		m[d.Rule]++
	}
	return m
}

// editSet holds the edits accepted in a round and tells whether another
// edit conflicts with them: it overlaps one (an insertion conflicts with a
// replacement around it, not with one starting or ending where it is), or
// equals one (the same fix offered by two rules applies once). The offsets
// of every edit that may be asked about are known in advance, so that a
// question costs O(log n) however many edits were accepted.
type editSet struct {
	offsets []int // sorted, distinct
	// cover counts +1 at the start and -1 at the end of every accepted
	// replacement, so that its prefix sums count the replacements over
	// an offset; starts counts replacements by their start, points
	// insertions by their offset.
	cover, starts, points fenwick
	same                  map[Edit]bool
}

func newEditSet(cands []*Fix) *editSet {
	var offs []int
	for _, f := range cands {
		for _, e := range f.Edits {
			offs = append(offs, e.Start, e.End)
		}
	}
	sort.Ints(offs)
	offs = slices.Compact(offs)
	n := len(offs)
	return &editSet{offsets: offs, cover: make(fenwick, n+1), starts: make(fenwick, n+1), points: make(fenwick, n+1), same: map[Edit]bool{}}
}

func (s *editSet) index(off int) int { return sort.SearchInts(s.offsets, off) }

func (s *editSet) conflicts(es []Edit) bool {
	for _, e := range es {
		if s.same[e] {
			return true
		}
		a, b := s.index(e.Start), s.index(e.End)
		over := s.cover.sum(a) // replacements with start <= e.Start < end
		if e.Start == e.End {
			// Replacements strictly around the insertion.
			if over-s.starts.between(a, a) > 0 {
				return true
			}
			continue
		}
		if over > 0 || s.starts.between(a+1, b-1) > 0 || s.points.between(a+1, b-1) > 0 {
			return true
		}
	}
	return false
}

func (s *editSet) add(es []Edit) {
	for _, e := range es {
		s.same[e] = true
		a, b := s.index(e.Start), s.index(e.End)
		if e.Start == e.End {
			s.points.add(a, 1)
			continue
		}
		s.cover.add(a, 1)
		s.cover.add(b, -1)
		s.starts.add(a, 1)
	}
}

// fenwick is a binary indexed tree of counts over indexes 0…len-2.
type fenwick []int

func (f fenwick) add(i, v int) {
	for i++; i < len(f); i += i & -i {
		f[i] += v
	}
}

// sum is the total of indexes 0…i.
func (f fenwick) sum(i int) int {
	t := 0
	for i++; i > 0; i -= i & -i {
		t += f[i]
	}
	return t
}

// between is the total of indexes i…j (0 when j < i).
func (f fenwick) between(i, j int) int {
	if j < i {
		return 0
	}
	return f.sum(j) - f.sum(i-1)
}

// applyEdits applies non-overlapping edits; insertions at one offset keep
// their order and come before a replacement starting there.
func applyEdits(data []byte, edits []Edit) ([]byte, bool) {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End-es[i].Start < es[j].End-es[j].Start
	})
	var b bytes.Buffer
	pos := 0
	for _, e := range es {
		if e.Start < pos || e.End < e.Start || e.End > len(data) {
			return nil, false
		}
		b.Write(data[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.Write(data[pos:])
	return b.Bytes(), true
}

// The positions of a file, for building edits.

// lineEnd returns the offset of the end of the line starting at off
// (before its break) and the break ("" at the end of the file).
func lineEnd(data []byte, off int) (int, string) {
	i := bytes.IndexAny(data[off:], "\r\n")
	if i < 0 {
		return len(data), ""
	}
	end := off + i
	if data[end] == '\r' && end+1 < len(data) && data[end+1] == '\n' {
		return end, "\r\n"
	}
	return end, string(data[end])
}

// lineBreak is the file's line break, "\n" when it has none.
func lineBreak(data []byte) string {
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			return "\r\n"
		}
		return string(data[i])
	}
	return "\n"
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// nodeOffset is the offset of a frontmatter node (its line counts from the
// line after the opening ---).
func nodeOffset(d *catalog.SkillDoc, n *yaml.Node) int {
	return d.Offset(n.Line+1, n.Column)
}

// scalarSpan returns the byte span of a scalar written on one line: plain,
// single- or double-quoted. ok is false for block scalars, scalars over
// several lines and anything not found where the parser said.
func scalarSpan(d *catalog.SkillDoc, n *yaml.Node) (start, end int, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Line < 1 {
		return 0, 0, false
	}
	start = nodeOffset(d, n)
	line := d.Raw[start:max(start, d.LineEnd(n.Line+1))]
	switch n.Style {
	case 0:
		if n.Value == "" || !bytes.HasPrefix(line, []byte(n.Value)) {
			return 0, 0, false
		}
		rest := line[len(n.Value):]
		if t := bytes.TrimLeft(rest, " \t"); len(t) > 0 && t[0] != '#' {
			return 0, 0, false // continues (a multi-line plain scalar)
		}
		return start, start + len(n.Value), true
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(line); i++ {
			switch line[i] {
			case '\\':
				i++
			case '"':
				return start, start + i + 1, true
			}
		}
	case yaml.SingleQuotedStyle:
		for i := 1; i < len(line); i++ {
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
					continue
				}
				return start, start + i + 1, true
			}
		}
	}
	return 0, 0, false
}

// yamlQuote writes s as a double-quoted YAML scalar.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == 0x85 || r == 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteFix quotes a scalar written on one line, keeping its text.
func quoteFix(d *catalog.SkillDoc, n *yaml.Node) *Fix {
	start, end, ok := scalarSpan(d, n)
	if !ok || n.Style != 0 {
		return nil
	}
	return &Fix{Edits: []Edit{{start, end, yamlQuote(n.Value)}}}
}

// plainSafe reports whether s can be written as a plain YAML scalar and
// read back as the same string.
func plainSafe(s string) bool {
	if s == "" {
		return false
	}
	if plainWord(s) {
		return true
	}
	var v any
	if err := yaml.Unmarshal([]byte("v: "+s), &v); err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	got, ok := m["v"].(string)
	return ok && got == s
}

// plainWord reports whether s is a word that YAML reads as a string
// without parsing it: a letter, then letters, digits, _ and -, and none of
// the words YAML 1.1 or 1.2 read as a boolean or null. Numbers, dates and
// the special floats start with a digit, a sign or a dot.
func plainWord(s string) bool {
	if len(s) == 0 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

// scalarYAML renders a value for a new line of YAML: plain when that reads
// back the same, double-quoted otherwise.
func scalarYAML(s string) string {
	if plainSafe(s) && !strings.ContainsAny(s, "#:'\"") {
		return s
	}
	return yamlQuote(s)
}

// fieldLines returns the lines a top-level field takes: from its key to
// the last line before the next key (or the closing ---) that is not
// blank or a comment.
func fieldLines(d *catalog.SkillDoc, f *catalog.Field) (first, last int) {
	next := d.CloseLine
	// The fields are in the order of their lines: the first one on a
	// later line is the next key.
	if i := sort.Search(len(d.Fields), func(i int) bool { return d.Fields[i].Line > f.Line }); i < len(d.Fields) && d.Fields[i].Line < next {
		next = d.Fields[i].Line
	}
	last = f.Line
	for l := next - 1; l > f.Line; l-- {
		t := bytes.TrimSpace(d.Line(l))
		if len(t) > 0 && t[0] != '#' {
			last = l
			break
		}
	}
	return f.Line, last
}

// metadataTarget is where moveToMetadata puts fields, worked out once for
// all the fields of a document.
type metadataTarget struct {
	brk string
	// at is the offset of the insertion; indent the indentation of the
	// keys of metadata, "" when there is no metadata field yet.
	at     int
	indent string
	keys   map[string]bool // the keys metadata has
	ok     bool            // false: metadata cannot take fields
}

func newMetadataTarget(d *catalog.SkillDoc) *metadataTarget {
	t := &metadataTarget{brk: lineBreak(d.Raw)}
	m := d.Field("metadata")
	if m == nil {
		t.at, t.ok = d.LineStart(d.CloseLine), true
		return t
	}
	mn := m.Node
	if mn.Kind != yaml.MappingNode || mn.Style&yaml.FlowStyle != 0 || len(mn.Content) == 0 || m.Col != 1 {
		return t
	}
	t.indent = strings.Repeat(" ", mn.Content[0].Column-1)
	if mn.Content[0].Line+1 == m.Line || t.indent == "" {
		return t // metadata: {a: b} on the key's line, or not indented
	}
	t.keys = map[string]bool{}
	for i := 0; i+1 < len(mn.Content); i += 2 {
		t.keys[mn.Content[i].Value] = true
	}
	_, mlast := fieldLines(d, m)
	t.at, t.ok = d.LineStart(mlast+1), true
	return t
}

// moveToMetadata moves an unknown top-level field under metadata as a
// string: a scalar keeps its text (safe); a list of scalars becomes one
// comma-separated string and an empty value an empty string (unsafe).
// Other values, a metadata that is not a block mapping, or a metadata
// that has the key already give no fix. t is newMetadataTarget(d).
func moveToMetadata(d *catalog.SkillDoc, f *catalog.Field, t *metadataTarget) *Fix {
	if !t.ok || t.keys[f.Key] || f.Col != 1 || f.KeyNode == nil || f.KeyNode.Style != 0 {
		return nil
	}
	var value string
	unsafe := false
	switch n := f.Node; {
	case catalog.IsNull(n):
		unsafe = true
	case n.Kind == yaml.ScalarNode:
		value = n.Value
	case n.Kind == yaml.SequenceNode:
		var parts []string
		for _, it := range n.Content {
			it = catalog.ResolveAlias(it)
			if it.Kind != yaml.ScalarNode {
				return nil
			}
			parts = append(parts, it.Value)
		}
		value, unsafe = strings.Join(parts, ", "), true
	default:
		return nil
	}
	first, last := fieldLines(d, f)
	delStart := d.LineStart(first)
	delEnd := d.LineStart(last + 1)
	entry := scalarYAML(f.Key) + ": " + scalarYAML(value)
	ins := Edit{t.at, t.at, t.indent + entry + t.brk}
	if t.indent == "" {
		ins.Text = "metadata:" + t.brk + "  " + entry + t.brk
	}
	if ins.Start > delStart && ins.Start < delEnd {
		return nil
	}
	return &Fix{Unsafe: unsafe, Edits: []Edit{{delStart, delEnd, ""}, ins}}
}

// valueYAMLFix quotes the value of a top-level "key: value: more" line, the
// usual cause of a YAML error in frontmatter.
func valueYAMLFix(d *catalog.SkillDoc, line int) *Fix {
	if line < 2 || (d.CloseLine > 0 && line >= d.CloseLine) {
		return nil
	}
	data := d.Raw
	start := d.LineStart(line)
	end := d.LineEnd(line)
	text := string(data[start:end])
	key, rest, ok := strings.Cut(text, ": ")
	if !ok || key == "" || strings.TrimLeft(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
		return nil
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || !strings.Contains(rest, ": ") || strings.ContainsAny(rest[:1], "\"'[{|>&*!%@`#-?") || strings.Contains(rest, " #") {
		return nil
	}
	// The next line must not continue the value.
	if next := d.Line(line + 1); len(next) > 0 && (next[0] == ' ' || next[0] == '\t') {
		return nil
	}
	vs := start + len(key) + 2
	for data[vs] == ' ' || data[vs] == '\t' {
		vs++
	}
	return &Fix{Edits: []Edit{{vs, vs + len(rest), yamlQuote(rest)}}}
}
