package lint

// Rules about the other frontmatter fields.

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/route"
	"github.com/skillopt/skillopt/rules"
)

// Frontmatter fields of the Agent Skills specification.
var specFields = map[string]bool{"name": true, "description": true, "license": true, "allowed-tools": true, "metadata": true, "compatibility": true}

// clientFields are extension fields of Claude Code skills: other clients
// ignore them.
var clientFields = map[string]bool{"user-invocable": true, "argument-hint": true, "model": true, "context": true, "agent": true, "hooks": true}

// extraFields are the options of SK030.
type extraFields struct {
	ExtraFields []string `toml:"extra_fields" doc:"frontmatter keys accepted besides the spec's"`
}

func (*extraFields) Section() string { return "lint" }

var unknownField = &Rule{
	Rule: &rules.Rule{ID: "SK030", Name: "unknown-field", Kind: rules.Lint, Severity: rules.Warning,
		Title:   "The frontmatter has a key outside the spec",
		Why:     "The validator rejects unknown keys while Pi ignores them, so the skill passes one and fails the other; custom data belongs under metadata.",
		Since:   rules.FirstVersion,
		Options: &extraFields{}, Reads: []string{"lint.profile"},
		Doc: "The frontmatter has a top-level key outside the spec (name, description, license, allowed-tools, metadata, compatibility). Pi ignores unknown keys and skills-ref rejects them; move custom data under metadata. disable-model-invocation (Pi) is accepted; Claude Code's own keys are reported as client-specific (info). Under the skills-ref profile every key outside the spec is an error."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		extra := map[string]bool{}
		for _, k := range p.Options.(*extraFields).ExtraFields {
			extra[k] = true
		}
		var target *metadataTarget // where fixes move fields, once
		move := func(f *catalog.Field) *Fix {
			if target == nil {
				target = newMetadataTarget(d)
			}
			return moveToMetadata(d, f, target)
		}
		for _, f := range d.Fields {
			switch {
			case specFields[f.Key] || extra[f.Key]:
			case p.Settings.skillsRef():
				p.Report(rules.Error, u.src.Path, f.Line, f.Col, "field %q is not in the spec: skills-ref rejects it", f.Key)
				// Pi's and Claude Code's own fields work where they are.
				if f.Key != "disable-model-invocation" && !clientFields[f.Key] {
					p.Fix(move(&f))
				}
			case f.Key == "disable-model-invocation":
			case clientFields[f.Key]:
				p.Report(rules.Info, u.src.Path, f.Line, f.Col, "field %q is client-specific (Claude Code): other clients ignore it", f.Key)
			default:
				p.Report(rules.Warning, u.src.Path, f.Line, f.Col, "unknown field %q: move it under metadata (skills-ref rejects unknown fields)", f.Key)
				p.Fix(move(&f))
			}
		}
	}),
}

var disableModelInvocationType = &Rule{
	Rule: &rules.Rule{ID: "SK031", Name: "disable-model-invocation-type", Kind: rules.Lint, Severity: rules.Warning,
		Title: "disable-model-invocation is not a boolean",
		Why:   "Pi hides a skill from the model only for the boolean true; a quoted or YAML 1.1 spelling is silently ignored, so the skill stays visible.",
		Since: rules.FirstVersion,
		Doc:   "disable-model-invocation is not a YAML boolean. Pi hides a skill from the model only for the boolean true; a quoted \"true\", yes or 1 is silently ignored."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f := d.Field("disable-model-invocation"); f != nil && !catalog.IsBool(f.Node) {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "disable-model-invocation is %s%s, not a YAML boolean: Pi ignores it", catalog.YAMLKind(f.Node), catalog.QuotedValue(f.Node))
		}
	}),
}

var compatibilityTooLong = &Rule{
	Rule: &rules.Rule{ID: "SK032", Name: "compatibility-too-long", Kind: rules.Lint, Severity: rules.Error,
		Title: "compatibility is longer than 500 characters",
		Why:   "The spec caps the field at 500 characters, and validators reject longer ones.",
		Since: rules.FirstVersion,
		Doc:   "The compatibility field is longer than 500 characters (code points; a warning when only its UTF-16 length is over)."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("compatibility")
		if f == nil || !catalog.IsString(f.Node) {
			return
		}
		if n, n16, over, only16 := lengthProblem(f.Node.Value, catalog.MaxCompatibilityChars); over {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is %d characters, over the %d-character limit", n, catalog.MaxCompatibilityChars)
		} else if only16 {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is %d characters but %d UTF-16 units: JavaScript loaders count it over the %d limit", n, n16, catalog.MaxCompatibilityChars)
		}
	}),
}

var compatibilityInvalid = &Rule{
	Rule: &rules.Rule{ID: "SK033", Name: "compatibility-invalid", Kind: rules.Lint, Severity: rules.Error,
		Title: "compatibility is empty or not a string",
		Why:   "The spec wants 1 to 500 characters when the field is given, so an empty or non-string value fails validation.",
		Since: rules.FirstVersion,
		Doc:   "The compatibility field is present but empty, null or not a string. The spec wants 1 to 500 characters when it is given; most skills should omit it."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("compatibility")
		if f == nil {
			return
		}
		switch n := f.Node; {
		case catalog.IsNull(n) || (catalog.IsString(n) && strings.TrimSpace(n.Value) == ""):
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is empty: give requirements or remove the field")
		case !catalog.IsString(n):
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "compatibility must be a string, not %s", catalog.YAMLKind(n))
		}
	}),
}

var metadataNotMapping = &Rule{
	Rule: &rules.Rule{ID: "SK034", Name: "metadata-not-mapping", Kind: rules.Lint, Severity: rules.Error,
		Title: "metadata is not a mapping",
		Why:   "The spec defines metadata as a map of strings, and validators reject anything else.",
		Since: rules.FirstVersion,
		Doc:   "The metadata field is not a mapping. The spec defines it as a map of string keys to string values."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f := d.Field("metadata"); f != nil && f.Node.Kind != yaml.MappingNode {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "metadata must be a mapping, not %s", catalog.YAMLKind(f.Node))
		}
	}),
}

var metadataValueNotString = &Rule{
	Rule: &rules.Rule{ID: "SK035", Name: "metadata-value-not-string", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A metadata key or value is not a string",
		Why:   "Validators turn non-string values into text differently, so a version: 1.0 can become \"1\"; quoting keeps it as written.",
		Since: rules.FirstVersion,
		Doc:   "A metadata key or value is not a string (1.0, true, a list). Validators disagree on how to turn them into text: the npm skills-ref turns version: 1.0 into \"1\". Quote the value."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("metadata")
		if f == nil || f.Node.Kind != yaml.MappingNode {
			return
		}
		m := f.Node.Content
		for i := 0; i+1 < len(m); i += 2 {
			k, v := m[i], catalog.ResolveAlias(m[i+1])
			if !catalog.IsString(k) {
				p.Report(rules.Warning, u.src.Path, k.Line+1, k.Column, "metadata key %s is %s, not a string: quote it", k.Value, catalog.YAMLKind(k))
				p.Fix(quoteFix(d, k))
			}
			if !catalog.IsString(v) {
				p.Report(rules.Warning, u.src.Path, v.Line+1, v.Column, "metadata value of %q is %s, not a string: quote it", k.Value, catalog.YAMLKind(v))
				if m[i+1].Kind != yaml.AliasNode {
					p.Fix(quoteFix(d, v))
				}
			}
		}
	}),
}

var allowedToolsNotString = &Rule{
	Rule: &rules.Rule{ID: "SK036", Name: "allowed-tools-not-string", Kind: rules.Lint, Severity: rules.Warning,
		Title: "allowed-tools is not a string",
		Why:   "The spec defines allowed-tools as one space-separated string; a YAML list is read differently or rejected.",
		Since: rules.FirstVersion,
		Doc:   "allowed-tools is not a string. The spec defines it as one space-separated string of tool patterns (Bash(git:*) Read), not a YAML list."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f := d.Field("allowed-tools"); f != nil && !catalog.IsString(f.Node) {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "allowed-tools must be a space-separated string, not %s", catalog.YAMLKind(f.Node))
		}
	}),
}

var licenseNotString = &Rule{
	Rule: &rules.Rule{ID: "SK037", Name: "license-not-string", Kind: rules.Lint, Severity: rules.Warning,
		Title: "license is not a string",
		Why:   "The spec wants a licence name or the name of a bundled file, and validators reject other values.",
		Since: rules.FirstVersion,
		Doc:   "license is not a string. The spec wants a licence name or the name of a bundled licence file."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f := d.Field("license"); f != nil && !catalog.IsString(f.Node) {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "license must be a string, not %s", catalog.YAMLKind(f.Node))
		}
	}),
}

var modelProviderNotAllowed = &Rule{
	Rule: &rules.Rule{ID: "SK060", Name: "model-provider-not-allowed", Kind: rules.Lint, Severity: rules.Error,
		Title: "The model's provider is not allowed",
		Why:   "A router maps model: to a gateway; refusing unknown provider prefixes keeps a skill file from routing requests to an untrusted provider.",
		Since: rules.FirstVersion,
		Reads: []string{"lint.allowed_provider_prefixes"},
		Doc:   "A fully qualified model: (provider/vendor/model) uses a provider prefix outside lint.allowed_provider_prefixes. A router that maps SKILL.md model: to a gateway refuses such skills, which stops a skill file from routing requests to an untrusted provider. Nothing is checked while the list is empty."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		allowed := p.Settings.AllowedProviderPrefixes
		f := d.Field("model")
		if len(allowed) == 0 || f == nil || !catalog.IsString(f.Node) {
			return
		}
		if !route.FullyQualified(f.Node.Value) {
			return // bare or vendor/model: the router's default provider goes in front
		}
		// The router's own translation; a fully qualified model resolves to
		// itself, whatever the default provider.
		var refused *route.DisallowedProviderError
		if _, err := route.MapModel(f.Node.Value, route.Defaults().DefaultProvider, allowed); errors.As(err, &refused) {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "model %q uses provider %q, not in lint.allowed_provider_prefixes (%s)", f.Node.Value, refused.Provider, strings.Join(allowed, ", "))
		}
	}),
}

var modelInvalid = &Rule{
	Rule: &rules.Rule{ID: "SK061", Name: "model-invalid", Kind: rules.Lint, Severity: rules.Warning,
		Title: "model: is not a usable model name",
		Why:   "A router translating model: cannot map an empty or malformed name, so the skill fails when invoked.",
		Since: rules.FirstVersion,
		Doc:   "The model: field is not a usable model name: empty, not a string, containing spaces, or with empty path segments (a//b, a trailing slash). A router translating model: cannot map it."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("model")
		if f == nil {
			return
		}
		v := strings.TrimSpace(f.Node.Value)
		switch {
		case !catalog.IsString(f.Node):
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "model must be a string, not %s", catalog.YAMLKind(f.Node))
		case v == "":
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "model is empty")
		case strings.ContainsAny(v, " \t"):
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "model %q contains spaces", f.Node.Value)
		case strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") || strings.Contains(v, "//"):
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "model %q has an empty path segment", f.Node.Value)
		}
	}),
}
