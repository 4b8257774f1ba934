package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/rules"
)

// Options configure Run.
type Options struct {
	// Paths are folders, SKILL.md files or agent definitions (default ".").
	Paths []string
	// Config holds the configured settings and rule options (nil: the
	// defaults); see FromSet.
	Config *rules.Set
	// Levels are the resolved severities and the rules turned off (see
	// Levels; nil: every rule runs with its own severity).
	Levels *rules.Levels
	// ConfigFile is the configuration file: suppression paths are relative
	// to its folder, and unused suppressions are reported in it.
	ConfigFile string
	// Locate returns the line and column of a key of the configuration
	// file ("lint.suppress[0]"), or 0, 0.
	Locate func(key string) (line, col int)
	// Ambient overrides lint.ambient when not nil.
	Ambient []string
	// Workers bounds parallel file checks (0: GOMAXPROCS).
	Workers int
	// CacheDir holds the cache of body token counts ("" disables it).
	CacheDir string
}

// Report is what a run found.
type Report struct {
	// Diagnostics sorted by file, line, column and rule.
	Diagnostics []rules.Diagnostic
	// Skills and Agents count what was linted.
	Skills, Agents int
	// Suppressed counts findings silenced by [[lint.suppress]].
	Suppressed int
	// Errors are inputs that could not be read; the run is then not clean
	// whatever the findings (exit code 2).
	Errors []error

	// fixes are the fixes of the findings that have one; targets the
	// skill files they are in.
	fixes   map[diagKey]*Fix
	targets map[string]*fixTarget
	x       *run
	opts    Options
}

// run is what every unit of one run shares.
type run struct {
	settings *Settings
	cacheDir string
	// env gives every pass the configured options and severities.
	env *rules.Env
	// tokens counts body tokens; set up by the rule that needs it.
	tokens *bodyTokens

	skill, agent, repo, unused []*active
}

// active is a rule that runs, with its configured options.
type active struct {
	*Rule
	options rules.Options
}

// newRun sorts the rules the levels leave on by the unit they read.
func newRun(opts Options) *run {
	x := &run{settings: FromSet(opts.Config), cacheDir: opts.CacheDir, env: &rules.Env{Options: opts.Config, Levels: opts.Levels}}
	for _, r := range all() {
		if _, on := opts.Levels.Level(r.Rule); !on {
			continue
		}
		a := &active{Rule: r}
		if r.Options != nil {
			a.options = opts.Config.Of(r.Options)
		}
		switch {
		case r.Skill != nil:
			x.skill = append(x.skill, a)
		case r.Agent != nil:
			x.agent = append(x.agent, a)
		case r.Repo != nil:
			x.repo = append(x.repo, a)
		case r.Unused != nil:
			x.unused = append(x.unused, a)
		}
	}
	return x
}

// check runs rules over one unit; where names the file in the error of a
// rule that fails.
func (x *run) check(rs []*active, where string, u unit) ([]rules.Diagnostic, error) {
	diags, _, err := x.checkFixes(rs, where, u)
	return diags, err
}

// checkFixes is check that also returns the fixes the rules attached, by
// index in the diagnostics. Each rule runs through rules.Call.
func (x *run) checkFixes(rs []*active, where string, u unit) ([]rules.Diagnostic, map[int]*Fix, error) {
	var diags []rules.Diagnostic
	var fixes map[int]*Fix
	if where == "" {
		where = "lint"
	}
	// One pass, reset for each rule: a rule keeps nothing of it after its
	// check returns.
	p := new(Pass)
	u.pass = p
	for _, r := range rs {
		*p = Pass{Pass: rules.Pass{Rule: r.Rule.Rule, Options: r.options, Env: x.env, Where: where, Unit: &u}, Rule: r.Rule, Settings: x.settings, run: x}
		if err := rules.Call(&p.Pass); err != nil {
			return nil, nil, err
		}
		base := len(diags)
		diags = append(diags, p.Diagnostics()...)
		for i, f := range p.fixes {
			if fixes == nil {
				fixes = map[int]*Fix{}
			}
			fixes[base+i] = f
		}
	}
	return diags, fixes, nil
}

// Run discovers skills and agent definitions under the given paths and
// runs the rules the levels leave on over them. A failing rule is returned
// as an error; unreadable inputs are listed in the report.
func Run(opts Options) (*Report, error) {
	x := newRun(opts)
	s := x.settings
	for _, group := range [][]*active{x.skill, x.agent, x.repo, x.unused} {
		for _, r := range group {
			if r.Start == nil {
				continue
			}
			if _, err := x.check([]*active{r}, "", unit{start: true}); err != nil {
				return nil, err
			}
		}
	}
	defer x.tokens.save()

	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	rep := &Report{x: x, opts: opts, fixes: map[diagKey]*Fix{}, targets: map[string]*fixTarget{}}
	in := gatherInputs(paths, s, rep)
	units, events := x.walk(in, opts.Workers, rep)
	var diags []rules.Diagnostic
	inline := map[string][]*inlineDirective{}
	repo := &Repo{events: events}
	// Canonical paths of what was linted, to tell which lint paths held
	// nothing (SK001).
	var linted []string
	for _, u := range units {
		if u.readErr != nil {
			rep.Errors = append(rep.Errors, u.readErr)
			continue
		}
		if u.ruleErr != nil {
			return nil, u.ruleErr
		}
		for i, f := range u.fixes {
			rep.fixes[keyOf(u.diags[i])] = f
			rep.targets[u.src.Path] = &fixTarget{src: u.src, miscased: u.miscased, dirSkill: u.dirSkill}
		}
		if len(u.inline) > 0 {
			inline[u.src.Path] = u.inline
		}
		diags = append(diags, u.diags...)
		if u.summary != nil {
			rep.Skills++
			repo.skills = append(repo.skills, *u.summary)
			linted = append(linted, u.src.Canonical)
		}
	}
	ds, agents, err := x.agents(in, opts.Ambient, rep)
	if err != nil {
		return nil, err
	}
	diags = append(diags, ds...)
	linted = append(linted, agents...)
	for _, p := range in.dirs {
		dir := canonicalPath(p) + string(filepath.Separator)
		found := false
		for _, l := range linted {
			found = found || strings.HasPrefix(l, dir)
		}
		if !found {
			repo.empty = append(repo.empty, p)
		}
	}
	ds, fixes, err := x.checkFixes(x.repo, "", unit{repo: repo})
	if err != nil {
		return nil, err
	}
	for i, f := range fixes {
		rep.fixes[keyOf(ds[i])] = f
	}
	diags = append(diags, ds...)

	// Configured severities apply to unused suppressions too; suppressions
	// do not. Inline comments first, then skillopt.toml.
	diags, unusedInline := suppressInline(x, inline, diags, rep)
	diags, unused := suppress(opts, s, diags, rep)
	if len(unusedInline) > 0 {
		if unused == nil {
			unused = &Suppressions{file: opts.ConfigFile}
		}
		unused.inline = unusedInline
	}
	if unused != nil && (len(unused.unused) > 0 || len(unused.inline) > 0) {
		ds, err := x.check(x.unused, opts.ConfigFile, unit{unused: unused})
		if err != nil {
			return nil, err
		}
		diags = append(diags, ds...)
	}
	sortDiagnostics(diags)
	rep.Diagnostics = diags
	return rep, nil
}

// walk checks skill files in workers while the tree is walked. Units keep
// walk order, so the report does not depend on scheduling.
func (x *run) walk(in *lintInputs, workers int, rep *Report) ([]*Skill, []catalog.Event) {
	s := x.settings
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan *Skill, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One read buffer per worker: memory follows the largest file,
			// not the repository. Nothing kept after a file is checked
			// points into it (diagnostics and summaries hold copies).
			var buf []byte
			for u := range next {
				u.diags, u.fixes, u.summary, u.readErr, u.ruleErr = x.lintSkill(u, &buf)
				u.doc, u.refs = nil, nil // release the file and what was read of it
			}
		}()
	}
	var units []*Skill
	seen := map[string]bool{}
	add := func(src catalog.Source, miscased bool) {
		// A file named on the command line and also found by a walk is
		// linted once.
		if seen[src.Canonical] {
			return
		}
		seen[src.Canonical] = true
		u := &Skill{src: src, miscased: miscased, dirSkill: miscased}
		switch src.Kind {
		case catalog.SkillFile:
			u.dirSkill = true
		case catalog.GivenFile:
			base := filepath.Base(src.Path)
			u.dirSkill = strings.EqualFold(base, catalog.SkillFileName)
			u.miscased = u.dirSkill && base != catalog.SkillFileName
		}
		units = append(units, u)
		next <- u
	}
	var temps []catalog.Event
	for _, f := range in.files {
		add(f, false)
		temps = append(temps, tempsBeside(f.Path)...)
	}
	walkOpts := catalog.WalkOptions{MaxDepth: s.MaxDepth, MaxFiles: s.MaxFiles, Nested: true}
	walkOpts.OnSource = func(src catalog.Source) { add(src, false) }
	disc := catalog.DiscoverRoots(in.roots, walkOpts)
	for _, ev := range disc.Events {
		switch ev.Kind {
		case catalog.EventUnreadable, catalog.EventLimit, catalog.EventMissing:
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %v", ev.Path, ev.Err))
		case catalog.EventMiscased:
			// skill.md and the like: invisible to most loaders, linted here.
			add(catalog.Source{Path: ev.Path, Canonical: canonicalPath(ev.Path), Root: ev.Root, Rel: ev.Rel, Kind: catalog.SkillFile}, true)
		}
	}
	close(next)
	wg.Wait()
	return units, append(disc.Events, temps...)
}

// tempsBeside finds the temporary files the atomic writer left beside a
// file named on the command line (a walk finds those of the folders it
// reads).
func tempsBeside(p string) []catalog.Event {
	dir, base := filepath.Split(p)
	if dir == "" {
		dir = "."
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []catalog.Event
	for _, de := range des {
		if b, ok := atomicfile.TempOf(de.Name()); ok && b == base && de.Type().IsRegular() {
			out = append(out, catalog.Event{Kind: catalog.EventTemp, Path: filepath.Join(filepath.Dir(p), de.Name()), Other: p})
		}
	}
	return out
}

// lintSkill reads, parses and checks one skill file.
func (x *run) lintSkill(u *Skill, buf *[]byte) ([]rules.Diagnostic, map[int]*Fix, *skillSummary, error, error) {
	data, err := catalog.ReadSkillFile(u.src.Path, *buf)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", u.src.Path, err), nil
	}
	if cap(data) > cap(*buf) {
		*buf = data[:0]
	}
	ds, fixes, sum, err := x.lintSkillData(u, data)
	return ds, fixes, sum, nil, err
}

// lintSkillData parses and checks the content of one skill file.
func (x *run) lintSkillData(u *Skill, data []byte) ([]rules.Diagnostic, map[int]*Fix, *skillSummary, error) {
	u.doc, u.err = catalog.ParseSkillDoc(u.src.Path, data)
	if u.src.Kind == catalog.RootFile && !u.doc.HasSkillFrontmatter() {
		de := u.docErr()
		if u.err == nil || (de != nil && de.Kind == catalog.ErrNoFrontmatter) {
			u.notSkill = true
		}
	}
	u.inline = parseInline(u.doc, u.notSkill)
	ds, fixes, err := x.checkFixes(x.skill, u.src.Path, unit{skill: u})
	if err != nil {
		return nil, nil, nil, err
	}
	if u.notSkill {
		return ds, fixes, nil, nil
	}
	s := &skillSummary{path: u.src.Path, canonical: u.src.Canonical, name: u.doc.SkillName(), nameLine: 1, nameCol: 1}
	if f := u.doc.Field("name"); f != nil {
		s.nameLine, s.nameCol = f.ValueLine, f.ValueCol
	}
	if f := u.doc.Field("description"); f != nil && catalog.IsString(f.Node) {
		s.hasDesc = true
		s.descChars = charCount(f.Node.Value)
		s.descLine, s.descCol = f.ValueLine, f.ValueCol
	}
	if u.docErr() != nil && u.doc.Frontmatter == nil {
		// Without readable frontmatter there is no declared name to
		// compare with other skills' (SK050).
		s.name = ""
	}
	return ds, fixes, s, nil
}

// agents reads, resolves and checks every agent definition; it returns
// the diagnostics and the canonical paths of the definitions linted.
func (x *run) agents(in *lintInputs, ambient []string, rep *Report) ([]rules.Diagnostic, []string, error) {
	s := x.settings
	if ambient == nil {
		ambient = s.Ambient
	}
	var diags []rules.Diagnostic
	var linted []string
	for _, a := range in.agents {
		def, err := catalog.ReadAgent(a.path)
		if err != nil {
			rep.Errors = append(rep.Errors, err)
			continue
		}
		rep.Agents++
		linted = append(linted, canonicalPath(a.path))
		lo := catalog.ResolveLoadout(def, catalog.LoadoutOptions{Ambient: ambient, HasAmbient: len(ambient) > 0,
			Walk: catalog.WalkOptions{MaxDepth: s.MaxDepth, MaxFiles: s.MaxFiles}})
		u := &Agent{def: def, loadout: lo}
		ds, err := x.check(x.agent, a.path, unit{agent: u})
		if err != nil {
			return nil, nil, err
		}
		diags = append(diags, ds...)
	}
	return diags, linted, nil
}

func sortDiagnostics(diags []rules.Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Rule < b.Rule
	})
}
