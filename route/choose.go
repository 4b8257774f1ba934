package route

import (
	"errors"
	"fmt"
	"strconv"
)

// Tier is an execution tier of the model pool.
type Tier string

// The tiers, cheapest first.
const (
	Cheap    Tier = "cheap"
	Balanced Tier = "balanced"
	Frontier Tier = "frontier"
)

// Tiers lists the tiers, cheapest first.
var Tiers = []Tier{Cheap, Balanced, Frontier}

func (t Tier) rank() int {
	switch t {
	case Cheap:
		return 0
	case Frontier:
		return 2
	}
	return 1
}

// atLeast returns t raised to floor when it ranks below it.
func (t Tier) atLeast(floor Tier) Tier {
	if floor != "" && t.rank() < floor.rank() {
		return floor
	}
	return t
}

// Complexity is the Judge's estimate of how hard the task is.
type Complexity string

// The complexities.
const (
	Low    Complexity = "low"
	Medium Complexity = "medium"
	High   Complexity = "high"
)

// Complexities lists the complexities.
var Complexities = []Complexity{Low, Medium, High}

// Risk is the Judge's estimate of what the task changes.
type Risk string

// The risks.
const (
	ReadOnly           Risk = "read_only"
	SmallEdit          Risk = "small_edit"
	MultiFileEdit      Risk = "multi_file_edit"
	ArchitectureChange Risk = "architecture_change"
	UnknownRisk        Risk = "unknown"
)

// Risks lists the risks.
var Risks = []Risk{ReadOnly, SmallEdit, MultiFileEdit, ArchitectureChange, UnknownRisk}

// Preference is the cost-versus-quality bias of adaptive routing.
type Preference string

// The preferences.
const (
	PreferCheap       Preference = "preferCheap"
	PreferBalanced    Preference = "balanced"
	PreferBest        Preference = "preferBest"
	preferenceDefault            = PreferBalanced
)

// Policy says how a SKILL.md model: meets adaptive routing.
type Policy string

// The policies.
const (
	// Pin runs a skill that names a model on that model; only skills
	// without one are routed.
	Pin Policy = "pin"
	// Ignore routes every skill from the pool.
	Ignore Policy = "ignore"
)

// Source says where a decision's model came from.
type Source string

// The sources.
const (
	FromSkill   Source = "skill-model"
	FromRouting Source = "execution-routing"
	FromDefault Source = "fallback"
)

// Judgement is the Judge's classification of one task and whether its
// brief passed.
type Judgement struct {
	Tier       Tier       `json:"tier"`
	Complexity Complexity `json:"complexity"`
	Risk       Risk       `json:"risk"`
	// Confidence is in 0..1.
	Confidence float64 `json:"confidence"`
	// Passed is false when the brief needed a question to the user.
	Passed bool `json:"judge_passed"`
}

// DefaultJudgement is what the router assumes when the Judge gives no
// usable classification: balanced, medium, unknown risk, no confidence.
var DefaultJudgement = Judgement{Tier: Balanced, Complexity: Medium, Risk: UnknownRisk, Confidence: 0, Passed: true}

// Check reports a value outside its set or range.
func (j Judgement) Check() error {
	switch {
	case !oneOf(j.Tier, Tiers):
		return fmt.Errorf("tier %q is not one of cheap, balanced, frontier", j.Tier)
	case !oneOf(j.Complexity, Complexities):
		return fmt.Errorf("complexity %q is not one of low, medium, high", j.Complexity)
	case !oneOf(j.Risk, Risks):
		return fmt.Errorf("risk %q is not one of read_only, small_edit, multi_file_edit, architecture_change, unknown", j.Risk)
	case !(j.Confidence >= 0 && j.Confidence <= 1):
		return fmt.Errorf("confidence %s is outside 0..1", strconv.FormatFloat(j.Confidence, 'g', -1, 64))
	}
	return nil
}

func oneOf[T comparable](v T, set []T) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// Decision is the model one run would use.
type Decision struct {
	// Model is the fully qualified gateway ID.
	Model string `json:"model"`
	// Tier is the tier the model stands for. Outside adaptive routing it
	// is balanced as a neutral value, which Source qualifies.
	Tier Tier `json:"tier"`
	// Source is where the model came from.
	Source Source `json:"source"`
	// Reason says why, in one line.
	Reason string `json:"reason"`
	// RouteTier is the Judge's tier, Adjusted the tier after the
	// preference, the safety floors and the minimum; both only for
	// adaptive routing.
	RouteTier Tier `json:"route_tier,omitempty"`
	Adjusted  Tier `json:"adjusted_tier,omitempty"`
	// Minimum is the tier no routed model may be below ("" for none).
	Minimum Tier `json:"minimum_tier,omitempty"`
}

// Adjust applies the preference to the Judge's tier.
//
//   - balanced keeps the tier;
//   - preferCheap lowers balanced to cheap for a medium task that only
//     reads or makes a small edit, at a confidence of 0.7 or more;
//   - preferBest raises a cheap tier to balanced for a task that edits
//     (small, multi-file or architecture), and any task of unknown risk to
//     frontier.
func Adjust(p Preference, j Judgement) Tier {
	t := j.Tier
	switch p {
	case PreferCheap:
		if t == Balanced && j.Complexity == Medium && (j.Risk == ReadOnly || j.Risk == SmallEdit) && j.Confidence >= 0.7 {
			return Cheap
		}
	case PreferBest:
		if t == Cheap && (j.Risk == SmallEdit || j.Risk == MultiFileEdit || j.Risk == ArchitectureChange) {
			return Balanced
		}
		if j.Risk == UnknownRisk {
			return Frontier
		}
	}
	return t
}

// Floor applies the safety floors that hold whatever the preference: an
// architecture change runs on frontier (up or down), a multi-file edit on
// balanced or above, and a task of unknown risk judged with a confidence
// below 0.5 on balanced or above.
func Floor(t Tier, j Judgement) Tier {
	switch {
	case j.Risk == ArchitectureChange:
		return Frontier
	case j.Risk == MultiFileEdit:
		return t.atLeast(Balanced)
	case j.Risk == UnknownRisk && j.Confidence < 0.5:
		return t.atLeast(Balanced)
	}
	return t
}

// Chain is the order in which the pool is tried for a tier: the tier, then
// the nearest more capable one, then the rest.
func Chain(t Tier) []Tier {
	switch t {
	case Cheap:
		return []Tier{Cheap, Balanced, Frontier}
	case Frontier:
		return []Tier{Frontier, Balanced, Cheap}
	}
	return []Tier{Balanced, Frontier, Cheap}
}

// Choose decides the model of one run of a skill whose SKILL.md names
// skillModel ("" for none), for the Judge's classification j.
//
// With adaptive routing disabled the model is skillModel through MapModel.
// With it enabled and the pin policy, a skill that names a model keeps it.
// Otherwise the Judge's tier goes through Adjust and Floor, is raised to
// balanced when the Judge did not pass, and the pool is walked along
// Chain, skipping tiers without a model, tiers below that minimum and
// models the allow-list refuses. When nothing resolves, the legacy path
// runs: skillModel through MapModel, or the default model when a minimum
// is in force.
//
// The error is a *DisallowedProviderError when the model the run would
// use is refused (the run would abort), or ErrNoProvider.
func Choose(s *Settings, skillModel string, j Judgement) (Decision, error) {
	if s == nil {
		s = Defaults()
	}
	er := &s.ExecutionRouting
	pinned := trimJS(skillModel) != ""
	mapped := func(raw string) (string, error) {
		return MapModel(raw, s.DefaultProvider, s.AllowedProviderPrefixes)
	}
	if !er.Enabled {
		m, err := mapped(skillModel)
		d := Decision{Model: m, Tier: Balanced, Source: FromDefault, Reason: "adaptive routing is off; no model: in SKILL.md, so the default model"}
		if pinned {
			d.Source, d.Reason = FromSkill, "adaptive routing is off; the SKILL.md model"
		}
		return d, err
	}
	if er.Policy == Pin && pinned {
		m, err := mapped(skillModel)
		return Decision{Model: m, Tier: Balanced, Source: FromSkill, Reason: "skillModelPolicy=pin; SKILL.md names the model, which is kept"}, err
	}
	var minimum Tier
	if !j.Passed {
		minimum = Balanced
	}
	adjusted := Floor(Adjust(er.Preference, j), j).atLeast(minimum)
	for _, t := range Chain(adjusted) {
		if minimum != "" && t.rank() < minimum.rank() {
			continue
		}
		raw := er.Models[t]
		if trimJS(raw) == "" {
			continue
		}
		m, err := mapped(raw)
		var refused *DisallowedProviderError
		if errors.As(err, &refused) {
			continue
		}
		if err != nil {
			return Decision{}, err
		}
		return Decision{Model: m, Tier: t, Source: FromRouting, Reason: routedReason(j, adjusted, t, minimum), RouteTier: j.Tier, Adjusted: adjusted, Minimum: minimum}, nil
	}
	legacy := skillModel
	if minimum != "" {
		legacy = ""
	}
	m, err := mapped(legacy)
	d := Decision{Model: m, Tier: Balanced, Source: FromDefault, RouteTier: j.Tier, Adjusted: adjusted, Minimum: minimum,
		Reason: "no model of the pool resolves; legacy resolution gives the default model"}
	if minimum != "" {
		d.Tier = minimum
		if pinned {
			d.Reason = "no model of the pool resolves; the Judge did not pass, so the default model instead of the SKILL.md one"
		}
	} else if trimJS(legacy) != "" {
		d.Reason = "no model of the pool resolves; legacy resolution gives the SKILL.md model"
	}
	return d, err
}

// routedReason spells a routed decision: the Judge's route, then each step
// that moved the tier.
func routedReason(j Judgement, adjusted, resolved, minimum Tier) string {
	r := fmt.Sprintf("route %s (complexity=%s, risk=%s, confidence=%s)", j.Tier, j.Complexity, j.Risk, strconv.FormatFloat(j.Confidence, 'f', 2, 64))
	if adjusted != j.Tier {
		r += "; adjusted to " + string(adjusted) + " by the preference and safety floors"
		if minimum != "" && adjusted == minimum {
			r += " (the Judge did not pass: balanced at least)"
		}
	}
	if resolved != adjusted {
		r += "; " + string(adjusted) + " has no usable model, the pool gave " + string(resolved)
	}
	return r
}

// Message is the line the router posts to the thread when it surfaces its
// decision (executionRouting.surfaceDecision): a routed decision names its
// tier, a pinned or fallback one its source.
func Message(skill string, d Decision) string {
	what := string(d.Tier)
	switch d.Source {
	case FromSkill:
		what = "SKILL.md"
	case FromDefault:
		what = "fallback"
	}
	return fmt.Sprintf("[System]: ⚙️ Executing /skill:%s using %s model %s. Reason: %s", skill, what, d.Model, d.Reason)
}
