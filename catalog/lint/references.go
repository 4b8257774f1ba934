package lint

// Rules about the local links of a skill (see refs.go for the check).

import (
	"github.com/skillopt/skillopt/rules"
)

var brokenLocalReference = refRule(refBroken, &rules.Rule{ID: "SK043", Name: "broken-local-reference", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A local link points nowhere",
	Why:   "A broken link sends the model to a file that does not exist, which wastes a turn or derails the task.",
	Since: rules.FirstVersion,
	Doc:   "A markdown link or image points to a relative path that does not exist. URLs, mailto:, in-page anchors, absolute paths and links inside code are skipped; #fragments and ?queries are stripped and %-escapes decoded. Links of the reference files SKILL.md links to are checked too."})

var referenceOutsideSkill = refRule(refOutside, &rules.Rule{ID: "SK044", Name: "reference-outside-skill", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A link leaves the skill folder",
	Why:   "A skill is installed as one folder, so a link outside it breaks once the skill is installed elsewhere.",
	Since: rules.FirstVersion,
	Doc:   "A relative link resolves to a path outside the skill folder. A skill is copied and installed as one folder, so such links break once it is installed elsewhere."})

var windowsPathSeparator = refRule(refBackslash, &rules.Rule{ID: "SK045", Name: "windows-path-separator", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A local link uses backslashes",
	Why:   "Backslash paths work only on Windows; forward slashes work everywhere.",
	Since: rules.FirstVersion,
	Doc:   "A local link uses backslashes. Use forward slashes: they work on every system, backslashes only on Windows."})

var deepReferenceChain = refRule(refDeep, &rules.Rule{ID: "SK046", Name: "deep-reference-chain", Kind: rules.Lint, Severity: rules.Warning,
	Title: "A file is reachable only through another reference file",
	Why:   "References one level deep let the agent learn of every file from SKILL.md; deeper chains hide files from it.",
	Since: rules.FirstVersion,
	Doc:   "A file of the skill is reachable only through another reference file, not linked from SKILL.md. The spec and Anthropic recommend keeping references one level deep, so the agent learns of every file from SKILL.md."})

// refRule makes the rule that reports one kind of finding of the shared
// reference check (see Skill.references), with the rule's severity.
func refRule(kind refKind, r *rules.Rule) *Rule {
	return &Rule{Rule: r, Skill: func(p *Pass, u *Skill) {
		if u.notSkill {
			return
		}
		for _, f := range u.references() {
			if f.kind == kind {
				p.Report(r.Severity, f.file, f.line, f.col, "%s", f.msg)
			}
		}
	}}
}
