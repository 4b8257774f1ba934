package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/internal/atomicfile"
)

// Default traversal bounds of Walk.
const (
	DefaultMaxDepth = 32
	DefaultMaxFiles = 200000
)

// SkillFileName is the exact (case-sensitive) name of a skill's main file.
const SkillFileName = "SKILL.md"

// WalkOptions bound and tune a discovery walk.
type WalkOptions struct {
	MaxDepth int // directory depth limit (0 = default 32)
	MaxFiles int // bound on visited entries (0 = default 200000)
	// Nested keeps descending below skill roots, only to report the
	// SKILL.md files found there as EventNested (they are never sources).
	Nested bool
	// NoRootFiles leaves out root-level *.md files (Pi ignores them in
	// .agents/skills roots).
	NoRootFiles bool

	// OnSource, when set, sees each source as soon as it is found, so
	// that files can be checked while the walk goes on.
	OnSource func(Source)
}

func (o WalkOptions) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

func (o WalkOptions) maxFiles() int {
	if o.MaxFiles <= 0 {
		return DefaultMaxFiles
	}
	return o.MaxFiles
}

// SourceKind says why a file was discovered.
type SourceKind int

// The kinds of sources.
const (
	// SkillFile is the SKILL.md of a skill folder.
	SkillFile SourceKind = iota
	// RootFile is a *.md file directly inside a scanned root folder; it is a
	// skill only when it has skill frontmatter.
	RootFile
	// GivenFile is a root that is itself a file.
	GivenFile
)

// Source is one discovered skill file.
type Source struct {
	Path      string // the file's path as reached (Root joined with Rel)
	Canonical string // filepath.EvalSymlinks result, used for dedup and cycle detection
	Root      string // the root argument it was found under
	Rel       string // slash-separated path relative to Root ("." when Root is the file)
	Kind      SourceKind
}

// EventKind classifies what a walk noticed besides sources.
type EventKind int

// The walk events. Cycle, Unreadable, Limit and Missing are errors.
const (
	// EventCycle: a symlink leads back to a directory being walked; it is
	// not followed.
	EventCycle EventKind = iota
	// EventBroken: a dangling symlink, skipped.
	EventBroken
	// EventNested: a SKILL.md below another skill root; never a skill.
	EventNested
	// EventMiscased: skill.md, Skill.md … where SKILL.md would make a skill
	// root; loaders that match the exact name do not see it.
	EventMiscased
	// EventAlias: a file or folder reached again by another path (same
	// canonical path); it is used once.
	EventAlias
	// EventIgnored: an entry excluded by a .gitignore, .ignore or
	// .fdignore pattern.
	EventIgnored
	// EventUnreadable: a folder or file that could not be read.
	EventUnreadable
	// EventLimit: the depth or entry bound was reached.
	EventLimit
	// EventMissing: a root that does not exist.
	EventMissing
	// EventTemp: a temporary file skillopt's atomic writer left beside the
	// skill file it was written for (".skillopt-tmp-SKILL.md.123" beside
	// SKILL.md, or beside a markdown file at the top of a root), when the
	// write was killed before its rename.
	EventTemp
)

// Event is something the walk noticed about a path.
type Event struct {
	Kind EventKind
	Path string // the path as reached
	Root string
	Rel  string
	// Other is, for EventAlias, the path first reached; for EventNested,
	// the enclosing skill root's SKILL.md; for EventCycle, the canonical
	// target; for EventTemp, the file the write was for.
	Other string
	// Pattern is, for EventIgnored, the pattern that matched, and File and
	// Line where it is written.
	Pattern string
	File    string
	Line    int
	Err     error
}

// WalkError is a walk event that is an error: unreadable folders, cycles,
// limits and missing roots.
type WalkError struct {
	Kind EventKind
	Path string
	Err  error
}

func (e *WalkError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *WalkError) Unwrap() error { return e.Err }

// IsWarning reports whether err, one of the problems FromDisk or a walk
// returns, leaves the catalog complete: a symbolic-link cycle, which the
// walk does not follow, loses no skill. Every other problem (an unreadable
// file or folder, a missing root, a walk bound) may hide skills.
func IsWarning(err error) bool {
	var we *WalkError
	return errors.As(err, &we) && we.Kind == EventCycle
}

// Discovery is the result of a walk: the sources in walk order and the
// events noticed on the way.
type Discovery struct {
	Sources []Source
	Events  []Event
}

// Errors returns the events that are errors, as *WalkError values.
func (d *Discovery) Errors() []error {
	var out []error
	for _, e := range d.Events {
		switch e.Kind {
		case EventCycle, EventUnreadable, EventLimit, EventMissing:
			out = append(out, &WalkError{Kind: e.Kind, Path: e.Path, Err: e.Err})
		}
	}
	return out
}

// Walk discovers skill files under each root: root-level *.md files are
// candidate skills; SKILL.md is found recursively; a folder containing
// SKILL.md is a skill root and is not descended further; hidden entries and
// node_modules are skipped; .gitignore, .ignore and .fdignore are honoured
// with git semantics; symlinks are followed with canonical-path cycle
// detection; the same canonical file is returned once; traversal is bounded.
// A root that is itself a file is returned as one Source. The order is
// deterministic: lexical within each folder, roots in the order given.
// Errors (unreadable folders, loops, limits) are returned, not fatal.
func Walk(roots []string, opts WalkOptions) ([]Source, []error) {
	d := Discover(roots, opts)
	return d.Sources, d.Errors()
}

// Discover is Walk with every event kept.
func Discover(roots []string, opts WalkOptions) *Discovery {
	rs := make([]Root, len(roots))
	for i, r := range roots {
		rs[i] = Root{Path: r, NoRootFiles: opts.NoRootFiles}
	}
	return DiscoverRoots(rs, opts)
}

// Root is a walk root with its own treatment of root-level files.
type Root struct {
	Path string
	// NoRootFiles leaves out the root's own *.md files.
	NoRootFiles bool
}

// DiscoverRoots is Discover with per-root options; opts.NoRootFiles is
// ignored. Files and folders are deduplicated across all roots.
func DiscoverRoots(roots []Root, opts WalkOptions) *Discovery {
	w := &skillWalker{
		opts:    opts,
		d:       &Discovery{},
		files:   map[string]string{},
		dirs:    map[string]string{},
		onStack: map[string]bool{},
	}
	for _, root := range roots {
		if w.stopped {
			break
		}
		w.noRootFiles = root.NoRootFiles
		w.root(root.Path)
	}
	return w.d
}

type skillWalker struct {
	opts    WalkOptions
	d       *Discovery
	files   map[string]string // canonical file → path first reached
	dirs    map[string]string // canonical folder → path first walked
	onStack map[string]bool   // canonical folders being walked (cycle detection)
	visited int
	stopped bool
	// noRootFiles applies to the root being walked.
	noRootFiles bool
}

func (w *skillWalker) event(e Event) { w.d.Events = append(w.d.Events, e) }

func (w *skillWalker) root(root string) {
	st, err := os.Stat(root)
	if err != nil {
		kind := EventUnreadable
		if errors.Is(err, fs.ErrNotExist) {
			kind = EventMissing
			err = errors.New("no such file or directory")
			if _, lerr := os.Lstat(root); lerr == nil {
				kind, err = EventBroken, errors.New("dangling symlink")
			}
		} else {
			err = unwrapPath(err)
		}
		w.event(Event{Kind: kind, Path: root, Root: root, Rel: ".", Err: err})
		return
	}
	canon, err := filepath.EvalSymlinks(root)
	if err != nil {
		w.event(Event{Kind: EventUnreadable, Path: root, Root: root, Rel: ".", Err: unwrapPath(err)})
		return
	}
	if abs, err := filepath.Abs(canon); err == nil {
		canon = abs
	}
	if !st.IsDir() {
		w.addFile(Source{Path: filepath.Clean(root), Canonical: canon, Root: root, Rel: ".", Kind: GivenFile})
		return
	}
	if first, ok := w.dirs[canon]; ok {
		w.event(Event{Kind: EventAlias, Path: root, Root: root, Rel: ".", Other: first})
		return
	}
	w.dir(root, root, "", canon, 0, nil, "")
}

// addFile records a source unless its canonical file was already found.
func (w *skillWalker) addFile(s Source) {
	if first, ok := w.files[s.Canonical]; ok {
		w.event(Event{Kind: EventAlias, Path: s.Path, Root: s.Root, Rel: s.Rel, Other: first})
		return
	}
	w.files[s.Canonical] = s.Path
	w.d.Sources = append(w.d.Sources, s)
	if w.opts.OnSource != nil {
		w.opts.OnSource(s)
	}
}

// walkEntry is a folder entry with symlinks resolved.
type walkEntry struct {
	name    string
	full    string
	rel     string
	isDir   bool
	regular bool
	symlink bool
}

// dir walks one folder. rel is its slash path below root ("" for the root),
// canon its canonical path, skill the SKILL.md path of the enclosing skill
// root when walking below one (Nested mode).
func (w *skillWalker) dir(root, dirPath, rel, canon string, depth int, ign *ignoreSet, skill string) {
	w.dirs[canon] = dirPath
	w.onStack[canon] = true
	defer delete(w.onStack, canon)

	des, err := os.ReadDir(dirPath)
	if err != nil {
		w.event(Event{Kind: EventUnreadable, Path: dirPath, Root: root, Rel: relOr(rel), Err: unwrapPath(err)})
		return
	}
	w.visited += len(des)
	if w.visited > w.opts.maxFiles() {
		w.event(Event{Kind: EventLimit, Path: dirPath, Root: root, Rel: relOr(rel), Err: fmt.Errorf("more than %d entries visited: walk stopped", w.opts.maxFiles())})
		w.stopped = true
		return
	}
	ign = ign.load(dirPath, rel, des)
	entries := w.entries(root, dirPath, rel, depth, ign, des)
	skill, found, stop := w.skillFile(root, canon, entries, skill)
	if stop {
		return
	}
	if depth == 0 && !found && !w.noRootFiles {
		for _, e := range entries {
			if e.regular && strings.EqualFold(path.Ext(e.name), ".md") {
				w.addFile(Source{Path: e.full, Canonical: w.canonical(canon, e), Root: root, Rel: e.rel, Kind: RootFile})
			}
		}
	}
	w.subdirs(root, canon, entries, depth, ign, skill)
}

// entries returns the entries of a folder that play a part in discovery,
// symlinks resolved, reporting stale temporary files, broken links and
// ignored entries on the way.
func (w *skillWalker) entries(root, dirPath, rel string, depth int, ign *ignoreSet, des []fs.DirEntry) []walkEntry {
	entries := make([]walkEntry, 0, len(des))
	for _, de := range des {
		name := de.Name()
		t := de.Type()
		if base, ok := atomicfile.TempOf(name); ok && t.IsRegular() && (strings.EqualFold(base, SkillFileName) || depth == 0 && strings.EqualFold(path.Ext(base), ".md")) && sortedHas(des, base) {
			w.event(Event{Kind: EventTemp, Path: filepath.Join(dirPath, name), Root: root, Rel: joinRel(rel, name), Other: filepath.Join(dirPath, base)})
		}
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		// Regular files other than skill files (scripts, assets, deeper
		// markdown) play no part in discovery: skip them before any work.
		if t.IsRegular() && !strings.EqualFold(name, SkillFileName) && (depth > 0 || !strings.EqualFold(path.Ext(name), ".md")) {
			continue
		}
		e := walkEntry{name: name, full: filepath.Join(dirPath, name), rel: joinRel(rel, name)}
		if !w.resolve(root, &e, t) {
			continue
		}
		if p := ign.match(e.rel, e.isDir); p != nil {
			if !p.negated {
				w.event(Event{Kind: EventIgnored, Path: e.full, Root: root, Rel: e.rel, Pattern: p.text, File: p.file, Line: p.line})
				continue
			}
		}
		entries = append(entries, e)
	}
	return entries
}

// resolve fills in what an entry of type t is, following a symlink; it
// reports a link that leads nowhere and returns false for it.
func (w *skillWalker) resolve(root string, e *walkEntry, t fs.FileMode) bool {
	switch {
	case t&fs.ModeSymlink != 0:
		e.symlink = true
		st, err := os.Stat(e.full)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				w.event(Event{Kind: EventBroken, Path: e.full, Root: root, Rel: e.rel, Err: errors.New("dangling symlink")})
			} else if isLoop(err) {
				w.event(Event{Kind: EventCycle, Path: e.full, Root: root, Rel: e.rel, Err: errors.New("symlink loop")})
			} else {
				w.event(Event{Kind: EventUnreadable, Path: e.full, Root: root, Rel: e.rel, Err: unwrapPath(err)})
			}
			return false
		}
		e.isDir, e.regular = st.IsDir(), st.Mode().IsRegular()
	case t.IsDir():
		e.isDir = true
	case t.IsRegular():
		e.regular = true
	}
	return true
}

// skillFile adds the folder's SKILL.md, or reports it nested in the skill
// root or spelled in another case. It returns the skill root to walk below
// with, whether the folder holds a SKILL.md, and whether the walk stops at
// this folder (a skill root outside Nested mode).
func (w *skillWalker) skillFile(root, canon string, entries []walkEntry, skill string) (string, bool, bool) {
	var skillEntry *walkEntry
	for i := range entries {
		if entries[i].name == SkillFileName && !entries[i].isDir {
			skillEntry = &entries[i]
		}
	}
	if skillEntry == nil {
		if skill == "" {
			for _, e := range entries {
				if !e.isDir && strings.EqualFold(e.name, SkillFileName) {
					w.event(Event{Kind: EventMiscased, Path: e.full, Root: root, Rel: e.rel})
				}
			}
		}
		return skill, false, false
	}
	src := Source{Path: skillEntry.full, Root: root, Rel: skillEntry.rel, Kind: SkillFile}
	src.Canonical = w.canonical(canon, *skillEntry)
	if skill != "" {
		w.event(Event{Kind: EventNested, Path: src.Path, Root: root, Rel: src.Rel, Other: skill})
		return skill, true, false
	}
	w.addFile(src)
	return src.Path, true, !w.opts.Nested
}

// subdirs walks the folders among entries, once each: a cycle back up,
// an alias of a folder already walked and a folder past the depth limit
// are reported instead.
func (w *skillWalker) subdirs(root, canon string, entries []walkEntry, depth int, ign *ignoreSet, skill string) {
	for _, e := range entries {
		if w.stopped {
			return
		}
		if !e.isDir {
			continue
		}
		childCanon := w.canonical(canon, e)
		if w.onStack[childCanon] {
			w.event(Event{Kind: EventCycle, Path: e.full, Root: root, Rel: e.rel, Other: childCanon, Err: fmt.Errorf("symlink cycle back to %s: not followed", childCanon)})
			continue
		}
		if first, ok := w.dirs[childCanon]; ok {
			w.event(Event{Kind: EventAlias, Path: e.full, Root: root, Rel: e.rel, Other: first})
			continue
		}
		if depth+1 > w.opts.maxDepth() {
			w.event(Event{Kind: EventLimit, Path: e.full, Root: root, Rel: e.rel, Err: fmt.Errorf("deeper than %d folders: not walked", w.opts.maxDepth())})
			continue
		}
		w.dir(root, e.full, e.rel, childCanon, depth+1, ign, skill)
	}
}

// canonical returns the canonical path of an entry of the folder whose
// canonical path is parent: only symlinks need resolving.
func (w *skillWalker) canonical(parent string, e walkEntry) string {
	if !e.symlink {
		return filepath.Join(parent, e.name)
	}
	c, err := filepath.EvalSymlinks(e.full)
	if err != nil {
		return filepath.Join(parent, e.name)
	}
	if abs, err := filepath.Abs(c); err == nil {
		return abs
	}
	return c
}

// sortedHas reports whether entries sorted by name, as os.ReadDir returns
// them, have one named name.
func sortedHas(des []fs.DirEntry, name string) bool {
	i := sort.Search(len(des), func(i int) bool { return des[i].Name() >= name })
	return i < len(des) && des[i].Name() == name
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

func relOr(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// unwrapPath drops the *PathError wrapper: messages name the path once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func isLoop(err error) bool {
	return strings.Contains(err.Error(), "too many levels of symbolic links")
}
