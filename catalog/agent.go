package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Agent definition fields owned by the skill resolver.
const (
	fieldInheritSkills = "inheritSkills"
	fieldSkills        = "skills"
	fieldSkillPath     = "skillPath"
)

// AgentDef is a parsed agent definition: markdown whose frontmatter may set
// inheritSkills, skills and skillPath. Other fields are not interpreted.
type AgentDef struct {
	Path string
	Doc  *SkillDoc
	// Inherit is inheritSkills (true when absent).
	Inherit bool
	// Skills are the selected names: trimmed, each once, in declared order.
	Skills []AgentValue
	// SkillPaths are the private discovery paths as written.
	SkillPaths []AgentValue
	// Problems make the definition invalid.
	Problems []AgentProblem
}

// AgentValue is one name or path of an agent field with its position.
type AgentValue struct {
	Value     string
	Line, Col int
}

// AgentProblem is why an agent definition is invalid.
type AgentProblem struct {
	Kind      FindingKind
	Line, Col int
	Message   string
}

// Valid reports whether the definition has no problem.
func (a *AgentDef) Valid() bool { return len(a.Problems) == 0 }

// IsAgentFrontmatter reports whether a doc sets any agent skill field.
func IsAgentFrontmatter(d *SkillDoc) bool {
	return d.Field(fieldInheritSkills) != nil || d.Field(fieldSkills) != nil || d.Field(fieldSkillPath) != nil
}

// ParseAgent parses an agent definition. Problems are recorded, not
// returned: an invalid definition still has a path and what could be read.
func ParseAgent(path string, data []byte) *AgentDef {
	d, err := ParseSkillDoc(path, data)
	a := &AgentDef{Path: path, Doc: d, Inherit: true}
	add := func(kind FindingKind, line, col int, format string, args ...any) {
		a.Problems = append(a.Problems, AgentProblem{Kind: kind, Line: line, Col: col, Message: fmt.Sprintf(format, args...)})
	}
	var de *DocError
	if errors.As(err, &de) && de.Kind != ErrDuplicateKey {
		add(AgentFrontmatterInvalid, de.Line, de.Col, "agent definition is invalid: %s", de.Msg)
		return a
	}
	for _, dup := range d.Duplicates {
		add(AgentDuplicateKey, dup.Line, dup.Col, "duplicate key %q (first at line %d) invalidates the agent definition", dup.Key, dup.FirstLine)
	}
	if f := d.Field(fieldInheritSkills); f != nil {
		if IsBool(f.Node) {
			a.Inherit = isTrue(f.Node)
		} else {
			add(InheritSkillsNotBoolean, f.ValueLine, f.ValueCol, "inheritSkills must be a YAML boolean (true or false), not %s%s", YAMLKind(f.Node), QuotedValue(f.Node))
		}
	}
	a.Skills = agentList(d, fieldSkills, add)
	a.SkillPaths = agentList(d, fieldSkillPath, add)
	// Repeated names are resolved once.
	seen := map[string]bool{}
	names := a.Skills[:0]
	for _, n := range a.Skills {
		if !seen[n.Value] {
			seen[n.Value] = true
			names = append(names, n)
		}
	}
	a.Skills = names
	return a
}

// agentList reads skills or skillPath: a comma-separated string or a YAML
// list of non-empty strings. An empty list (or empty string, or null) is
// valid and empty.
func agentList(d *SkillDoc, key string, add func(kind FindingKind, line, col int, format string, args ...any)) []AgentValue {
	f := d.Field(key)
	if f == nil || IsNull(f.Node) {
		return nil
	}
	n := f.Node
	var out []AgentValue
	switch {
	case IsString(n):
		if strings.TrimSpace(n.Value) == "" {
			return nil
		}
		cols := elementColumns(d, f)
		for i, part := range strings.Split(n.Value, ",") {
			v := strings.TrimSpace(part)
			col := f.ValueCol
			if cols != nil {
				col = cols[i]
			}
			if v == "" {
				add(SkillsElementInvalid, f.ValueLine, col, "%s %q has an empty element (element %d): remove the extra comma", key, n.Value, i+1)
				continue
			}
			out = append(out, AgentValue{Value: v, Line: f.ValueLine, Col: col})
		}
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			item = ResolveAlias(item)
			line, col := item.Line+1, item.Column
			switch {
			case IsString(item) && strings.TrimSpace(item.Value) != "":
				out = append(out, AgentValue{Value: strings.TrimSpace(item.Value), Line: line, Col: col})
			case IsString(item):
				add(SkillsElementInvalid, line, col, "%s element %d is an empty string", key, i+1)
			default:
				add(SkillsElementInvalid, line, col, "%s element %d is %s, not a non-empty string", key, i+1, YAMLKind(item))
			}
		}
	default:
		add(SkillsFieldType, f.ValueLine, f.ValueCol, "%s must be a comma-separated string or a list of strings, not %s", key, YAMLKind(n))
	}
	return out
}

// elementColumns returns the column of each comma-separated element of a
// string field written on one line (its first non-blank character, or
// where an empty element is), so that each element is pointed at; nil
// when the value's text is not found as written (escapes, several lines).
func elementColumns(d *SkillDoc, f *Field) []int {
	n := f.Node
	line := d.Line(f.ValueLine)
	// The value's byte offset in its line.
	off, col := 0, 1
	for col < f.ValueCol && off < len(line) {
		_, size := utf8.DecodeRune(line[off:])
		off += size
		col++
	}
	rest := line[off:]
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		if len(rest) == 0 {
			return nil
		}
		rest, col = rest[1:], col+1
	}
	if !bytes.HasPrefix(rest, []byte(n.Value)) {
		return nil
	}
	var cols []int
	for _, part := range strings.Split(n.Value, ",") {
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		if strings.TrimSpace(part) == "" {
			lead = 0
		}
		cols = append(cols, col+utf8.RuneCountInString(part[:lead]))
		col += utf8.RuneCountInString(part) + 1
	}
	return cols
}
