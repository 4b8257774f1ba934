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
// one of the check functions is set.
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

// Pass is what a rule sees of one unit besides the unit itself, and where
// it reports.
type Pass struct {
	Rule *Rule
	// Settings are the configured [lint] settings.
	Settings *Settings
	// Options are the rule's own configured options (nil when it declares
	// none): p.Options.(*myOptions).
	Options rules.Options

	run      *run
	override *rules.Severity // the configured severity, when there is one
	diags    []rules.Diagnostic
	// fixes maps the index of a diagnostic in diags to its fix.
	fixes map[int]*Fix
	// noSuggest is set while a suggested name is checked against the
	// name rules, which would otherwise suggest again.
	noSuggest bool
}

// Report records a finding of the rule at a file position (1-based; 0 is
// taken as 1). A severity configured for the rule replaces sev.
func (p *Pass) Report(sev rules.Severity, file string, line, col int, format string, args ...any) {
	if p.override != nil {
		sev = *p.override
	}
	p.diags = append(p.diags, rules.Diagnostic{Rule: p.Rule.ID, Severity: sev, File: file,
		Line: max(line, 1), Column: max(col, 1), Message: fmt.Sprintf(format, args...)})
}

// Fix attaches a fix to the finding reported last. A nil fix is ignored.
func (p *Pass) Fix(f *Fix) {
	if f == nil || len(p.diags) == 0 || (len(f.Edits) == 0 && f.Remove == "") {
		return
	}
	if p.fixes == nil {
		p.fixes = map[int]*Fix{}
	}
	p.fixes[len(p.diags)-1] = f
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
