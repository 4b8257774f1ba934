package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// LoadoutOptions configure loadout resolution.
type LoadoutOptions struct {
	// Ambient lists the skill folders of the incoming (ambient) catalogue.
	// With HasAmbient false the ambient catalogue is unknown, as in a
	// switch-time check, and names no private path provides are pending.
	Ambient    []string
	HasAmbient bool
	Walk       WalkOptions
}

// Candidate is a skill file found on a private path or in the ambient
// catalogue, classified as a loader would.
type Candidate struct {
	Source
	// Entry is the index of the skillPath entry that found it (-1 for
	// ambient skills).
	Entry int
	Name  string
	// Classified is false when the file's name cannot be read (YAML error,
	// duplicate keys, unreadable file).
	Classified bool
	// Problem says why the skill is not loadable ("" when it is).
	Problem string
	// Disabled is disable-model-invocation: true.
	Disabled bool
	// LongDescription is set when the description exceeds Pi's
	// recommended length (1,024 UTF-16 units).
	LongDescription bool
	// Line and Col locate the problem in the candidate file.
	Line, Col int
}

// LoadoutEntry is one skill of a resolved loadout.
type LoadoutEntry struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
	// From is "private", "ambient" or "inherited".
	From     string `json:"from"`
	Disabled bool   `json:"disabled,omitempty"`
}

// LoadoutDiag is one resolution diagnostic.
type LoadoutDiag struct {
	Rule     string         `json:"rule"`
	Severity rules.Severity `json:"severity"`
	File     string         `json:"file"`
	Line     int            `json:"line"`
	Column   int            `json:"column"`
	Message  string         `json:"message"`
}

// Loadout is the result of resolving an agent definition's skills.
type Loadout struct {
	Agent *AgentDef
	// Mode is "inherit" (start from the ambient catalogue) or "isolated".
	Mode string
	// Resolved is false when any error diagnostic makes the loadout
	// invalid; Entries is then empty.
	Resolved bool
	// Unchanged: the agent keeps the incoming catalogue as it is.
	Unchanged bool
	Entries   []LoadoutEntry
	// Pending names are left to the ambient catalogue at run time.
	Pending     []string
	Candidates  []*Candidate
	Diagnostics []LoadoutDiag
}

// ReadAgent reads and parses an agent definition.
func ReadAgent(path string) (*AgentDef, error) {
	data, err := readSkillFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ParseAgent(path, data), nil
}

// ResolveLoadout resolves an agent definition's skill loadout: validates
// its fields and private paths, discovers and classifies private
// candidates, resolves each selected name (a unique valid private match
// first, else one enabled ambient match) and builds the catalogue.
func ResolveLoadout(a *AgentDef, opts LoadoutOptions) *Loadout {
	lo := &Loadout{Agent: a, Mode: "inherit"}
	if !a.Inherit {
		lo.Mode = "isolated"
	}
	diag := func(rule string, sev rules.Severity, file string, line, col int, format string, args ...any) {
		lo.Diagnostics = append(lo.Diagnostics, LoadoutDiag{Rule: rule, Severity: sev, File: file, Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
	}
	for _, p := range a.Problems {
		diag(p.Rule, rules.Error, a.Path, p.Line, p.Col, "%s", p.Message)
	}

	// Private candidates, entry by entry.
	base := filepath.Dir(a.Path)
	seen := map[string]*Candidate{}
	for i, entry := range a.SkillPaths {
		// No ~ or $VAR expansion: the path is taken literally.
		p := entry.Value
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				hint := ""
				if strings.HasPrefix(entry.Value, "~") || strings.Contains(entry.Value, "$") {
					hint = " (no ~ or $VAR expansion is done)"
				}
				diag("AG006", rules.Error, a.Path, entry.Line, entry.Col, "skillPath %q does not exist: %s%s", entry.Value, p, hint)
			} else {
				diag("AG007", rules.Error, a.Path, entry.Line, entry.Col, "skillPath %q cannot be inspected: %v", entry.Value, unwrapPath(err))
			}
			continue
		}
		if !st.IsDir() && !strings.EqualFold(filepath.Ext(p), ".md") {
			diag("AG007", rules.Error, a.Path, entry.Line, entry.Col, "skillPath %q is a file but not a .md file", entry.Value)
			continue
		}
		if !a.Valid() {
			continue // paths are still checked; candidates are moot
		}
		d := Discover([]string{p}, opts.Walk)
		for _, ev := range d.Events {
			switch ev.Kind {
			case EventUnreadable, EventLimit:
				diag("AG007", rules.Error, a.Path, entry.Line, entry.Col, "skillPath %q cannot be safely inspected: %s: %v", entry.Value, ev.Path, ev.Err)
			}
		}
		for _, src := range d.Sources {
			c := classify(src, i)
			if c == nil {
				continue
			}
			if _, dup := seen[c.Canonical]; dup {
				continue // the same canonical file counts once
			}
			seen[c.Canonical] = c
			lo.Candidates = append(lo.Candidates, c)
		}
	}

	if !a.Valid() {
		return lo
	}
	var ambient []*Candidate
	if opts.HasAmbient {
		d := Discover(opts.Ambient, opts.Walk)
		for _, src := range d.Sources {
			if c := classify(src, -1); c != nil {
				ambient = append(ambient, c)
			}
		}
	}

	byName := map[string][]*Candidate{}
	var unclassified []*Candidate
	for _, c := range lo.Candidates {
		if !c.Classified {
			unclassified = append(unclassified, c)
			continue
		}
		byName[c.Name] = append(byName[c.Name], c)
	}
	selected := map[string]bool{}
	for _, s := range a.Skills {
		selected[s.Value] = true
	}
	entryPos := func(c *Candidate) (int, int) {
		if c.Entry >= 0 && c.Entry < len(a.SkillPaths) {
			return a.SkillPaths[c.Entry].Line, a.SkillPaths[c.Entry].Col
		}
		return 1, 1
	}

	// A candidate whose name cannot be read hides whether a selected name
	// is private: with names selected that is an error.
	for _, c := range unclassified {
		l, col := entryPos(c)
		if len(a.Skills) > 0 {
			diag("AG012", rules.Error, a.Path, l, col, "cannot read the name of private candidate %s (%s): the selected names cannot be resolved", c.Path, c.Problem)
		} else {
			diag("AG012", rules.Warning, a.Path, l, col, "cannot read the name of private candidate %s (%s)", c.Path, c.Problem)
		}
	}

	resolved := map[string]LoadoutEntry{}
	var order []string
	for _, s := range a.Skills {
		name := s.Value
		cands := byName[name]
		switch {
		case len(cands) > 1:
			var paths []string
			for _, c := range cands {
				paths = append(paths, c.Path)
			}
			diag("AG008", rules.Error, a.Path, s.Line, s.Col, "selected skill %q has %d private candidates: %s", name, len(cands), strings.Join(paths, ", "))
		case len(cands) == 1:
			c := cands[0]
			switch {
			case c.Problem != "":
				diag("AG009", rules.Error, a.Path, s.Line, s.Col, "selected skill %q: private candidate %s is invalid (%s); no ambient fallback", name, c.Path, c.Problem)
			case c.Disabled:
				diag("AG009", rules.Error, a.Path, s.Line, s.Col, "selected skill %q: private candidate %s has disable-model-invocation: true", name, c.Path)
			default:
				if c.LongDescription {
					diag("AG013", rules.Warning, a.Path, s.Line, s.Col, "selected skill %q: description of %s is longer than 1,024 characters (Pi warns; the selection stays valid)", name, c.Path)
				}
				resolved[name] = LoadoutEntry{Name: name, Path: c.Path, From: "private"}
				order = append(order, name)
			}
		case len(unclassified) > 0:
			// Reported above (AG012).
		case !opts.HasAmbient:
			diag("AG010", rules.Info, a.Path, s.Line, s.Col, "selected skill %q is not on a private path: it is resolved from the ambient skills at run time", name)
			lo.Pending = append(lo.Pending, name)
		default:
			matches := distinctMatches(ambient, name)
			switch {
			case len(matches) == 0:
				diag("AG010", rules.Error, a.Path, s.Line, s.Col, "selected skill %q is neither on a private path nor among the ambient skills", name)
			case len(matches) > 1:
				var paths []string
				for _, c := range matches {
					paths = append(paths, c.Path)
				}
				diag("AG010", rules.Error, a.Path, s.Line, s.Col, "selected skill %q is ambiguous among the ambient skills: %s", name, strings.Join(paths, ", "))
			case matches[0].Problem != "":
				diag("AG010", rules.Error, a.Path, s.Line, s.Col, "selected skill %q: ambient skill %s is invalid (%s)", name, matches[0].Path, matches[0].Problem)
			case matches[0].Disabled:
				diag("AG010", rules.Error, a.Path, s.Line, s.Col, "selected skill %q: ambient skill %s has disable-model-invocation: true", name, matches[0].Path)
			default:
				if matches[0].LongDescription {
					diag("AG013", rules.Warning, a.Path, s.Line, s.Col, "selected skill %q: description of %s is longer than 1,024 characters (Pi warns; the selection stays valid)", name, matches[0].Path)
				}
				resolved[name] = LoadoutEntry{Name: name, Path: matches[0].Path, From: "ambient"}
				order = append(order, name)
			}
		}
	}

	// Problems among names the agent does not select are kept as warnings.
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if selected[n] {
			continue
		}
		cands := byName[n]
		if len(cands) > 1 {
			var paths []string
			for _, c := range cands {
				paths = append(paths, c.Path)
			}
			l, col := entryPos(cands[1])
			diag("AG011", rules.Warning, a.Path, l, col, "unselected private skill %q has %d candidates: %s", n, len(cands), strings.Join(paths, ", "))
		}
		for _, c := range cands {
			if c.Problem != "" {
				l, col := entryPos(c)
				diag("AG011", rules.Warning, a.Path, l, col, "unselected private candidate %s is invalid (%s)", c.Path, c.Problem)
			}
		}
	}

	lo.Resolved = true
	for _, d := range lo.Diagnostics {
		if d.Severity == rules.Error {
			lo.Resolved = false
		}
	}
	if !lo.Resolved {
		return lo
	}
	if a.Inherit && len(a.Skills) == 0 && len(a.SkillPaths) == 0 {
		lo.Unchanged = true
	}
	// The catalogue: inherited entries first (the first per name), selected
	// ones replacing an inherited entry in place or appended.
	index := map[string]int{}
	if a.Inherit && opts.HasAmbient {
		for _, c := range ambient {
			if !c.Classified || c.Problem != "" {
				continue // a loader does not load it
			}
			if _, ok := index[c.Name]; ok {
				continue
			}
			index[c.Name] = len(lo.Entries)
			lo.Entries = append(lo.Entries, LoadoutEntry{Name: c.Name, Path: c.Path, From: "inherited", Disabled: c.Disabled})
		}
	}
	for _, n := range order {
		e := resolved[n]
		if i, ok := index[n]; ok {
			lo.Entries[i] = e
			continue
		}
		index[n] = len(lo.Entries)
		lo.Entries = append(lo.Entries, e)
	}
	return lo
}

// distinctMatches returns the classified candidates named name, one per
// file.
func distinctMatches(cs []*Candidate, name string) []*Candidate {
	var out []*Candidate
	seen := map[string]bool{}
	for _, c := range cs {
		if c.Classified && c.Name == name && !seen[c.Canonical] {
			seen[c.Canonical] = true
			out = append(out, c)
		}
	}
	return out
}

// classify reads a discovered file as Pi's loader would. Root-level files
// without skill frontmatter are not candidates (nil).
func classify(src Source, entry int) *Candidate {
	c := &Candidate{Source: src, Entry: entry, Line: 1, Col: 1}
	data, err := readSkillFile(src.Path)
	if err != nil {
		c.Problem = err.Error()
		return c
	}
	d, err := ParseSkillDoc(src.Path, data)
	var de *DocError
	if errors.As(err, &de) {
		switch de.Kind {
		case ErrNoFrontmatter, ErrUnclosed:
			if src.Kind == RootFile {
				return nil
			}
			// A loader reads no frontmatter as empty: the name comes from
			// the folder and the description is missing.
			c.Classified = true
			c.Name = folderName(src.Path)
			c.Problem = "no frontmatter, so no description"
			return c
		default:
			c.Line, c.Col = de.Line, de.Col
			c.Problem = fmt.Sprintf("%d:%d: %s", de.Line, de.Col, de.Msg)
			return c
		}
	}
	if src.Kind == RootFile && !d.HasSkillFrontmatter() {
		return nil
	}
	c.Classified = true
	c.Name = d.SkillName()
	c.Disabled = d.DisableModelInvocation
	f := d.Field("description")
	switch {
	case f == nil:
		c.Problem = "description is missing"
	case !isStr(f.Node) || strings.TrimSpace(f.Node.Value) == "":
		c.Problem = "description is not a non-empty string"
		c.Line, c.Col = f.ValueLine, f.ValueCol
	default:
		c.LongDescription = utf16Len(f.Node.Value) > MaxDescriptionChars
	}
	return c
}
