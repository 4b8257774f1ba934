package lint

// Rules about agent definitions and their skill loadouts: each reports one
// kind of catalog.Finding.

import (
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

var agentFrontmatterInvalid = agentRule(catalog.AgentFrontmatterInvalid, rules.Error, &rules.Rule{ID: "AG001", Name: "agent-frontmatter-invalid", Kind: rules.Lint, Severity: rules.Error,
	Title: "The agent definition's frontmatter is invalid",
	Why:   "An invalid definition cannot be used, and a broken project definition still shadows a global one of the same name.",
	Since: rules.FirstVersion,
	Doc:   "The agent definition's frontmatter is missing, unclosed, not a mapping, or not valid YAML. The definition is invalid, and an invalid project definition still shadows a global one of the same file name."})

var agentDuplicateKey = agentRule(catalog.AgentDuplicateKey, rules.Error, &rules.Rule{ID: "AG002", Name: "agent-duplicate-key", Kind: rules.Lint, Severity: rules.Error,
	Title: "A key of the agent definition repeats",
	Why:   "Duplicate keys invalidate the definition.",
	Since: rules.FirstVersion,
	Doc:   "A key of the agent definition's frontmatter repeats, even with an equal value. Duplicate keys invalidate the definition."})

var inheritSkillsNotBoolean = agentRule(catalog.InheritSkillsNotBoolean, rules.Error, &rules.Rule{ID: "AG003", Name: "inherit-skills-not-boolean", Kind: rules.Lint, Severity: rules.Error,
	Title: "inheritSkills is not a boolean",
	Why:   "Only true and false count; any other spelling invalidates the definition.",
	Since: rules.FirstVersion,
	Doc:   "inheritSkills is not a YAML 1.2 boolean. Only true and false (any case) count; \"true\" in quotes, yes, on and 1 are not booleans and invalidate the definition."})

var skillsFieldType = agentRule(catalog.SkillsFieldType, rules.Error, &rules.Rule{ID: "AG004", Name: "skills-field-type", Kind: rules.Lint, Severity: rules.Error,
	Title: "skills or skillPath has the wrong type",
	Why:   "Only a comma-separated string or a list is valid; anything else invalidates the definition.",
	Since: rules.FirstVersion,
	Doc:   "skills or skillPath is neither a comma-separated string nor a list (a mapping, a boolean, a number). This invalidates the definition; an empty list is valid."})

var skillsElementInvalid = agentRule(catalog.SkillsElementInvalid, rules.Error, &rules.Rule{ID: "AG005", Name: "skills-element-invalid", Kind: rules.Lint, Severity: rules.Error,
	Title: "skills or skillPath has an empty or invalid element",
	Why:   "An empty or non-string element invalidates the definition.",
	Since: rules.FirstVersion,
	Doc:   "skills or skillPath has an empty element (a,,b, a, ,b, a trailing comma, \"\") or a list entry that is null or not a string. This invalidates the definition; repeated names are fine and resolved once."})

var skillPathMissing = agentRule(catalog.SkillPathMissing, rules.Error, &rules.Rule{ID: "AG006", Name: "skill-path-missing", Kind: rules.Lint, Severity: rules.Error,
	Title: "A skillPath entry does not exist",
	Why:   "A missing path makes the agent's loadout fail, even when no selected skill would come from it.",
	Since: rules.FirstVersion,
	Doc:   "A skillPath entry does not exist. Relative paths resolve against the folder of the agent file, absolute paths are taken as they are, and ~ and $VAR are not expanded. A missing path is a loadout error even when no selected name would come from it."})

var skillPathUnsupported = agentRule(catalog.SkillPathUnsupported, rules.Error, &rules.Rule{ID: "AG007", Name: "skill-path-unsupported", Kind: rules.Lint, Severity: rules.Error,
	Title: "A skillPath entry cannot be used",
	Why:   "A path that is not a markdown file or cannot be walked safely makes the loadout fail.",
	Since: rules.FirstVersion,
	Doc:   "A skillPath entry is a file that is not a .md file, or a path that cannot be inspected safely (unreadable folder, too deep or too large to walk). It is a loadout error even when no selected name would come from it."})

var selectedNameAmbiguous = agentRule(catalog.SelectedNameAmbiguous, rules.Error, &rules.Rule{ID: "AG008", Name: "selected-name-ambiguous", Kind: rules.Lint, Severity: rules.Error,
	Title: "A selected skill name is ambiguous",
	Why:   "When several private files declare a selected name, which one the agent gets is not defined, so the loadout fails.",
	Since: rules.FirstVersion,
	Doc:   "A selected skill name has more than one private candidate: different files on the skillPath entries declare it (root-level .md files count; one file reached by several paths counts once; hidden, node_modules, ignored and nested copies are never candidates)."})

var selectedCandidateUnusable = agentRule(catalog.SelectedCandidateUnusable, rules.Error, &rules.Rule{ID: "AG009", Name: "selected-candidate-unusable", Kind: rules.Lint, Severity: rules.Error,
	Title: "A selected skill cannot be used",
	Why:   "The only candidate of a selected name is invalid or disabled, and there is no fallback, so the loadout fails.",
	Since: rules.FirstVersion,
	Doc:   "The one private candidate of a selected name is invalid (for example no description) or has disable-model-invocation: true. The loadout fails; there is no fallback to ambient skills of that name."})

var selectedNamePending = agentRule(catalog.SelectedNameUnresolved, rules.Info, &rules.Rule{ID: "AG010", Name: "selected-name-pending", Kind: rules.Lint, Severity: rules.Info,
	Title: "A selected skill comes from the ambient skills",
	Why:   "A name not on any private path is resolved at run time; checking the ambient folders finds a missing or ambiguous one before the agent runs.",
	Since: rules.FirstVersion,
	Reads: []string{"lint.ambient"},
	Doc:   "A selected name is not on any private path, so it is taken from the ambient skills at run time. Without ambient folders (lint.ambient, --ambient) the linter can only note it; with them, a name that is missing, ambiguous, invalid or disabled there is an error."})

var unselectedCandidateProblem = agentRule(catalog.UnselectedCandidateProblem, rules.Warning, &rules.Rule{ID: "AG011", Name: "unselected-candidate-problem", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A candidate the agent does not select has a problem",
	Why:   "It does not break this loadout, but it is likely to break the next one that selects it.",
	Since: rules.FirstVersion,
	Doc:   "A private candidate the agent does not select is invalid, or several candidates share a name nobody selects. This does not invalidate the loadout but is kept as a warning for inspection."})

var unclassifiableCandidate = agentRule(catalog.UnclassifiableCandidate, rules.Warning, &rules.Rule{ID: "AG012", Name: "unclassifiable-candidate", Kind: rules.Lint, Severity: rules.Error,
	Title: "A candidate's name cannot be read",
	Why:   "An unreadable candidate makes it impossible to tell whether a selected name is unique or absent.",
	Since: rules.FirstVersion,
	Doc:   "A private candidate's name cannot be read (a YAML error, duplicate keys). If the agent selects names, their uniqueness or absence cannot be established and the loadout fails (error); otherwise it is a warning."})

var selectedSkillWarning = agentRule(catalog.SelectedSkillLong, rules.Warning, &rules.Rule{ID: "AG013", Name: "selected-skill-warning", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A selected skill's description is too long",
	Why:   "Pi warns on descriptions over 1,024 characters; the selection stays valid, but the warning is worth fixing.",
	Since: rules.FirstVersion,
	Doc:   "A selected skill's description is longer than Pi's recommended 1,024 characters. Pi's warning is kept; the selection stays valid."})

// agentRule makes the rule that reports one kind of finding of an agent
// definition and its loadout: fatal findings as errors, the others with
// the severity soft.
func agentRule(kind catalog.FindingKind, soft rules.Severity, r *rules.Rule) *Rule {
	return &Rule{Rule: r, Agent: func(p *Pass, u *Agent) {
		for _, f := range u.loadout.Findings {
			if f.Kind != kind {
				continue
			}
			sev := soft
			if f.Fatal {
				sev = rules.Error
			}
			p.Report(sev, f.File, f.Line, f.Col, "%s", f.Message)
		}
	}}
}

// LoadoutDiagnostics turns the findings of a loadout into diagnostics of
// the rules that report them, in the order they were found, with the
// rules' own severities.
func LoadoutDiagnostics(lo *catalog.Loadout) []rules.Diagnostic {
	var out []rules.Diagnostic
	for _, f := range lo.Findings {
		one := &Agent{def: lo.Agent, loadout: &catalog.Loadout{Agent: lo.Agent, Findings: []catalog.Finding{f}}}
		for _, r := range Rules() {
			if r.Agent != nil {
				p := newPass(r, nil, nil, nil)
				r.Agent(p, one)
				out = append(out, p.Diagnostics()...)
			}
		}
	}
	return out
}
