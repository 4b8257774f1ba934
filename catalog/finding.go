package catalog

// FindingKind classifies a problem of an agent definition or of its
// loadout. The lint rules about agent definitions each report one kind.
type FindingKind int

// The kinds of findings.
const (
	// AgentFrontmatterInvalid: the frontmatter is missing, unclosed, not
	// a mapping or not valid YAML.
	AgentFrontmatterInvalid FindingKind = iota + 1
	// AgentDuplicateKey: a frontmatter key repeats.
	AgentDuplicateKey
	// InheritSkillsNotBoolean: inheritSkills is not a YAML boolean.
	InheritSkillsNotBoolean
	// SkillsFieldType: skills or skillPath is neither a string nor a list.
	SkillsFieldType
	// SkillsElementInvalid: skills or skillPath has an empty or non-string
	// element.
	SkillsElementInvalid
	// SkillPathMissing: a skillPath entry does not exist.
	SkillPathMissing
	// SkillPathUnsupported: a skillPath entry is a file other than .md, or
	// cannot be inspected safely.
	SkillPathUnsupported
	// SelectedNameAmbiguous: a selected name has several private
	// candidates.
	SelectedNameAmbiguous
	// SelectedCandidateUnusable: the one private candidate of a selected
	// name is invalid or disabled.
	SelectedCandidateUnusable
	// SelectedNameUnresolved: a selected name no private path provides;
	// left to the ambient skills (a note) or not found, ambiguous or
	// unusable among them (fatal).
	SelectedNameUnresolved
	// UnselectedCandidateProblem: an unselected private candidate is
	// invalid, or several share a name nobody selects.
	UnselectedCandidateProblem
	// UnclassifiableCandidate: a private candidate's name cannot be read.
	UnclassifiableCandidate
	// SelectedSkillLong: a selected skill's description is longer than Pi
	// recommends.
	SelectedSkillLong
)

// Finding is one problem of an agent definition or of its loadout.
type Finding struct {
	Kind FindingKind
	// Fatal findings make the definition or the loadout invalid; the
	// others are kept for inspection.
	Fatal     bool
	File      string
	Line, Col int
	Message   string
}
