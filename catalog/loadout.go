package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// Loadout is the result of resolving an agent definition's skills.
type Loadout struct {
	Agent *AgentDef
	// Definition says where the definition was found when it was looked
	// up by name (nil: it was given as a file).
	Definition *AgentLookup
	// Mode is "inherit" (start from the ambient catalogue) or "isolated".
	Mode string
	// Resolved is false when any error diagnostic makes the loadout
	// invalid; Entries is then empty.
	Resolved bool
	// Unchanged: the agent keeps the incoming catalogue as it is.
	Unchanged bool
	Entries   []LoadoutEntry
	// Pending names are left to the ambient catalogue at run time.
	Pending    []string
	Candidates []*Candidate
	// Findings are the problems of the definition and of its
	// resolution, in the order they were found.
	Findings []Finding
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
	r := &resolver{a: a, opts: opts, lo: &Loadout{Agent: a, Mode: "inherit"}}
	if !a.Inherit {
		r.lo.Mode = "isolated"
	}
	for _, p := range a.Problems {
		r.fatal(p.Kind, p.Line, p.Col, "%s", p.Message)
	}
	r.privateCandidates()
	if !a.Valid() {
		return r.lo
	}
	if opts.HasAmbient {
		d := Discover(opts.Ambient, opts.Walk)
		for _, src := range d.Sources {
			if c := classify(src, -1); c != nil {
				r.ambient = append(r.ambient, c)
			}
		}
	}
	r.byName = map[string][]*Candidate{}
	for _, c := range r.lo.Candidates {
		if !c.Classified {
			r.unclassified = append(r.unclassified, c)
			continue
		}
		r.byName[c.Name] = append(r.byName[c.Name], c)
	}
	// A candidate whose name cannot be read hides whether a selected name
	// is private: with names selected that is fatal.
	for _, c := range r.unclassified {
		l, col := r.entryPos(c)
		if len(a.Skills) > 0 {
			r.fatal(UnclassifiableCandidate, l, col, "cannot read the name of private candidate %s (%s): the selected names cannot be resolved", c.Path, c.Problem)
		} else {
			r.note(UnclassifiableCandidate, l, col, "cannot read the name of private candidate %s (%s)", c.Path, c.Problem)
		}
	}
	r.resolved = map[string]LoadoutEntry{}
	for _, s := range a.Skills {
		r.selectName(s)
	}
	r.unselected()
	r.lo.Resolved = true
	for _, f := range r.lo.Findings {
		if f.Fatal {
			r.lo.Resolved = false
		}
	}
	if r.lo.Resolved {
		r.catalogue()
	}
	return r.lo
}

// resolver holds the state of one loadout resolution.
type resolver struct {
	a    *AgentDef
	opts LoadoutOptions
	lo   *Loadout

	ambient []*Candidate
	// ambientByName indexes the classified ambient candidates by name,
	// in their order, built when a name is first looked up there.
	ambientByName map[string][]*Candidate
	byName        map[string][]*Candidate // classified private candidates
	unclassified  []*Candidate
	resolved      map[string]LoadoutEntry
	order         []string // resolved names in selection order
}

func (r *resolver) add(kind FindingKind, fatal bool, line, col int, format string, args ...any) {
	r.lo.Findings = append(r.lo.Findings, Finding{Kind: kind, Fatal: fatal, File: r.a.Path, Line: line, Col: col, Message: fmt.Sprintf(format, args...)})
}

// fatal records a finding that makes the loadout unresolved.
func (r *resolver) fatal(kind FindingKind, line, col int, format string, args ...any) {
	r.add(kind, true, line, col, format, args...)
}

// note records a finding kept for inspection only.
func (r *resolver) note(kind FindingKind, line, col int, format string, args ...any) {
	r.add(kind, false, line, col, format, args...)
}

// entryPos is the position of the skillPath entry that found c.
func (r *resolver) entryPos(c *Candidate) (int, int) {
	if c.Entry >= 0 && c.Entry < len(r.a.SkillPaths) {
		return r.a.SkillPaths[c.Entry].Line, r.a.SkillPaths[c.Entry].Col
	}
	return 1, 1
}

// privateCandidates checks every skillPath entry and, for a valid
// definition, discovers and classifies the candidates on it, entry by
// entry.
func (r *resolver) privateCandidates() {
	a := r.a
	base := filepath.Dir(a.Path)
	seen := map[string]bool{} // canonical files of candidates
	// notSkill holds the sources found not to be candidates (root-level
	// markdown without skill frontmatter), by canonical path and kind.
	type found struct {
		canonical string
		kind      SourceKind
	}
	notSkill := map[found]bool{}
	// A path given by several entries is walked once; each entry still
	// gets the walk's errors.
	walked := map[string]*Discovery{}
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
				r.fatal(SkillPathMissing, entry.Line, entry.Col, "skillPath %q does not exist: %s%s", entry.Value, p, hint)
			} else {
				r.fatal(SkillPathUnsupported, entry.Line, entry.Col, "skillPath %q cannot be inspected: %v", entry.Value, unwrapPath(err))
			}
			continue
		}
		if !st.IsDir() && !strings.EqualFold(filepath.Ext(p), ".md") {
			r.fatal(SkillPathUnsupported, entry.Line, entry.Col, "skillPath %q is a file but not a .md file", entry.Value)
			continue
		}
		if !a.Valid() {
			continue // paths are still checked; candidates are moot
		}
		d := walked[p]
		if d == nil {
			d = Discover([]string{p}, r.opts.Walk)
			walked[p] = d
		}
		for _, ev := range d.Events {
			switch ev.Kind {
			case EventUnreadable, EventLimit:
				r.fatal(SkillPathUnsupported, entry.Line, entry.Col, "skillPath %q cannot be safely inspected: %s: %v", entry.Value, ev.Path, ev.Err)
			}
		}
		for _, src := range d.Sources {
			if seen[src.Canonical] || notSkill[found{src.Canonical, src.Kind}] {
				continue // the same canonical file counts once
			}
			c := classify(src, i)
			if c == nil {
				notSkill[found{src.Canonical, src.Kind}] = true
				continue
			}
			seen[src.Canonical] = true
			r.lo.Candidates = append(r.lo.Candidates, c)
		}
	}
}

// selectName resolves one selected name: its one private candidate, else
// (when the ambient skills are known) its one ambient match.
func (r *resolver) selectName(s AgentValue) {
	name := s.Value
	cands := r.byName[name]
	switch {
	case len(cands) > 1:
		r.fatal(SelectedNameAmbiguous, s.Line, s.Col, "selected skill %q has %d private candidates: %s", name, len(cands), candidatePaths(cands))
	case len(cands) == 1:
		c := cands[0]
		switch {
		case c.Problem != "":
			r.fatal(SelectedCandidateUnusable, s.Line, s.Col, "selected skill %q: private candidate %s is invalid (%s); no ambient fallback", name, c.Path, c.Problem)
		case c.Disabled:
			r.fatal(SelectedCandidateUnusable, s.Line, s.Col, "selected skill %q: private candidate %s has disable-model-invocation: true", name, c.Path)
		default:
			r.use(s, c, "private")
		}
	case len(r.unclassified) > 0:
		// Reported as an unclassifiable candidate.
	case !r.opts.HasAmbient:
		r.note(SelectedNameUnresolved, s.Line, s.Col, "selected skill %q is not on a private path: it is resolved from the ambient skills at run time", name)
		r.lo.Pending = append(r.lo.Pending, name)
	default:
		if r.ambientByName == nil {
			r.ambientByName = map[string][]*Candidate{}
			for _, c := range r.ambient {
				if c.Classified {
					r.ambientByName[c.Name] = append(r.ambientByName[c.Name], c)
				}
			}
		}
		matches := distinctMatches(r.ambientByName[name], name)
		switch {
		case len(matches) == 0:
			r.fatal(SelectedNameUnresolved, s.Line, s.Col, "selected skill %q is neither on a private path nor among the ambient skills", name)
		case len(matches) > 1:
			r.fatal(SelectedNameUnresolved, s.Line, s.Col, "selected skill %q is ambiguous among the ambient skills: %s", name, candidatePaths(matches))
		case matches[0].Problem != "":
			r.fatal(SelectedNameUnresolved, s.Line, s.Col, "selected skill %q: ambient skill %s is invalid (%s)", name, matches[0].Path, matches[0].Problem)
		case matches[0].Disabled:
			r.fatal(SelectedNameUnresolved, s.Line, s.Col, "selected skill %q: ambient skill %s has disable-model-invocation: true", name, matches[0].Path)
		default:
			r.use(s, matches[0], "ambient")
		}
	}
}

// use resolves a selected name to a candidate.
func (r *resolver) use(s AgentValue, c *Candidate, from string) {
	if c.LongDescription {
		r.note(SelectedSkillLong, s.Line, s.Col, "selected skill %q: description of %s is longer than 1,024 characters (Pi warns; the selection stays valid)", s.Value, c.Path)
	}
	r.resolved[s.Value] = LoadoutEntry{Name: s.Value, Path: c.Path, From: from}
	r.order = append(r.order, s.Value)
}

// unselected keeps the problems among names the agent does not select, as
// notes.
func (r *resolver) unselected() {
	selected := map[string]bool{}
	for _, s := range r.a.Skills {
		selected[s.Value] = true
	}
	names := make([]string, 0, len(r.byName))
	for n := range r.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if selected[n] {
			continue
		}
		cands := r.byName[n]
		if len(cands) > 1 {
			l, col := r.entryPos(cands[1])
			r.note(UnselectedCandidateProblem, l, col, "unselected private skill %q has %d candidates: %s", n, len(cands), candidatePaths(cands))
		}
		for _, c := range cands {
			if c.Problem != "" {
				l, col := r.entryPos(c)
				r.note(UnselectedCandidateProblem, l, col, "unselected private candidate %s is invalid (%s)", c.Path, c.Problem)
			}
		}
	}
}

// catalogue builds the entries of a resolved loadout: inherited entries
// first (the first per name), selected ones replacing an inherited entry
// in place or appended.
func (r *resolver) catalogue() {
	a, lo := r.a, r.lo
	if a.Inherit && len(a.Skills) == 0 && len(a.SkillPaths) == 0 {
		lo.Unchanged = true
	}
	index := map[string]int{}
	if a.Inherit && r.opts.HasAmbient {
		for _, c := range r.ambient {
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
	for _, n := range r.order {
		e := r.resolved[n]
		if i, ok := index[n]; ok {
			lo.Entries[i] = e
			continue
		}
		index[n] = len(lo.Entries)
		lo.Entries = append(lo.Entries, e)
	}
}

func candidatePaths(cs []*Candidate) string {
	paths := make([]string, len(cs))
	for i, c := range cs {
		paths[i] = c.Path
	}
	return strings.Join(paths, ", ")
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
			c.Name = FolderName(src.Path)
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
	case !IsString(f.Node) || strings.TrimSpace(f.Node.Value) == "":
		c.Problem = "description is not a non-empty string"
		c.Line, c.Col = f.ValueLine, f.ValueCol
	default:
		c.LongDescription = UTF16Len(f.Node.Value) > MaxDescriptionChars
	}
	return c
}
