package catalogrules

import (
	"fmt"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// currentProfile returns the configured card profile when it gives at least
// one of the capture's eligible skills a current card; SO101 then leaves
// the catalog to SO102.
func currentProfile(p *rules.Pass, skills []catalog.Skill) (*catalog.Profile, error) {
	set := SettingsOf(p.Env)
	if set.Profile == "" {
		return nil, nil
	}
	prof, err := catalog.LoadProfileCached(p.Env.Resolve(set.Profile))
	if err != nil {
		return nil, fmt.Errorf("catalog.profile: %w", err)
	}
	for _, sk := range skills {
		if _, ok := prof.Current(sk); ok {
			return prof, nil
		}
	}
	return nil, nil
}

// tagOptions are SO102's own keys.
type tagOptions struct {
	Fallback string `toml:"fallback" doc:"When the tag directory does not fit or saves nothing: \"native\" leaves Pi's catalog as it is (as the seed extension does), \"compact\" uses SO101's index instead."`
}

func (*tagOptions) Section() string { return "catalog" }

// Check reports values out of range.
func (o *tagOptions) Check() []rules.OptionError {
	if o.Fallback != "compact" && o.Fallback != "native" {
		return []rules.OptionError{{Key: "fallback", Msg: fmt.Sprintf("%q is not one of compact, native", o.Fallback)}}
	}
	return nil
}

// tagDirectory is SO102.
var tagDirectory = &rules.Rule{
	ID:       "SO102",
	Title:    "Replace the skill catalog with a tag directory",
	Why:      "With a card profile, the model can find skills by tag instead of reading every name, so the prompt no longer grows with the number of skills. The directory is bounded and falls back to the native catalog or the compact index when it would not pay.",
	Since:    rules.FirstVersion,
	Name:     "catalog.tag-directory",
	Kind:     rules.Transform,
	Severity: rules.Info,
	// The catalog leaves the request; skill_search serves the cards.
	Engine: rules.Engine{Lossy: true},
	Doc: "Replaces each native skill catalog with a compact tag directory when a current card profile exists. " +
		"The directory lists the fixed, versioned tag vocabulary with one-line descriptions and skill counts, an unclassified bucket for skills " +
		"whose card is missing or stale, and the configured critical and always names as hints; it names no other skill, prefetches nothing and " +
		"selects nothing. The model picks tags and browses cards through skill_search. The whole directory must fit min(4,000, catalog.budget_chars) " +
		"characters; when it does not, or saves nothing, the native catalog stays (catalog.fallback = \"native\", the default, as in the seed extension) or the compact index is used (\"compact\"). " +
		"With catalog.resolver = false (a host policy withholds skill_search) the native catalog stays too.",
	Options: &tagOptions{Fallback: "native"},
	Reads:   []string{"catalog.budget_chars", "catalog.exclude", "catalog.profile", "catalog.critical", "catalog.always", "catalog.resolver"},
	Detail:  detail,
	Run: func(p *rules.Pass) error {
		cats := fromCapture(p.Capture)
		set := SettingsOf(p.Env)
		if len(cats) == 0 {
			switch _, had := catalogKey(p.Original); {
			case !had:
				p.Idle("no native skill catalog")
			case set.Profile == "":
				// SO101 compacted it: cards would have kept it for SO102.
				p.Idle("needs a card profile: run `skillopt catalog init`, then set catalog.profile")
			default:
				p.Idle("catalog.profile has no current card for these skills: run `skillopt catalog init` again")
			}
			return nil
		}
		if !set.Resolver {
			p.Idle("catalog.resolver is off: the native catalog stays")
			return nil
		}
		groups := eligibleGroups(cats, set.Exclude)
		var all []catalog.Skill
		for _, g := range groups {
			all = append(all, g...)
		}
		prof, err := currentProfile(p, all)
		if err != nil {
			return err
		}
		if prof == nil {
			// No current cards: SO101's business.
			if set.Profile == "" {
				p.Idle("needs a card profile: run `skillopt catalog init`, then set catalog.profile")
			} else {
				p.Idle("catalog.profile has no current card for these skills: run `skillopt catalog init` again")
			}
			return nil
		}
		snap := catalog.NewSnapshot(all, catalog.Options{Profile: prof})
		dir := catalog.Directory(snap, set.Critical, set.Always)
		blocks := make([]string, len(cats))
		native := 0
		for _, e := range cats {
			native += e.Segment.End - e.Segment.Start
		}
		if catalog.DirectoryFits(dir, set.BudgetChars) && len(dir) < native {
			// One directory for the whole request, in place of the first
			// catalog; later catalogs are folded into it.
			blocks[0] = dir
			return replaceCatalogs(p, cats, blocks)
		}
		if p.Options.(*tagOptions).Fallback == "native" {
			p.Reportf("", "tag directory of %d characters does not fit or save; native catalog kept", len([]rune(dir)))
			p.Idle("the tag directory does not fit or save, and catalog.fallback keeps the native catalog")
			return nil
		}
		p.Reportf("", "tag directory of %d characters does not fit or save; compact index used", len([]rune(dir)))
		return replaceCatalogs(p, cats, catalog.CompactBlocks(groups, set.BudgetChars))
	},
}
