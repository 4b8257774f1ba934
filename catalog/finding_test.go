package catalog

import "fmt"

// findingKindNames name the kinds in test expectations.
var findingKindNames = [...]string{
	AgentFrontmatterInvalid:    "agent-frontmatter-invalid",
	AgentDuplicateKey:          "agent-duplicate-key",
	InheritSkillsNotBoolean:    "inherit-skills-not-boolean",
	SkillsFieldType:            "skills-field-type",
	SkillsElementInvalid:       "skills-element-invalid",
	SkillPathMissing:           "skill-path-missing",
	SkillPathUnsupported:       "skill-path-unsupported",
	SelectedNameAmbiguous:      "selected-name-ambiguous",
	SelectedCandidateUnusable:  "selected-candidate-unusable",
	SelectedNameUnresolved:     "selected-name-unresolved",
	UnselectedCandidateProblem: "unselected-candidate-problem",
	UnclassifiableCandidate:    "unclassifiable-candidate",
	SelectedSkillLong:          "selected-skill-long",
}

func (k FindingKind) String() string {
	if k > 0 && int(k) < len(findingKindNames) {
		return findingKindNames[k]
	}
	return fmt.Sprintf("finding(%d)", int(k))
}
