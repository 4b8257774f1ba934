package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
)

// LintOptions configure Lint.
type LintOptions struct {
	// Paths are folders, SKILL.md files or agent definitions (default ".").
	Paths []string
	// Config supplies [lint] and [rules] (nil: the defaults).
	Config *config.Config
	// Ambient overrides lint.ambient when not nil.
	Ambient []string
	// Workers bounds parallel file checks (0: GOMAXPROCS).
	Workers int
	// CacheDir holds the cache of body token counts ("" disables it).
	CacheDir string
}

// LintReport is what Lint found.
type LintReport struct {
	// Diagnostics sorted by file, line, column and rule.
	Diagnostics []rules.Diagnostic
	// Skills and Agents count what was linted.
	Skills, Agents int
	// Suppressed counts findings silenced by [[lint.suppress]].
	Suppressed int
	// Errors are inputs that could not be read; the run is then not clean
	// whatever the findings (exit code 2).
	Errors []error
}

// lintCtx is what every unit of one run shares.
type lintCtx struct {
	cfg     *config.Lint
	profile string
	enc     string

	counterOnce sync.Once
	counter     *tokens.Counter
	cache       *tokenCache
}

// bodyTokens counts the tokens of a body, through the cache.
func (c *lintCtx) bodyTokens(body []byte) (int, error) {
	k := bodyKey(body)
	if n, ok := c.cache.get(k); ok {
		return n, nil
	}
	tc := c.tokens()
	if tc == nil {
		return 0, fmt.Errorf("no tokenizer for encoding %q", c.enc)
	}
	n := tc.Count(string(body))
	c.cache.put(k, n)
	return n, nil
}

func (c *lintCtx) skillsRef() bool { return c.profile == "skills-ref" }

func (c *lintCtx) tokens() *tokens.Counter {
	c.counterOnce.Do(func() {
		c.counter, _ = tokens.New(c.enc)
	})
	return c.counter
}

// skillUnit is one skill file, the input of the SK rules that look at a
// single file.
type skillUnit struct {
	ctx *lintCtx
	src Source
	doc *SkillDoc
	err error // *DocError from parsing
	// dirSkill: a SKILL.md (or miscased skill.md) of a folder, whose name
	// must match the folder; otherwise a single-file skill.
	dirSkill bool
	miscased bool
	// notSkill: a root-level markdown file without skill frontmatter.
	notSkill bool

	refsOnce sync.Once
	refs     []refFinding

	// Results, written by the worker that checked the unit.
	diags   []rules.Diagnostic
	summary *skillSummary
	readErr error
	ruleErr error
}

func (u *skillUnit) docErr() *DocError {
	var de *DocError
	if errors.As(u.err, &de) {
		return de
	}
	return nil
}

// fm reports whether the frontmatter mapping is available for field rules.
func (u *skillUnit) fm() bool { return !u.notSkill && u.doc != nil && u.doc.Frontmatter != nil }

// skillSummary keeps what the repository-wide rules need of a skill after
// its file is released.
type skillSummary struct {
	path, canonical   string
	name              string
	nameLine, nameCol int
	descChars         int
	descLine, descCol int
	hasDesc           bool
}

// agentUnit is one agent definition with its resolved loadout.
type agentUnit struct {
	ctx     *lintCtx
	agent   *AgentDef
	loadout *Loadout
}

// repoUnit is the input of the rules about the whole run: discovery events,
// names across skills, totals.
type repoUnit struct {
	ctx    *lintCtx
	events []Event
	skills []skillSummary
	// empty lists lint paths that yielded nothing to lint.
	empty []string
}

// suppressUnit carries the suppressions nothing matched.
type suppressUnit struct {
	ctx    *lintCtx
	file   string
	unused []unusedSuppression
}

type unusedSuppression struct {
	index     int
	rule      string
	path      string
	line, col int
}

// Lint discovers skills and agent definitions under the given paths and
// runs the enabled lint rules over them. A failing rule is returned as an
// error; unreadable inputs are listed in the report.
func Lint(opts LintOptions) (*LintReport, error) {
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	lc := &cfg.Lint
	ctx := &lintCtx{cfg: lc, profile: lc.Profile, enc: lc.Encoding}
	enabled := enabledLintRules(cfg)
	rep := &LintReport{}
	on := func(id string) bool {
		for _, r := range enabled {
			if r.ID == id {
				return true
			}
		}
		return false
	}
	if lc.BodyTokens > 0 && on("SK041") {
		ctx.cache = openTokenCache(opts.CacheDir, lc.Encoding)
		if !ctx.cache.warm() {
			// Load the vocabulary while the tree is walked; with a warm
			// cache it may not be needed at all.
			ctx.tokens().Preload()
		}
		defer ctx.cache.save() // best effort: counts are exact without it
	}

	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	walkOpts := WalkOptions{MaxDepth: lc.MaxDepth, MaxFiles: lc.MaxFiles, Nested: true}
	in := gatherInputs(paths, lc, rep)
	skillRules, agentRules, repoRules, suppressRules := splitLintRules(enabled)

	// Files are checked by workers while the walk goes on; units keep walk
	// order, so the report does not depend on scheduling.
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan *skillUnit, 4*workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One read buffer per worker: memory follows the largest file,
			// not the repository. Nothing kept after a file is checked
			// points into it (diagnostics and summaries hold copies).
			var buf []byte
			for u := range next {
				u.diags, u.summary, u.readErr, u.ruleErr = lintSkill(u, skillRules, &buf)
				u.doc, u.refs = nil, nil // release the file and what was read of it
			}
		}()
	}
	var units []*skillUnit
	seen := map[string]bool{}
	add := func(s Source, miscased bool) {
		// A file named on the command line and also found by a walk is
		// linted once.
		if seen[s.Canonical] {
			return
		}
		seen[s.Canonical] = true
		u := &skillUnit{ctx: ctx, src: s, miscased: miscased, dirSkill: miscased}
		switch s.Kind {
		case SkillFile:
			u.dirSkill = true
		case GivenFile:
			base := filepath.Base(s.Path)
			u.dirSkill = strings.EqualFold(base, SkillFileName)
			u.miscased = u.dirSkill && base != SkillFileName
		}
		units = append(units, u)
		next <- u
	}
	for _, f := range in.files {
		add(f, false)
	}
	walkOpts.onSource = func(s Source) { add(s, false) }
	disc := DiscoverRoots(in.roots, walkOpts)
	for _, ev := range disc.Events {
		switch ev.Kind {
		case EventUnreadable, EventLimit, EventMissing:
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %v", ev.Path, ev.Err))
		case EventMiscased:
			// skill.md and the like: invisible to most loaders, linted here.
			add(Source{Path: ev.Path, Canonical: canonicalPath(ev.Path), Root: ev.Root, Rel: ev.Rel, Kind: SkillFile}, true)
		}
	}
	close(next)
	wg.Wait()

	var diags []rules.Diagnostic
	repo := &repoUnit{ctx: ctx, events: disc.Events}
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
		diags = append(diags, u.diags...)
		if u.summary != nil {
			rep.Skills++
			repo.skills = append(repo.skills, *u.summary)
			linted = append(linted, u.src.Canonical)
		}
	}

	for _, a := range in.agents {
		data, err := readSkillFile(a.path)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %w", a.path, err))
			continue
		}
		rep.Agents++
		linted = append(linted, canonicalPath(a.path))
		ag := ParseAgent(a.path, data)
		ambient := lc.Ambient
		if opts.Ambient != nil {
			ambient = opts.Ambient
		}
		lo := ResolveLoadout(ag, LoadoutOptions{Ambient: ambient, HasAmbient: len(ambient) > 0, Walk: WalkOptions{MaxDepth: lc.MaxDepth, MaxFiles: lc.MaxFiles}})
		ds, err := runUnit(&agentUnit{ctx: ctx, agent: ag, loadout: lo}, agentRules, a.path)
		if err != nil {
			return nil, err
		}
		diags = append(diags, ds...)
	}
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
	ds, err := runUnit(repo, repoRules, "")
	if err != nil {
		return nil, err
	}
	diags = append(diags, ds...)

	diags, unused := applyConfig(cfg, diags, rep)
	if len(unused) > 0 {
		ds, err := runUnit(&suppressUnit{ctx: ctx, file: cfg.Path, unused: unused}, suppressRules, cfg.Path)
		if err != nil {
			return nil, err
		}
		// Severity overrides apply to SK059 too; suppressions do not.
		for _, d := range ds {
			if d, keep := overrideSeverity(cfg, d); keep {
				diags = append(diags, d)
			}
		}
	}
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
	rep.Diagnostics = diags
	return rep, nil
}

// lintSkill reads, parses and checks one skill file.
func lintSkill(u *skillUnit, rs []*rules.Rule, buf *[]byte) ([]rules.Diagnostic, *skillSummary, error, error) {
	data, err := readSkillFileBuf(u.src.Path, *buf)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.src.Path, err), nil
	}
	if cap(data) > cap(*buf) {
		*buf = data[:0]
	}
	u.doc, u.err = ParseSkillDoc(u.src.Path, data)
	if u.src.Kind == RootFile && !u.doc.HasSkillFrontmatter() {
		de := u.docErr()
		if u.err == nil || (de != nil && de.Kind == ErrNoFrontmatter) {
			u.notSkill = true
		}
	}
	ds, err := runUnit(u, rs, u.src.Path)
	if err != nil {
		return nil, nil, nil, err
	}
	if u.notSkill {
		return ds, nil, nil, nil
	}
	s := &skillSummary{path: u.src.Path, canonical: u.src.Canonical, name: u.doc.SkillName(), nameLine: 1, nameCol: 1}
	if f := u.doc.Field("name"); f != nil {
		s.nameLine, s.nameCol = f.ValueLine, f.ValueCol
	}
	if f := u.doc.Field("description"); f != nil && isStr(f.Node) {
		s.hasDesc = true
		s.descChars = charCount(f.Node.Value)
		s.descLine, s.descCol = f.ValueLine, f.ValueCol
	}
	if u.docErr() != nil && u.doc.Frontmatter == nil {
		// Without readable frontmatter there is no declared name to
		// compare with other skills' (SK050).
		s.name = ""
	}
	return ds, s, nil, nil
}

// runUnit runs rules over one unit through the rules engine, which turns a
// panic into an error naming the rule.
func runUnit(unit any, rs []*rules.Rule, where string) ([]rules.Diagnostic, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	res, err := rules.Run(nil, rs, &rules.Env{Settings: unit})
	if err != nil {
		var re *rules.RuleError
		if errors.As(err, &re) {
			re.Capture = where // the file the rule was checking
			if where == "" {
				re.Capture = "lint"
			}
		}
		return nil, err
	}
	return res.Diagnostics, nil
}

// lintInputs is what the lint paths expand to.
type lintInputs struct {
	roots  []Root
	files  []Source // skill files named directly
	agents []agentInput
	// dirs are the folder paths given (for SK001).
	dirs []string
}

type agentInput struct{ path string }

// canonicalPath is the absolute path with symlinks resolved (as far as
// they resolve).
func canonicalPath(p string) string {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		p = c
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// gatherInputs expands the lint paths: folders are walked for skills (with
// their hidden skill folders) and searched for agent folders; files are
// skills or agent definitions by name, place or frontmatter.
func gatherInputs(paths []string, lc *config.Lint, rep *LintReport) *lintInputs {
	in := &lintInputs{}
	seenAgent := map[string]bool{}
	addAgent := func(p string) {
		canon := canonicalPath(p)
		if !seenAgent[canon] {
			seenAgent[canon] = true
			in.agents = append(in.agents, agentInput{path: p})
		}
	}
	addAgentFolder := func(dir string) {
		des, err := os.ReadDir(dir)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %v", dir, unwrapPath(err)))
			return
		}
		for _, de := range des {
			name := de.Name()
			// A README documents the folder; it is not an agent.
			if strings.HasPrefix(name, ".") || !strings.EqualFold(path.Ext(name), ".md") || strings.EqualFold(name, "README.md") {
				continue
			}
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				addAgent(p)
			}
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = errors.New("no such file or directory")
			} else {
				err = unwrapPath(err)
			}
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %v", p, err))
			continue
		}
		if !st.IsDir() {
			if isAgentFile(p, lc.AgentFolders) {
				addAgent(p)
				continue
			}
			in.files = append(in.files, Source{Path: filepath.Clean(p), Canonical: canonicalPath(p), Root: p, Rel: ".", Kind: GivenFile})
			continue
		}
		in.dirs = append(in.dirs, p)
		if isAgentFolder(p, lc.AgentFolders) {
			addAgentFolder(p)
			continue
		}
		in.roots = append(in.roots, Root{Path: p})
		for _, f := range lc.SkillFolders {
			sub, ok := below(p, f)
			if !ok {
				continue
			}
			if st, err := os.Stat(sub); err == nil && st.IsDir() {
				// Pi ignores root-level files of .agents/skills folders.
				in.roots = append(in.roots, Root{Path: sub, NoRootFiles: path.Base(path.Dir(f)) == ".agents"})
			}
		}
		for _, f := range lc.AgentFolders {
			sub, ok := below(p, f)
			if !ok {
				continue
			}
			if st, err := os.Stat(sub); err == nil && st.IsDir() {
				addAgentFolder(sub)
			}
		}
	}
	// Files given directly are deduplicated against each other here and
	// against walked files by canonical path in the walk's map.
	return in
}

// below joins a configured folder (from skillopt.toml, which may have come
// with the repository) to a lint path; one that would climb out of it
// ("a/../../x", absolute) is not used.
func below(dir, folder string) (string, bool) {
	local, err := untrusted.Rel(folder)
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, local), true
}

// isAgentFolder reports whether dir is one of the configured agent folders
// (compared by its trailing path elements).
func isAgentFolder(dir string, folders []string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	abs = filepath.ToSlash(abs)
	for _, f := range folders {
		f = strings.Trim(path.Clean(f), "/")
		if abs == f || strings.HasSuffix(abs, "/"+f) {
			return true
		}
	}
	return false
}

// isAgentFile reports whether a file is an agent definition: a markdown
// file in an agent folder, or one whose frontmatter sets an agent skill
// field. SKILL.md files never are.
func isAgentFile(p string, folders []string) bool {
	if strings.EqualFold(filepath.Base(p), SkillFileName) {
		return false
	}
	if strings.EqualFold(filepath.Ext(p), ".md") && isAgentFolder(filepath.Dir(p), folders) {
		return true
	}
	data, err := readSkillFile(p)
	if err != nil {
		return false
	}
	d, _ := ParseSkillDoc(p, data)
	return d.Frontmatter != nil && IsAgentFrontmatter(d)
}

// enabledLintRules returns the lint rules minus those disabled by
// rules.disable or lint.disable (IDs, ID prefixes or names).
func enabledLintRules(cfg *config.Config) []*rules.Rule {
	all := LintRules()
	off := map[string]bool{}
	for _, ref := range append(append([]string{}, cfg.Rules.Disable...), cfg.Lint.Disable...) {
		ref = strings.TrimSpace(ref)
		for _, r := range all {
			if ref != "" && (strings.EqualFold(r.ID, ref) || r.Name == ref || strings.HasPrefix(r.ID, strings.ToUpper(ref))) {
				off[r.ID] = true
			}
		}
	}
	var out []*rules.Rule
	for _, r := range all {
		if !off[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// applyConfig applies severity overrides ("off" drops) and suppressions,
// and returns the suppressions nothing matched.
func applyConfig(cfg *config.Config, diags []rules.Diagnostic, rep *LintReport) ([]rules.Diagnostic, []unusedSuppression) {
	byName := lintRuleNames()
	base := ""
	if cfg.Path != "" {
		if abs, err := filepath.Abs(filepath.Dir(cfg.Path)); err == nil {
			base = abs
		}
	}
	used := make([]bool, len(cfg.Lint.Suppress))
	out := diags[:0]
	for _, d := range diags {
		d, keep := overrideSeverity(cfg, d)
		if !keep {
			continue
		}
		suppressed := false
		for i, s := range cfg.Lint.Suppress {
			if !(strings.EqualFold(s.Rule, d.Rule) || byName[s.Rule] == d.Rule) {
				continue
			}
			if s.Path == "" || (base != "" && d.File != "" && globMatch(s.Path, relTo(base, d.File))) {
				used[i] = true
				suppressed = true
			}
		}
		if suppressed {
			rep.Suppressed++
			continue
		}
		out = append(out, d)
	}
	var unused []unusedSuppression
	for i, s := range cfg.Lint.Suppress {
		if !used[i] {
			line, col := cfg.SuppressionPos(i)
			if line == 0 {
				line, col = 1, 1
			}
			unused = append(unused, unusedSuppression{index: i, rule: s.Rule, path: s.Path, line: line, col: col})
		}
	}
	return out, unused
}

// lintRuleNames maps rule names to IDs.
var lintRuleNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range lintRules() {
		m[r.Name] = r.ID
	}
	return m
})

// overrideSeverity applies [lint.severity], then [rules.severity] (keys
// are IDs or names); keep is false for "off".
func overrideSeverity(cfg *config.Config, d rules.Diagnostic) (rules.Diagnostic, bool) {
	byName := lintRuleNames()
	for _, m := range []map[string]string{cfg.Lint.Severity, cfg.Rules.Severity} {
		for k, v := range m {
			if !strings.EqualFold(k, d.Rule) && byName[k] != d.Rule {
				continue
			}
			if strings.EqualFold(v, "off") {
				return d, false
			}
			if s, err := rules.ParseSeverity(v); err == nil {
				d.Severity = s
			}
			return d, true
		}
	}
	return d, true
}

// relTo returns file relative to base as a slash path ("" when it is
// outside base).
func relTo(base, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// globMatch matches a slash path against a pattern: * and ? within an
// element, ** for any number of elements.
func globMatch(pattern, name string) bool {
	if name == "" {
		return false
	}
	return globParts(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func globParts(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if globParts(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
