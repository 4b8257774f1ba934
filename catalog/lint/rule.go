package lint

import (
	"errors"
	"fmt"
	"sync"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// Rule is a lint rule: its value in the registry (ID, name, severity,
// documentation, options) and its check over the unit it reads. Exactly
// one of the check functions is set. The registry value's Run dispatches
// to it, so the lint engine runs every rule through rules.Call, the one
// driver of every rule.
type Rule struct {
	*rules.Rule
	// Skill checks one skill file.
	Skill func(*Pass, *Skill)
	// Agent checks one agent definition and its resolved loadout.
	Agent func(*Pass, *Agent)
	// Repo checks the whole run: discovery events and every skill.
	Repo func(*Pass, *Repo)
	// Unused reports the suppressions of skillopt.toml nothing matched.
	Unused func(*Pass, *Suppressions)
	// Start, when set, runs once before any file is read, for rules that
	// prepare a service of the run (the token counter).
	Start func(*Pass)
}

// unit is what the lint engine hands a rule through rules.Pass.Unit: the
// lint pass and the one unit to check (or start, for Start).
type unit struct {
	pass   *Pass
	skill  *Skill
	agent  *Agent
	repo   *Repo
	unused *Suppressions
	start  bool
}

// run is the registry value's Run of a lint rule: the check of the unit
// the driver handed over.
func (r *Rule) run(rp *rules.Pass) error {
	u, ok := rp.Unit.(*unit)
	if !ok {
		return fmt.Errorf("lint rule run without a lint unit")
	}
	p := u.pass
	switch {
	case u.start:
		if r.Start != nil {
			r.Start(p)
		}
	case u.skill != nil && r.Skill != nil:
		r.Skill(p, u.skill)
	case u.agent != nil && r.Agent != nil:
		r.Agent(p, u.agent)
	case u.repo != nil && r.Repo != nil:
		r.Repo(p, u.repo)
	case u.unused != nil && r.Unused != nil:
		r.Unused(p, u.unused)
	}
	return nil
}

// Pass is what a rule sees of one unit besides the unit itself, and where
// it reports: the rules.Pass every rule gets (options, environment,
// diagnostics), the lint settings, and the fixes of its findings.
type Pass struct {
	rules.Pass
	Rule *Rule
	// Settings are the configured [lint] settings.
	Settings *Settings

	run *run
	// fixes maps the index of a diagnostic in the pass's diagnostics to
	// its fix.
	fixes map[int]*Fix
	// noSuggest is set while a suggested name is checked against the
	// name rules, which would otherwise suggest again.
	noSuggest bool
}

// newPass returns the pass of r: configured options from set, severities
// from levels (both may be nil: the defaults).
func newPass(r *Rule, settings *Settings, set *rules.Set, levels *rules.Levels) *Pass {
	env := &rules.Env{Options: set, Levels: levels}
	return &Pass{Pass: *env.NewPass(r.Rule, nil), Rule: r, Settings: settings}
}

// Report records a finding of the rule at a file position (1-based; 0 is
// taken as 1) with severity sev, unless a severity is configured for the
// rule (rules.Levels.Resolve).
func (p *Pass) Report(sev rules.Severity, file string, line, col int, format string, args ...any) {
	p.Pass.Report(rules.Diagnostic{Severity: sev, File: file,
		Line: max(line, 1), Column: max(col, 1), Message: fmt.Sprintf(format, args...)})
}

// Fix attaches a fix to the finding reported last. A nil fix is ignored.
func (p *Pass) Fix(f *Fix) {
	n := len(p.Diagnostics())
	if f == nil || n == 0 || (len(f.Edits) == 0 && f.Remove == "") {
		return
	}
	if p.fixes == nil {
		p.fixes = map[int]*Fix{}
	}
	p.fixes[n-1] = f
}

// Skill is one skill file: the SKILL.md of a folder (or a miscased
// skill.md), a single-file skill at the top of a linted folder, or a
// markdown file there that turns out not to be a skill.
type Skill struct {
	src catalog.Source
	doc *catalog.SkillDoc
	err error // from parsing
	// dirSkill: a SKILL.md (or miscased skill.md) of a folder, whose name
	// must match the folder; otherwise a single-file skill.
	dirSkill bool
	miscased bool
	// notSkill: a root-level markdown file without skill frontmatter.
	notSkill bool

	refsOnce sync.Once
	refs     []refFinding

	// inline are the suppression comments of the file.
	inline []*inlineDirective

	// Results, written by the worker that checked the unit.
	diags   []rules.Diagnostic
	fixes   map[int]*Fix // by index in diags
	summary *skillSummary
	readErr error
	ruleErr error
}

func (u *Skill) docErr() *catalog.DocError {
	var de *catalog.DocError
	if errors.As(u.err, &de) {
		return de
	}
	return nil
}

// fm reports whether the frontmatter mapping is available for field rules.
func (u *Skill) fm() bool { return !u.notSkill && u.doc != nil && u.doc.Frontmatter != nil }

// withFrontmatter makes a skill check that runs only when the file has a
// frontmatter mapping.
func withFrontmatter(fn func(p *Pass, u *Skill, d *catalog.SkillDoc)) func(*Pass, *Skill) {
	return func(p *Pass, u *Skill) {
		if u.fm() {
			fn(p, u, u.doc)
		}
	}
}

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

// Agent is one agent definition with its resolved loadout.
type Agent struct {
	def     *catalog.AgentDef
	loadout *catalog.Loadout
}

// Repo is what the rules about the whole run read: discovery events, the
// skills linted, and the lint paths that held nothing.
type Repo struct {
	events []catalog.Event
	skills []skillSummary
	empty  []string
}

// Suppressions are the [[lint.suppress]] entries and the inline
// suppression comments nothing matched.
type Suppressions struct {
	file   string // the configuration file
	unused []unusedEntry
	inline []inlineUnused
}

type unusedEntry struct {
	index     int
	rule      string
	path      string
	line, col int
}
