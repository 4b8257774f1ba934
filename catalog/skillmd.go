package catalog

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// MaxSkillFileBytes bounds how much of a skill file is read; larger files
// are an error rather than a memory spike.
const MaxSkillFileBytes = 16 << 20

// Field is one top-level frontmatter key.
type Field struct {
	Key                 string
	Line, Col           int // 1-based, of the key
	ValueLine, ValueCol int
	Node                *yaml.Node // the value (aliases resolved)
	KeyNode             *yaml.Node
}

// DuplicateKey is a mapping key that repeats (at any depth).
type DuplicateKey struct {
	Key                 string
	Line, Col           int // the repeat
	FirstLine, FirstCol int // the first occurrence
}

// SkillDoc is a parsed SKILL.md (or any markdown file with frontmatter).
type SkillDoc struct {
	Path        string
	Name        string // frontmatter name ("" if absent or null)
	Description string // frontmatter description ("" if absent or null)
	// DisableModelInvocation is disable-model-invocation: true, a YAML
	// boolean judged by its tag ("true" in quotes is a string).
	DisableModelInvocation bool
	Fields                 []Field    // frontmatter keys in order
	Frontmatter            *yaml.Node // the mapping node, nil when there is none
	Body                   []byte     // the markdown after the frontmatter, exactly as in the file
	BodyLine               int        // 1-based line where Body starts
	Raw                    []byte     // the whole file

	// BOM is set when the file starts with a UTF-8 byte order mark.
	BOM bool
	// HasFrontmatter is set when the file opens with a --- line.
	HasFrontmatter bool
	// CloseLine is the line of the closing --- (0 when unclosed).
	CloseLine int
	// FrontmatterText is the YAML between the --- lines, and
	// FrontmatterOffset its byte offset in Raw.
	FrontmatterText   []byte
	FrontmatterOffset int
	// Duplicates lists every repeated mapping key.
	Duplicates []DuplicateKey

	lines *lineIndex
	// fieldAt indexes Fields by key (the first field of each key), so
	// that rules looking up fields cost the same however many there are;
	// indexed is len(Fields) when it was built.
	fieldAt map[string]int
	indexed int
}

// Field returns the first top-level field named key, or nil.
func (d *SkillDoc) Field(key string) *Field {
	if d.fieldAt != nil && d.indexed == len(d.Fields) {
		if i, ok := d.fieldAt[key]; ok {
			return &d.Fields[i]
		}
		return nil
	}
	for i := range d.Fields {
		if d.Fields[i].Key == key {
			return &d.Fields[i]
		}
	}
	return nil
}

// indexFields builds the index of Field.
func (d *SkillDoc) indexFields() {
	d.fieldAt = make(map[string]int, len(d.Fields))
	for i := len(d.Fields) - 1; i >= 0; i-- {
		d.fieldAt[d.Fields[i].Key] = i
	}
	d.indexed = len(d.Fields)
}

// HasSkillFrontmatter reports whether the frontmatter names a skill: it has
// a name or a description key. A root-level README with a title in its
// frontmatter is not a skill.
func (d *SkillDoc) HasSkillFrontmatter() bool {
	return d.Frontmatter != nil && (d.Field("name") != nil || d.Field("description") != nil)
}

// SkillName is the name a loader gives the skill: the frontmatter name when
// it is a non-empty string, else the name of the folder holding the file.
func (d *SkillDoc) SkillName() string {
	if f := d.Field("name"); f != nil && IsString(f.Node) && f.Node.Value != "" {
		return f.Node.Value
	}
	return FolderName(d.Path)
}

// Pos returns the line and column (code points) of a byte offset of Raw.
func (d *SkillDoc) Pos(off int) (line, col int) { return d.index().pos(off) }

// Line returns the text of a 1-based line of Raw without its line break.
func (d *SkillDoc) Line(n int) []byte { return d.index().text(n) }

// LineStart returns the byte offset of Raw where a 1-based line starts,
// after the byte order mark on line 1 (len(Raw) past the last line).
func (d *SkillDoc) LineStart(n int) int { return d.index().lineStart(n) }

// LineEnd returns the byte offset of the end of a 1-based line of Raw,
// before its line break.
func (d *SkillDoc) LineEnd(n int) int { return d.index().lineEnd(n) }

// Offset returns the byte offset of Raw at a 1-based line and column (code
// points); a column past the end of its line gives the end of the line.
// It is the inverse of Pos.
func (d *SkillDoc) Offset(line, col int) int { return d.index().offset(line, col) }

// Lines returns the number of lines of the file (a final line break does
// not start a new line).
func (d *SkillDoc) Lines() int {
	if d.lines != nil {
		return d.lines.lines()
	}
	return countLines(d.Raw)
}

func (d *SkillDoc) index() *lineIndex {
	if d.lines == nil {
		d.lines = newLineIndex(d.Raw)
	}
	return d.lines
}

// DocErrorKind classifies why a file's frontmatter is unusable.
type DocErrorKind int

// The frontmatter errors.
const (
	ErrNoFrontmatter DocErrorKind = iota + 1 // the file does not open with a --- line
	ErrUnclosed                              // no closing --- line
	ErrYAML                                  // YAML syntax error
	ErrDuplicateKey                          // a mapping key repeats
	ErrNotMapping                            // the frontmatter is a list or a scalar
)

// DocError is a frontmatter error at a position of a file.
type DocError struct {
	Path      string
	Line, Col int
	Kind      DocErrorKind
	Msg       string
}

func (e *DocError) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg) }

var bom = []byte{0xEF, 0xBB, 0xBF}

// ParseSkillDoc parses one SKILL.md (or skill .md): strict YAML frontmatter
// between --- lines (CRLF and a UTF-8 BOM tolerated; duplicate keys are an
// error with line:col; unclosed frontmatter is an error). The returned doc
// is never nil: on error it holds what could be read (Raw, Body, and the
// fields when only keys repeat), so a linter can go on checking.
func ParseSkillDoc(path string, data []byte) (*SkillDoc, error) {
	d := &SkillDoc{Path: path, Raw: data, Body: data, BodyLine: 1}
	text := data
	off := 0
	if bytes.HasPrefix(data, bom) {
		d.BOM = true
		text, off = data[3:], 3
		d.Body = text
	}
	first, next := CutLine(text, 0)
	if !isDashes(first) {
		return d, &DocError{Path: path, Line: 1, Col: 1, Kind: ErrNoFrontmatter, Msg: "file does not start with a --- frontmatter line"}
	}
	d.HasFrontmatter = true
	line := 2
	start := next
	for pos := next; pos < len(text); line++ {
		l, n := CutLine(text, pos)
		if isDashes(l) {
			d.CloseLine = line
			d.FrontmatterText = text[start:pos]
			d.FrontmatterOffset = off + start
			d.Body = text[n:]
			d.BodyLine = line + 1
			break
		}
		pos = n
	}
	if d.CloseLine == 0 {
		return d, &DocError{Path: path, Line: 1, Col: 1, Kind: ErrUnclosed, Msg: "frontmatter is not closed by a --- line"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(d.FrontmatterText, &doc); err != nil {
		l, msg := yamlErrorLine(err)
		fl := 2 + l - 1
		if fl >= d.CloseLine {
			fl = d.CloseLine - 1
		}
		if fl < 2 {
			fl = 2
		}
		col := firstNonSpace(d.Line(fl))
		if d.CloseLine == 2 {
			fl, col = 2, 1
		}
		return d, &DocError{Path: path, Line: fl, Col: col, Kind: ErrYAML, Msg: "invalid YAML in frontmatter: " + msg}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		m = doc.Content[0]
	}
	if m.Kind != yaml.MappingNode {
		what := "a scalar"
		if m.Kind == yaml.SequenceNode {
			what = "a list"
		}
		return d, &DocError{Path: path, Line: m.Line + 1, Col: m.Column, Kind: ErrNotMapping, Msg: "frontmatter is " + what + ", not a mapping"}
	}
	d.Frontmatter = m
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], ResolveAlias(m.Content[i+1])
		d.Fields = append(d.Fields, Field{Key: k.Value, Line: k.Line + 1, Col: k.Column, ValueLine: v.Line + 1, ValueCol: v.Column, Node: v, KeyNode: k})
	}
	d.indexFields()
	findDuplicates(m, &d.Duplicates, 0)
	if f := d.Field("name"); f != nil && f.Node.Kind == yaml.ScalarNode && f.Node.Tag != "!!null" {
		d.Name = f.Node.Value
	}
	if f := d.Field("description"); f != nil && f.Node.Kind == yaml.ScalarNode && f.Node.Tag != "!!null" {
		d.Description = f.Node.Value
	}
	if f := d.Field("disable-model-invocation"); f != nil {
		d.DisableModelInvocation = isTrue(f.Node)
	}
	if len(d.Duplicates) > 0 {
		dup := d.Duplicates[0]
		return d, &DocError{Path: path, Line: dup.Line, Col: dup.Col, Kind: ErrDuplicateKey,
			Msg: fmt.Sprintf("duplicate key %q (first at line %d)", dup.Key, dup.FirstLine)}
	}
	return d, nil
}

// CutLine returns the line starting at pos (without its break) and the
// offset of the next line.
func CutLine(b []byte, pos int) ([]byte, int) {
	for i := pos; i < len(b); i++ {
		switch b[i] {
		case '\n':
			return b[pos:i], i + 1
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				return b[pos:i], i + 2
			}
			return b[pos:i], i + 1
		}
	}
	return b[pos:], len(b)
}

// isDashes reports whether a line is a frontmatter delimiter: --- with
// nothing after it but spaces or tabs.
func isDashes(l []byte) bool {
	return bytes.HasPrefix(l, []byte("---")) && len(bytes.TrimRight(l[3:], " \t")) == 0
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// yamlErrorLine extracts the 1-based line of a go-yaml error (1 when it
// has none) and the message without its prefix.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, msg[len(m[0]):]
	}
	return 1, strings.TrimPrefix(msg, "yaml: ")
}

func firstNonSpace(l []byte) int {
	col := 1
	for _, r := range string(l) {
		if r != ' ' {
			return col
		}
		col++
	}
	return 1
}

// maxYAMLDepth bounds the recursion over nested mappings.
const maxYAMLDepth = 100

// findDuplicates records every key that repeats in a mapping, at any depth.
func findDuplicates(n *yaml.Node, out *[]DuplicateKey, depth int) {
	if n == nil || depth > maxYAMLDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode {
				if first, ok := seen[k.Value]; ok {
					*out = append(*out, DuplicateKey{Key: k.Value, Line: k.Line + 1, Col: k.Column, FirstLine: first.Line + 1, FirstCol: first.Column})
				} else {
					seen[k.Value] = k
				}
			}
			findDuplicates(n.Content[i+1], out, depth+1)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			findDuplicates(c, out, depth+1)
		}
	}
}

// FolderName is the name of the folder holding a file.
func FolderName(path string) string {
	dir := filepath.Dir(path)
	if base := filepath.Base(dir); base != "." && base != ".." && base != string(filepath.Separator) {
		return base
	}
	// Only "." and ".." need the working directory.
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Base(dir)
}

// readSkillFile reads a skill or agent file: a regular file of at most
// MaxSkillFileBytes, checked before it is opened.
func readSkillFile(path string) ([]byte, error) { return ReadSkillFile(path, nil) }

// ReadSkillFile reads a skill or agent file as readSkillFile does, into
// buf when it is large enough, so that a worker reuses one buffer for many
// files.
func ReadSkillFile(path string, buf []byte) ([]byte, error) {
	return untrusted.ReadFileBuf(path, MaxSkillFileBytes, buf)
}
