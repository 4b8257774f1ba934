package catalog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/skillopt/skillopt/rules"
)

// LintRules returns the skill (SKxxx) and agent-definition (AGxxx) lint
// rules in registry order.
func LintRules() []*rules.Rule { return append([]*rules.Rule(nil), lintRules()...) }

var lintRules = sync.OnceValue(buildLintRules)

// report records a finding of the pass's rule at a file position.
func report(p *rules.Pass, sev rules.Severity, file string, line, col int, format string, args ...any) {
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	p.Report(rules.Diagnostic{Rule: p.Rule.ID, Severity: sev, File: file, Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
}

// skillRule makes a rule over single skill files. Over anything else (a
// capture, when the rule is named in a transform pipeline) it does nothing.
func skillRule(id, name string, sev rules.Severity, doc string, fn func(p *rules.Pass, u *skillUnit), opts ...rules.OptionDoc) *rules.Rule {
	return &rules.Rule{ID: id, Name: name, Kind: rules.Check, Severity: sev, Doc: doc, OptionDocs: opts,
		Run: func(p *rules.Pass) error {
			if u, ok := unitOf[*skillUnit](p); ok {
				fn(p, u)
			}
			return nil
		}}
}

// fieldRule is a skillRule that needs the frontmatter.
func fieldRule(id, name string, sev rules.Severity, doc string, fn func(p *rules.Pass, u *skillUnit, d *SkillDoc), opts ...rules.OptionDoc) *rules.Rule {
	return skillRule(id, name, sev, doc, func(p *rules.Pass, u *skillUnit) {
		if u.fm() {
			fn(p, u, u.doc)
		}
	}, opts...)
}

func agentRule(id, name string, sev rules.Severity, doc string, opts ...rules.OptionDoc) *rules.Rule {
	return &rules.Rule{ID: id, Name: name, Kind: rules.Check, Severity: sev, Doc: doc, OptionDocs: opts,
		Run: func(p *rules.Pass) error {
			u, ok := unitOf[*agentUnit](p)
			if !ok {
				return nil
			}
			for _, d := range u.loadout.Diagnostics {
				if d.Rule == p.Rule.ID {
					report(p, d.Severity, d.File, d.Line, d.Column, "%s", d.Message)
				}
			}
			return nil
		}}
}

func repoRule(id, name string, sev rules.Severity, doc string, fn func(p *rules.Pass, u *repoUnit), opts ...rules.OptionDoc) *rules.Rule {
	return &rules.Rule{ID: id, Name: name, Kind: rules.Check, Severity: sev, Doc: doc, OptionDocs: opts,
		Run: func(p *rules.Pass) error {
			if u, ok := unitOf[*repoUnit](p); ok {
				fn(p, u)
			}
			return nil
		}}
}

func unitOf[T any](p *rules.Pass) (T, bool) {
	var zero T
	if p.Env == nil {
		return zero, false
	}
	u, ok := p.Env.Settings.(T)
	return u, ok
}

// splitLintRules sorts rules by the unit they read.
func splitLintRules(rs []*rules.Rule) (skill, agent, repo, suppress []*rules.Rule) {
	for _, r := range rs {
		switch {
		case r.ID == "SK059":
			suppress = append(suppress, r)
		case strings.HasPrefix(r.ID, "AG"):
			agent = append(agent, r)
		case repoIDs[r.ID]:
			repo = append(repo, r)
		default:
			skill = append(skill, r)
		}
	}
	return
}

var repoIDs = map[string]bool{"SK001": true, "SK050": true, "SK051": true, "SK052": true, "SK053": true, "SK054": true, "SK055": true, "SK058": true}

// Frontmatter fields of the Agent Skills specification.
var specFields = map[string]bool{"name": true, "description": true, "license": true, "allowed-tools": true, "metadata": true, "compatibility": true}

// clientFields are extension fields of Claude Code skills: other clients
// ignore them.
var clientFields = map[string]bool{"user-invocable": true, "argument-hint": true, "model": true, "context": true, "agent": true, "hooks": true}

// valueOf returns a field's scalar text when it is a non-null scalar.
func scalarText(f *Field) (string, bool) {
	if f == nil || f.Node.Kind != yaml.ScalarNode || isNull(f.Node) {
		return "", false
	}
	return f.Node.Value, true
}

// nameOf returns the frontmatter name when it is a non-empty scalar.
func nameOf(d *SkillDoc) (*Field, string, bool) {
	f := d.Field("name")
	s, ok := scalarText(f)
	if !ok || strings.TrimSpace(s) == "" {
		return f, "", false
	}
	return f, s, true
}

func buildLintRules() []*rules.Rule {
	E, W, I := rules.Error, rules.Warning, rules.Info
	return []*rules.Rule{
		repoRule("SK001", "skill-md-missing", E,
			"A linted folder contains no SKILL.md and no agent definition. A skill is a folder holding a file named SKILL.md; pointing the linter (or a loader) at a folder without one finds nothing, which usually means a wrong path or a misnamed file.",
			func(p *rules.Pass, u *repoUnit) {
				for _, dir := range u.empty {
					report(p, E, dir, 1, 1, "no SKILL.md or agent definition found under %s", dir)
				}
			}),
		skillRule("SK002", "skill-md-filename-case", W,
			"The skill file is named skill.md (or another casing) instead of SKILL.md. The reference validator accepts skill.md, but Pi and the client implementation guide look for the exact name SKILL.md, so the skill is invisible to them; it is still linted here.",
			func(p *rules.Pass, u *skillUnit) {
				if u.miscased {
					report(p, W, u.src.Path, 1, 1, "%s is not named SKILL.md: Pi and most clients load only the exact name", filepath.Base(u.src.Path))
				}
			}),
		skillRule("SK003", "frontmatter-missing", E,
			"The file does not start with a --- line opening YAML frontmatter. The spec, skills-ref and Pi all require the frontmatter at the very start; a leading blank line or a heading first means no name and no description, and loaders skip the skill.",
			func(p *rules.Pass, u *skillUnit) {
				if de := u.docErr(); de != nil && de.Kind == ErrNoFrontmatter && !u.notSkill {
					msg := "file does not start with a --- frontmatter line"
					if len(bytes.TrimSpace(u.doc.Line(1))) == 0 && u.doc.Lines() > 1 {
						msg += " (the first line is blank)"
					}
					report(p, E, u.src.Path, 1, 1, "%s", msg)
				}
			}),
		skillRule("SK004", "frontmatter-unclosed", E,
			"The frontmatter opened by --- is never closed by another --- line. Everything is then frontmatter or nothing is, depending on the loader; skills-ref reports it and Pi reads no fields. CRLF line ends and a missing final newline are accepted.",
			func(p *rules.Pass, u *skillUnit) {
				if de := u.docErr(); de != nil && de.Kind == ErrUnclosed {
					report(p, E, u.src.Path, 1, 1, "frontmatter opened here is not closed by a --- line")
				}
			}),
		skillRule("SK005", "frontmatter-bom", E,
			"The file starts with a UTF-8 byte order mark before the opening ---. Both skills-ref ports fail such files ('must start with YAML frontmatter') and Pi 0.73 skips them; Pi 1.x strips the mark. Save the file as UTF-8 without BOM.",
			func(p *rules.Pass, u *skillUnit) {
				if u.doc.BOM && !u.notSkill {
					report(p, E, u.src.Path, 1, 1, "file starts with a UTF-8 byte order mark: save it without one (skills-ref rejects it)")
				}
			}),
		skillRule("SK006", "yaml-invalid", E,
			"The frontmatter is not valid YAML. The most common cause is an unquoted ': ' inside a description, which lenient parsers read differently and strict ones reject; tabs used for indentation and unterminated lists or quotes are others. Loaders skip the skill.",
			func(p *rules.Pass, u *skillUnit) {
				if de := u.docErr(); de != nil && de.Kind == ErrYAML {
					msg := de.Msg
					if l := u.doc.Line(de.Line); strings.Contains(msg, "mapping values are not allowed") && bytes.Count(l, []byte(": ")) > 1 {
						msg += ": quote the value"
					}
					report(p, E, u.src.Path, de.Line, de.Col, "%s", msg)
				}
			}),
		skillRule("SK007", "yaml-duplicate-key", E,
			"A frontmatter mapping key appears twice, even with the same value. YAML forbids it; Pi's parser and skills-ref reject the file, while some other parsers silently keep the last value.",
			func(p *rules.Pass, u *skillUnit) {
				if u.notSkill {
					return
				}
				for _, dup := range u.doc.Duplicates {
					report(p, E, u.src.Path, dup.Line, dup.Col, "duplicate key %q (first at line %d)", dup.Key, dup.FirstLine)
				}
			}),
		skillRule("SK008", "frontmatter-not-mapping", E,
			"The frontmatter is a YAML list or a scalar rather than a mapping of keys to values, so it has no name or description.",
			func(p *rules.Pass, u *skillUnit) {
				if de := u.docErr(); de != nil && de.Kind == ErrNotMapping {
					report(p, E, u.src.Path, de.Line, de.Col, "%s", de.Msg)
				}
			}),
		skillRule("SK009", "frontmatter-dashes-in-value", W,
			"The text --- appears inside the frontmatter (for example in a quoted description). The reference validator splits the file on every ---, so it reads a truncated frontmatter and fails, while Pi reads the file fine. Under the skills-ref profile this is an error.",
			func(p *rules.Pass, u *skillUnit) {
				d := u.doc
				if u.notSkill || d.CloseLine == 0 {
					return
				}
				if i := bytes.Index(d.FrontmatterText, []byte("---")); i >= 0 {
					sev := W
					if u.ctx.skillsRef() {
						sev = E
					}
					line, col := d.Pos(d.FrontmatterOffset + i)
					report(p, sev, u.src.Path, line, col, "--- inside the frontmatter: skills-ref splits the file here and fails")
				}
			}),
		fieldRule("SK010", "name-missing", E,
			"The frontmatter has no name. The spec and skills-ref require it; Pi silently falls back to the folder name, so the skill loads there but fails validation elsewhere.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if d.Field("name") == nil {
					report(p, E, u.src.Path, 1, 1, "frontmatter has no name (Pi would use %q)", d.SkillName())
				}
			}),
		fieldRule("SK011", "name-not-string", E,
			"The name is empty, null, a list or a mapping (error), or a YAML number or boolean such as 123 or true (warning: quote it). Pi 1.x treats a non-string name as absent and uses the folder name.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("name")
				if f == nil {
					return
				}
				n := f.Node
				switch {
				case isNull(n):
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name is empty")
				case n.Kind != yaml.ScalarNode:
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name must be a string, not %s", yamlKind(n))
				case strings.TrimSpace(n.Value) == "":
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name is empty")
				case n.Tag != "!!str":
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %s is %s, not a string: quote it", n.Value, yamlKind(n))
				}
			}),
		fieldRule("SK012", "name-too-long", E,
			"The name is longer than 64 characters (Unicode code points). When only its UTF-16 length is over 64, this is a warning: JavaScript-based loaders count UTF-16 units.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok {
					return
				}
				if n, n16, over, only16 := lengthProblem(name, MaxNameChars); over {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name is %d characters, over the %d-character limit", n, MaxNameChars)
				} else if only16 {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name is %d characters but %d UTF-16 units: JavaScript loaders count it over the %d limit", n, n16, MaxNameChars)
				}
			}),
		fieldRule("SK013", "name-not-lowercase", E,
			"The name has uppercase letters, in any script. The spec allows only lowercase letters, digits and hyphens; skills-ref compares the name with its lowercase form.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f, name, ok := nameOf(d); ok && strings.ToLower(name) != name {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q has uppercase letters: use %q", name, strings.ToLower(name))
				}
			}),
		fieldRule("SK014", "name-invalid-chars", E,
			"The name has characters other than letters, digits and hyphens: spaces (also a trailing space inside quotes), underscores, dots, colons, symbols such as ×. The check runs on the NFKC-normalized name, as skills-ref does.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok {
					return
				}
				var bad []rune
				for _, r := range nfkc(name) {
					if !isNameRune(r) {
						bad = append(bad, r)
					}
				}
				if len(bad) > 0 {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains %s: only letters, digits and hyphens are allowed", name, quoteRunes(bad))
				}
			}),
		fieldRule("SK015", "name-edge-hyphen", E,
			"The name starts or ends with a hyphen, which the spec forbids.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f, name, ok := nameOf(d); ok && (strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-")) {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q starts or ends with a hyphen", name)
				}
			}),
		fieldRule("SK016", "name-consecutive-hyphens", E,
			"The name contains two hyphens in a row (--), which the spec forbids.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f, name, ok := nameOf(d); ok && strings.Contains(name, "--") {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains consecutive hyphens", name)
				}
			}),
		fieldRule("SK017", "name-dir-mismatch", E,
			"The name differs from the name of the folder holding SKILL.md (compared exactly, case-sensitive). The spec and skills-ref require them to match; names equal only after Unicode normalization are SK019 instead.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok || !u.dirSkill {
					return
				}
				dir := folderName(u.src.Path)
				if name == dir || nfkc(name) == nfkc(dir) {
					return
				}
				// Reached through a symlink: the real folder's name counts too.
				if real := folderName(u.src.Canonical); u.src.Canonical != "" && (name == real || nfkc(name) == nfkc(real)) {
					return
				}
				report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q does not match its folder %q", name, dir)
			}),
		fieldRule("SK018", "name-non-ascii", W,
			"The name uses lowercase letters or digits outside ASCII. The spec is ambiguous, the Python skills-ref accepts any script, its npm port rejects Greek, kana, Arabic and others, and Pi warns on every non-ASCII name. Under the skills-ref profile, letters the npm port rejects are errors.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok {
					return
				}
				var non []rune
				npm := true
				for _, r := range name {
					if r >= 0x80 && isNameRune(r) && !unicode.IsUpper(r) {
						non = append(non, r)
						npm = npm && npmNameRune(r)
					}
				}
				if len(non) == 0 {
					return
				}
				if !npm && u.ctx.skillsRef() {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "name %q has letters the npm skills-ref rejects (%s)", name, quoteRunes(non))
					return
				}
				report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q has non-ASCII characters (%s): Pi warns and some validators reject them", name, quoteRunes(non))
			}),
		fieldRule("SK019", "name-normalization", W,
			"The name is not in Unicode normalization form NFC or NFKC (decomposed accents, fullwidth letters), or it matches its folder name only after normalization. Such names look equal but compare unequal on some systems (macOS stores folder names decomposed).",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok {
					return
				}
				switch {
				case name != nfc(name):
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q is not NFC-normalized (it has combining marks): write it as %q", name, nfc(name))
				case name != nfkc(name):
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q is not NFKC-normalized (compatibility forms such as fullwidth letters): write it as %q", name, nfkc(name))
				case u.dirSkill:
					if dir := folderName(u.src.Path); dir != name && nfkc(dir) == nfkc(name) {
						report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q matches its folder %q only after Unicode normalization", name, dir)
					}
				}
			}),
		fieldRule("SK020", "description-missing", E,
			"The frontmatter has no description. The spec and skills-ref require it, and Pi does not load a skill without one: the description is what the model reads to decide when to use the skill.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if d.Field("description") == nil {
					report(p, E, u.src.Path, 1, 1, "frontmatter has no description")
				}
			}),
		fieldRule("SK021", "description-invalid", E,
			"The description is empty, only whitespace, null, or not a string (a number, list or mapping). Pi treats a non-string description as missing and does not load the skill.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("description")
				if f == nil {
					return
				}
				switch n := f.Node; {
				case isNull(n) || (isStr(n) && strings.TrimSpace(n.Value) == ""):
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "description is empty")
				case !isStr(n):
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "description must be a string, not %s", yamlKind(n))
				}
			}),
		fieldRule("SK022", "description-too-long", E,
			"The description is longer than 1,024 characters (Unicode code points). When only its UTF-16 length is over 1,024, this is a warning: Pi and other JavaScript loaders count UTF-16 units.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("description")
				if f == nil || !isStr(f.Node) {
					return
				}
				if n, n16, over, only16 := lengthProblem(f.Node.Value, MaxDescriptionChars); over {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "description is %s characters, over the %s-character limit", thousands(n), thousands(MaxDescriptionChars))
				} else if only16 {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "description is %s characters but %s UTF-16 units: JavaScript loaders count it over the %s limit", thousands(n), thousands(n16), thousands(MaxDescriptionChars))
				}
			}),
		fieldRule("SK023", "description-angle-brackets", W,
			"The description contains < or >. Anthropic's platform rejects descriptions with XML-like tags, and the description is pasted into an XML catalog by several clients.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f := d.Field("description"); f != nil && isStr(f.Node) && strings.ContainsAny(f.Node.Value, "<>") {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "description contains < or >: Anthropic's platform rejects it")
				}
			}),
		fieldRule("SK024", "name-reserved-word", W,
			"The name contains the word anthropic or claude, which Anthropic's platform reserves for its own skills; uploads with such names are rejected there.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok {
					return
				}
				for _, w := range []string{"anthropic", "claude"} {
					if strings.Contains(strings.ToLower(name), w) {
						report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains the reserved word %q", name, w)
						return
					}
				}
			}),
		fieldRule("SK030", "unknown-field", W,
			"The frontmatter has a top-level key outside the spec (name, description, license, allowed-tools, metadata, compatibility). Pi ignores unknown keys and skills-ref rejects them; move custom data under metadata. disable-model-invocation (Pi) is accepted; Claude Code's own keys are reported as client-specific (info). Under the skills-ref profile every key outside the spec is an error.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				extra := map[string]bool{}
				for _, k := range u.ctx.cfg.ExtraFields {
					extra[k] = true
				}
				for _, f := range d.Fields {
					switch {
					case specFields[f.Key] || extra[f.Key]:
					case u.ctx.skillsRef():
						report(p, E, u.src.Path, f.Line, f.Col, "field %q is not in the spec: skills-ref rejects it", f.Key)
					case f.Key == "disable-model-invocation":
					case clientFields[f.Key]:
						report(p, I, u.src.Path, f.Line, f.Col, "field %q is client-specific (Claude Code): other clients ignore it", f.Key)
					default:
						report(p, W, u.src.Path, f.Line, f.Col, "unknown field %q: move it under metadata (skills-ref rejects unknown fields)", f.Key)
					}
				}
			}, rules.OptionDoc{Name: "lint.extra_fields", Default: "[]", Doc: "keys accepted besides the spec's"}),
		fieldRule("SK031", "disable-model-invocation-type", W,
			"disable-model-invocation is not a YAML boolean. Pi hides a skill from the model only for the boolean true; a quoted \"true\", yes or 1 is silently ignored.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f := d.Field("disable-model-invocation"); f != nil && !isBool(f.Node) {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "disable-model-invocation is %s%s, not a YAML boolean: Pi ignores it", yamlKind(f.Node), quotedValue(f.Node))
				}
			}),
		fieldRule("SK032", "compatibility-too-long", E,
			"The compatibility field is longer than 500 characters (code points; a warning when only its UTF-16 length is over).",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("compatibility")
				if f == nil || !isStr(f.Node) {
					return
				}
				if n, n16, over, only16 := lengthProblem(f.Node.Value, MaxCompatibilityChars); over {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is %d characters, over the %d-character limit", n, MaxCompatibilityChars)
				} else if only16 {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is %d characters but %d UTF-16 units: JavaScript loaders count it over the %d limit", n, n16, MaxCompatibilityChars)
				}
			}),
		fieldRule("SK033", "compatibility-invalid", E,
			"The compatibility field is present but empty, null or not a string. The spec wants 1 to 500 characters when it is given; most skills should omit it.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("compatibility")
				if f == nil {
					return
				}
				switch n := f.Node; {
				case isNull(n) || (isStr(n) && strings.TrimSpace(n.Value) == ""):
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "compatibility is empty: give requirements or remove the field")
				case !isStr(n):
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "compatibility must be a string, not %s", yamlKind(n))
				}
			}),
		fieldRule("SK034", "metadata-not-mapping", E,
			"The metadata field is not a mapping. The spec defines it as a map of string keys to string values.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f := d.Field("metadata"); f != nil && f.Node.Kind != yaml.MappingNode {
					report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "metadata must be a mapping, not %s", yamlKind(f.Node))
				}
			}),
		fieldRule("SK035", "metadata-value-not-string", W,
			"A metadata key or value is not a string (1.0, true, a list). Validators disagree on how to turn them into text: the npm skills-ref turns version: 1.0 into \"1\". Quote the value.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("metadata")
				if f == nil || f.Node.Kind != yaml.MappingNode {
					return
				}
				m := f.Node.Content
				for i := 0; i+1 < len(m); i += 2 {
					k, v := m[i], resolveAlias(m[i+1])
					if !isStr(k) {
						report(p, W, u.src.Path, k.Line+1, k.Column, "metadata key %s is %s, not a string: quote it", k.Value, yamlKind(k))
					}
					if !isStr(v) {
						report(p, W, u.src.Path, v.Line+1, v.Column, "metadata value of %q is %s, not a string: quote it", k.Value, yamlKind(v))
					}
				}
			}),
		fieldRule("SK036", "allowed-tools-not-string", W,
			"allowed-tools is not a string. The spec defines it as one space-separated string of tool patterns (Bash(git:*) Read), not a YAML list.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f := d.Field("allowed-tools"); f != nil && !isStr(f.Node) {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "allowed-tools must be a space-separated string, not %s", yamlKind(f.Node))
				}
			}),
		fieldRule("SK037", "license-not-string", W,
			"license is not a string. The spec wants a licence name or the name of a bundled licence file.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				if f := d.Field("license"); f != nil && !isStr(f.Node) {
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "license must be a string, not %s", yamlKind(f.Node))
				}
			}),
		skillRule("SK040", "skill-md-too-long", W,
			"SKILL.md is longer than 500 lines. The spec and Anthropic recommend keeping the main file under 500 lines and moving detail into reference files the skill links to, because the whole file is loaded on activation.",
			func(p *rules.Pass, u *skillUnit) {
				limit := u.ctx.cfg.MaxLines
				if u.notSkill || limit <= 0 {
					return
				}
				if n := u.doc.Lines(); n > limit {
					report(p, W, u.src.Path, limit+1, 1, "file has %s lines, over the %s-line budget: move detail into reference files", thousands(n), thousands(limit))
				}
			}, rules.OptionDoc{Name: "lint.max_lines", Default: "500", Doc: "line budget (0 turns the check off)"}),
		skillRule("SK041", "body-token-budget", W,
			"The markdown body after the frontmatter is longer than 5,000 tokens, counted exactly with the configured OpenAI encoding (o200k_base by default). The spec recommends instructions under 5,000 tokens, since they are loaded whole into the context on activation.",
			func(p *rules.Pass, u *skillUnit) {
				budget := u.ctx.cfg.BodyTokens
				// A token is at least one byte: short bodies cannot be over.
				if u.notSkill || budget <= 0 || len(u.doc.Body) <= budget {
					return
				}
				n, err := u.ctx.bodyTokens(u.doc.Body)
				if err != nil {
					return
				}
				if n > budget {
					report(p, W, u.src.Path, u.doc.BodyLine, 1, "body is %s tokens (%s), over the %s-token budget", thousands(n), u.ctx.enc, thousands(budget))
				}
			}, rules.OptionDoc{Name: "lint.body_tokens", Default: "5000", Doc: "token budget (0 turns the check off)"},
			rules.OptionDoc{Name: "lint.encoding", Default: "o200k_base", Doc: "o200k_base or cl100k_base"}),
		skillRule("SK042", "body-empty", W,
			"Nothing but whitespace follows the frontmatter. A skill's body holds the instructions the model reads on activation; an empty one makes the skill a description only.",
			func(p *rules.Pass, u *skillUnit) {
				if u.fm() && len(bytes.TrimSpace(u.doc.Body)) == 0 {
					report(p, W, u.src.Path, u.doc.CloseLine, 1, "the skill has no instructions after the frontmatter")
				}
			}),
		refRule("SK043", "broken-local-reference", W,
			"A markdown link or image points to a relative path that does not exist. URLs, mailto:, in-page anchors, absolute paths and links inside code are skipped; #fragments and ?queries are stripped and %-escapes decoded. Links of the reference files SKILL.md links to are checked too."),
		refRule("SK044", "reference-outside-skill", W,
			"A relative link resolves to a path outside the skill folder. A skill is copied and installed as one folder, so such links break once it is installed elsewhere."),
		refRule("SK045", "windows-path-separator", W,
			"A local link uses backslashes. Use forward slashes: they work on every system, backslashes only on Windows."),
		refRule("SK046", "deep-reference-chain", W,
			"A file of the skill is reachable only through another reference file, not linked from SKILL.md. The spec and Anthropic recommend keeping references one level deep, so the agent learns of every file from SKILL.md."),
		repoRule("SK050", "duplicate-skill-name", E,
			"Two different skill files (by canonical path) declare the same name. Pi loads the first one found and reports a collision; which one wins depends on folder order. Paths reaching one file through symlinks count once.",
			func(p *rules.Pass, u *repoUnit) {
				first := map[string]skillSummary{}
				for _, s := range u.skills {
					if s.name == "" {
						continue
					}
					if f, ok := first[s.name]; ok && f.canonical != s.canonical {
						report(p, E, s.path, s.nameLine, s.nameCol, "skill name %q is also declared by %s", s.name, f.path)
						continue
					}
					if _, ok := first[s.name]; !ok {
						first[s.name] = s
					}
				}
			}),
		repoRule("SK051", "symlink-alias", I,
			"A skill file or folder is reached again through another path (a symlink or an overlapping lint path). It is linted once, under the path found first; this note says where the other path leads.",
			func(p *rules.Pass, u *repoUnit) {
				for _, ev := range u.events {
					// The same path given twice (overlapping lint paths) is
					// merely deduplicated.
					if ev.Kind == EventAlias && filepath.Clean(ev.Path) != filepath.Clean(ev.Other) {
						report(p, I, ev.Path, 1, 1, "same file or folder as %s: linted once", ev.Other)
					}
				}
			}),
		repoRule("SK052", "symlink-cycle", W,
			"A symlink leads back to a folder that contains it. The walk cuts the cycle by canonical path and reports it once; Pi follows such links until the system refuses, and two of them make its walk exponential.",
			func(p *rules.Pass, u *repoUnit) {
				for _, ev := range u.events {
					if ev.Kind != EventCycle {
						continue
					}
					if ev.Other != "" {
						report(p, W, ev.Path, 1, 1, "symlink leads back to %s, which contains it: not followed", displayPath(ev.Other))
					} else {
						report(p, W, ev.Path, 1, 1, "symlink loop: not followed")
					}
				}
			}),
		repoRule("SK053", "broken-symlink", W,
			"A symlink in the tree points nowhere. Loaders skip it silently, so a skill behind it disappears without notice.",
			func(p *rules.Pass, u *repoUnit) {
				for _, ev := range u.events {
					if ev.Kind == EventBroken {
						report(p, W, ev.Path, 1, 1, "dangling symlink: skipped")
					}
				}
			}),
		repoRule("SK054", "nested-skill-ignored", W,
			"A SKILL.md lies below a folder that already has a SKILL.md. Loaders treat the outer folder as the skill root and never descend into it, so the inner skill is never discovered.",
			func(p *rules.Pass, u *repoUnit) {
				for _, ev := range u.events {
					if ev.Kind == EventNested {
						report(p, W, ev.Path, 1, 1, "not discovered: it is inside the skill of %s", ev.Other)
					}
				}
			}),
		repoRule("SK055", "ignored-path", I,
			"A folder or markdown file is skipped because a .gitignore, .ignore or .fdignore pattern matches it (git semantics: nested files apply to their folder, ! re-includes). Hidden entries and node_modules are skipped without a note; the linted folder itself may be hidden.",
			func(p *rules.Pass, u *repoUnit) {
				for _, ev := range u.events {
					if ev.Kind == EventIgnored && (isDirPath(ev.Path) || strings.EqualFold(filepath.Ext(ev.Path), ".md")) {
						report(p, I, ev.Path, 1, 1, "skipped: matches %q (%s:%d)", ev.Pattern, ev.File, ev.Line)
					}
				}
			}),
		skillRule("SK056", "root-markdown-not-skill", I,
			"A markdown file at the top of a linted folder has frontmatter without a name or description, so it is not a skill (Pi 1.x skips it too). Files without any frontmatter, such as a README, are skipped without a note; markdown below the top level is never a skill unless named SKILL.md.",
			func(p *rules.Pass, u *skillUnit) {
				if u.notSkill && u.doc.Frontmatter != nil {
					report(p, I, u.src.Path, 1, 1, "frontmatter has no name or description: not a skill")
				}
			}),
		skillRule("SK057", "single-file-skill", W,
			"A markdown file at the top of a linted folder has skill frontmatter, so Pi loads it as a single-file skill. That is not portable: the spec, skills-ref and other clients need a folder with SKILL.md.",
			func(p *rules.Pass, u *skillUnit) {
				if !u.notSkill && !u.dirSkill {
					report(p, W, u.src.Path, 1, 1, "single-file skill: move it to %s/SKILL.md for other clients", strings.TrimSuffix(filepath.Base(u.src.Path), filepath.Ext(u.src.Path)))
				}
			}),
		repoRule("SK058", "index-budget", W,
			"The names and descriptions of all linted skills add up to more than 20,000 characters. Every one of them is in the system prompt of every request; clients cap the list (Codex at about 8,000 characters, Claude Code near 16,000) and drop the rest.",
			func(p *rules.Pass, u *repoUnit) {
				budget := u.ctx.cfg.IndexBudgetChars
				if budget <= 0 {
					return
				}
				total, at := 0, -1
				for i, s := range u.skills {
					if !s.hasDesc {
						continue
					}
					total += charCount(s.name) + s.descChars
					if total > budget && at < 0 {
						at = i
					}
				}
				if at >= 0 {
					s := u.skills[at]
					report(p, W, s.path, s.descLine, s.descCol, "skill names and descriptions add up to %s characters over %d skills, over the %s-character budget (crossed here)", thousands(total), len(u.skills), thousands(budget))
				}
			}, rules.OptionDoc{Name: "lint.index_budget_chars", Default: "20000", Doc: "budget (0 turns the check off)"}),
		&rules.Rule{ID: "SK059", Name: "unused-suppression", Kind: rules.Check, Severity: W,
			Doc: "A [[lint.suppress]] entry of skillopt.toml matched no finding. Stale suppressions hide nothing and mislead readers; remove them.",
			Run: func(p *rules.Pass) error {
				u, ok := unitOf[*suppressUnit](p)
				if !ok {
					return nil
				}
				for _, s := range u.unused {
					where := "any file"
					if s.path != "" {
						where = fmt.Sprintf("%q", s.path)
					}
					report(p, W, u.file, s.line, s.col, "suppression of %s in %s matched nothing: remove it", s.rule, where)
				}
				return nil
			}},
		fieldRule("SK060", "model-provider-not-allowed", E,
			"A fully qualified model: (provider/vendor/model) uses a provider prefix outside lint.allowed_provider_prefixes. A router that maps SKILL.md model: to a gateway refuses such skills, which stops a skill file from routing requests to an untrusted provider. Nothing is checked while the list is empty.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				allowed := u.ctx.cfg.AllowedProviderPrefixes
				f := d.Field("model")
				if len(allowed) == 0 || f == nil || !isStr(f.Node) {
					return
				}
				parts := strings.Split(strings.TrimSpace(f.Node.Value), "/")
				if len(parts) < 3 {
					return // bare or vendor/model: the default provider is prefixed
				}
				for _, a := range allowed {
					if parts[0] == a {
						return
					}
				}
				report(p, E, u.src.Path, f.ValueLine, f.ValueCol, "model %q uses provider %q, not in lint.allowed_provider_prefixes (%s)", f.Node.Value, parts[0], strings.Join(allowed, ", "))
			}, rules.OptionDoc{Name: "lint.allowed_provider_prefixes", Default: "[]", Doc: "allowed provider prefixes (empty allows all)"}),
		fieldRule("SK061", "model-invalid", W,
			"The model: field is not a usable model name: empty, not a string, containing spaces, or with empty path segments (a//b, a trailing slash). A router translating model: cannot map it.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f := d.Field("model")
				if f == nil {
					return
				}
				v := strings.TrimSpace(f.Node.Value)
				switch {
				case !isStr(f.Node):
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "model must be a string, not %s", yamlKind(f.Node))
				case v == "":
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "model is empty")
				case strings.ContainsAny(v, " \t"):
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "model %q contains spaces", f.Node.Value)
				case strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") || strings.Contains(v, "//"):
					report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "model %q has an empty path segment", f.Node.Value)
				}
			}),
		fieldRule("SK062", "name-not-invocable", W,
			"The name is valid for the spec but does not match [a-zA-Z0-9_-]+, the pattern a /skill:NAME command router accepts: non-ASCII letters and digits cannot be invoked by name there. Names with other forbidden characters are reported by SK014.",
			func(p *rules.Pass, u *skillUnit, d *SkillDoc) {
				f, name, ok := nameOf(d)
				if !ok || invocableName.MatchString(name) {
					return
				}
				// Names with characters the spec forbids are SK014's; this
				// rule adds what a valid name can still lack.
				for _, r := range nfkc(name) {
					if !isNameRune(r) {
						return
					}
				}
				report(p, W, u.src.Path, f.ValueLine, f.ValueCol, "name %q cannot be invoked as /skill:NAME (names must match [a-zA-Z0-9_-]+)", name)
			}),

		agentRule("AG001", "agent-frontmatter-invalid", E,
			"The agent definition's frontmatter is missing, unclosed, not a mapping, or not valid YAML. The definition is invalid, and an invalid project definition still shadows a global one of the same file name."),
		agentRule("AG002", "agent-duplicate-key", E,
			"A key of the agent definition's frontmatter repeats, even with an equal value. Duplicate keys invalidate the definition."),
		agentRule("AG003", "inherit-skills-not-boolean", E,
			"inheritSkills is not a YAML 1.2 boolean. Only true and false (any case) count; \"true\" in quotes, yes, on and 1 are not booleans and invalidate the definition."),
		agentRule("AG004", "skills-field-type", E,
			"skills or skillPath is neither a comma-separated string nor a list (a mapping, a boolean, a number). This invalidates the definition; an empty list is valid."),
		agentRule("AG005", "skills-element-invalid", E,
			"skills or skillPath has an empty element (a,,b, a, ,b, a trailing comma, \"\") or a list entry that is null or not a string. This invalidates the definition; repeated names are fine and resolved once."),
		agentRule("AG006", "skill-path-missing", E,
			"A skillPath entry does not exist. Relative paths resolve against the folder of the agent file, absolute paths are taken as they are, and ~ and $VAR are not expanded. A missing path is a loadout error even when no selected name would come from it."),
		agentRule("AG007", "skill-path-unsupported", E,
			"A skillPath entry is a file that is not a .md file, or a path that cannot be inspected safely (unreadable folder, too deep or too large to walk). It is a loadout error even when no selected name would come from it."),
		agentRule("AG008", "selected-name-ambiguous", E,
			"A selected skill name has more than one private candidate: different files on the skillPath entries declare it (root-level .md files count; one file reached by several paths counts once; hidden, node_modules, ignored and nested copies are never candidates)."),
		agentRule("AG009", "selected-candidate-unusable", E,
			"The one private candidate of a selected name is invalid (for example no description) or has disable-model-invocation: true. The loadout fails; there is no fallback to ambient skills of that name."),
		agentRule("AG010", "selected-name-pending", I,
			"A selected name is not on any private path, so it is taken from the ambient skills at run time. Without ambient folders (lint.ambient, --ambient) the linter can only note it; with them, a name that is missing, ambiguous, invalid or disabled there is an error.",
			rules.OptionDoc{Name: "lint.ambient", Default: "[]", Doc: "ambient skill folders"}),
		agentRule("AG011", "unselected-candidate-problem", W,
			"A private candidate the agent does not select is invalid, or several candidates share a name nobody selects. This does not invalidate the loadout but is kept as a warning for inspection."),
		agentRule("AG012", "unclassifiable-candidate", E,
			"A private candidate's name cannot be read (a YAML error, duplicate keys). If the agent selects names, their uniqueness or absence cannot be established and the loadout fails (error); otherwise it is a warning."),
		agentRule("AG013", "selected-skill-warning", W,
			"A selected skill's description is longer than Pi's recommended 1,024 characters. Pi's warning is kept; the selection stays valid."),
	}
}

// refRule reports the findings of the shared reference check that belong
// to its ID.
func refRule(id, name string, sev rules.Severity, doc string) *rules.Rule {
	return skillRule(id, name, sev, doc, func(p *rules.Pass, u *skillUnit) {
		if u.notSkill {
			return
		}
		for _, f := range u.references() {
			if f.rule == id {
				report(p, sev, f.file, f.line, f.col, "%s", f.msg)
			}
		}
	})
}

// displayPath shows an absolute path relative to the working directory
// when it lies inside it.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

func isDirPath(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
