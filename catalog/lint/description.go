package lint

// Rules about the description field.

import (
	"strings"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

var descriptionMissing = &Rule{
	Rule: &rules.Rule{ID: "SK020", Name: "description-missing", Kind: rules.Lint, Severity: rules.Error,
		Title: "The skill has no description",
		Why:   "The description is what the model reads to decide when to use a skill; without one Pi does not load it and the validator rejects it.",
		Since: rules.FirstVersion,
		Doc:   "The frontmatter has no description. The spec and skills-ref require it, and Pi does not load a skill without one: the description is what the model reads to decide when to use the skill."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if d.Field("description") == nil {
			p.Report(rules.Error, u.src.Path, 1, 1, "frontmatter has no description")
		}
	}),
}

var descriptionInvalid = &Rule{
	Rule: &rules.Rule{ID: "SK021", Name: "description-invalid", Kind: rules.Lint, Severity: rules.Error,
		Title: "The description is empty or not a string",
		Why:   "Pi treats such a description as missing and does not load the skill.",
		Since: rules.FirstVersion,
		Doc:   "The description is empty, only whitespace, null, or not a string (a number, list or mapping). Pi treats a non-string description as missing and does not load the skill."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("description")
		if f == nil {
			return
		}
		switch n := f.Node; {
		case catalog.IsNull(n) || (catalog.IsString(n) && strings.TrimSpace(n.Value) == ""):
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "description is empty")
		case !catalog.IsString(n):
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "description must be a string, not %s", catalog.YAMLKind(n))
		}
	}),
}

var descriptionTooLong = &Rule{
	Rule: &rules.Rule{ID: "SK022", Name: "description-too-long", Kind: rules.Lint, Severity: rules.Error,
		Title: "The description is longer than 1,024 characters",
		Why:   "The spec caps descriptions, and every character of it is in every request that lists the skill.",
		Since: rules.FirstVersion,
		Doc:   "The description is longer than 1,024 characters (Unicode code points). When only its UTF-16 length is over 1,024, this is a warning: Pi and other JavaScript loaders count UTF-16 units."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("description")
		if f == nil || !catalog.IsString(f.Node) {
			return
		}
		if n, n16, over, only16 := lengthProblem(f.Node.Value, catalog.MaxDescriptionChars); over {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "description is %s characters, over the %s-character limit", thousands(n), thousands(catalog.MaxDescriptionChars))
		} else if only16 {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "description is %s characters but %s UTF-16 units: JavaScript loaders count it over the %s limit", thousands(n), thousands(n16), thousands(catalog.MaxDescriptionChars))
		}
	}),
}

var descriptionAngleBrackets = &Rule{
	Rule: &rules.Rule{ID: "SK023", Name: "description-angle-brackets", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The description contains angle brackets",
		Why:   "Anthropic's platform rejects them, and clients that paste descriptions into an XML catalog can be broken by them.",
		Since: rules.FirstVersion,
		Doc:   "The description contains < or >. Anthropic's platform rejects descriptions with XML-like tags, and the description is pasted into an XML catalog by several clients."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f := d.Field("description"); f != nil && catalog.IsString(f.Node) && strings.ContainsAny(f.Node.Value, "<>") {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "description contains < or >: Anthropic's platform rejects it")
		}
	}),
}
