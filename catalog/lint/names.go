package lint

// Rules about the name field.

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

var nameMissing = &Rule{
	Rule: &rules.Rule{ID: "SK010", Name: "name-missing", Kind: rules.Lint, Severity: rules.Error,
		Title: "The skill has no name",
		Why:   "The name is required by the spec and the validator; Pi falls back to the folder name, so the skill works in one place and fails validation in another.",
		Since: rules.FirstVersion,
		Doc:   "The frontmatter has no name. The spec and skills-ref require it; Pi silently falls back to the folder name, so the skill loads there but fails validation elsewhere."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if d.Field("name") == nil {
			p.Report(rules.Error, u.src.Path, 1, 1, "frontmatter has no name (Pi would use %q)", d.SkillName())
		}
	}),
}

var nameNotString = &Rule{
	Rule: &rules.Rule{ID: "SK011", Name: "name-not-string", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name is not a string",
		Why:   "A name that is empty, a list, a number or a boolean is treated as absent or converted differently by different loaders.",
		Since: rules.FirstVersion,
		Doc:   "The name is empty, null, a list or a mapping (error), or a YAML number or boolean such as 123 or true (warning: quote it). Pi 1.x treats a non-string name as absent and uses the folder name."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f := d.Field("name")
		if f == nil {
			return
		}
		n := f.Node
		switch {
		case catalog.IsNull(n):
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name is empty")
		case n.Kind != yaml.ScalarNode:
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name must be a string, not %s", catalog.YAMLKind(n))
		case strings.TrimSpace(n.Value) == "":
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name is empty")
		case n.Tag != "!!str":
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %s is %s, not a string: quote it", n.Value, catalog.YAMLKind(n))
			p.Fix(quoteFix(d, n))
		}
	}),
}

var nameTooLong = &Rule{
	Rule: &rules.Rule{ID: "SK012", Name: "name-too-long", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name is longer than 64 characters",
		Why:   "The spec caps names at 64 characters, and JavaScript loaders count UTF-16 units, so a long name is rejected by some clients.",
		Since: rules.FirstVersion,
		Doc:   "The name is longer than 64 characters (Unicode code points). When only its UTF-16 length is over 64, this is a warning: JavaScript-based loaders count UTF-16 units."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f, name, ok := nameOf(d)
		if !ok {
			return
		}
		if n, n16, over, only16 := lengthProblem(name, catalog.MaxNameChars); over {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name is %d characters, over the %d-character limit", n, catalog.MaxNameChars)
		} else if only16 {
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name is %d characters but %d UTF-16 units: JavaScript loaders count it over the %d limit", n, n16, catalog.MaxNameChars)
		}
	}),
}

var nameNotLowercase = &Rule{
	Rule: &rules.Rule{ID: "SK013", Name: "name-not-lowercase", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name has uppercase letters",
		Why:   "The spec allows only lowercase names, and the validator rejects any other.",
		Since: rules.FirstVersion,
		Doc:   "The name has uppercase letters, in any script. The spec allows only lowercase letters, digits and hyphens; skills-ref compares the name with its lowercase form."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f, name, ok := nameOf(d); ok && strings.ToLower(name) != name {
			s, fix := p.nameSuggestion(u, d, f, name)
			if s == "" {
				s = ": use lowercase letters, digits and hyphens only"
			}
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q has uppercase letters%s", name, s)
			p.Fix(fix)
		}
	}),
}

var nameInvalidChars = &Rule{
	Rule: &rules.Rule{ID: "SK014", Name: "name-invalid-chars", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name has characters other than letters, digits and hyphens",
		Why:   "The spec and the validator reject such names, and routers cannot invoke them reliably.",
		Since: rules.FirstVersion,
		Doc:   "The name has characters other than letters, digits and hyphens: spaces (also a trailing space inside quotes), underscores, dots, colons, symbols such as ×. The check runs on the NFKC-normalized name, as skills-ref does."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
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
			s, fix := p.nameSuggestion(u, d, f, name)
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains %s: only letters, digits and hyphens are allowed%s", name, quoteRunes(bad), s)
			p.Fix(fix)
		}
	}),
}

var nameEdgeHyphen = &Rule{
	Rule: &rules.Rule{ID: "SK015", Name: "name-edge-hyphen", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name starts or ends with a hyphen",
		Why:   "The spec forbids it, so validators reject the skill.",
		Since: rules.FirstVersion,
		Doc:   "The name starts or ends with a hyphen, which the spec forbids."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f, name, ok := nameOf(d); ok && (strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-")) {
			s, fix := p.nameSuggestion(u, d, f, name)
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q starts or ends with a hyphen%s", name, s)
			p.Fix(fix)
		}
	}),
}

var nameConsecutiveHyphens = &Rule{
	Rule: &rules.Rule{ID: "SK016", Name: "name-consecutive-hyphens", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name has two hyphens in a row",
		Why:   "The spec forbids it, so validators reject the skill.",
		Since: rules.FirstVersion,
		Doc:   "The name contains two hyphens in a row (--), which the spec forbids."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		if f, name, ok := nameOf(d); ok && strings.Contains(name, "--") {
			s, fix := p.nameSuggestion(u, d, f, name)
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains consecutive hyphens%s", name, s)
			p.Fix(fix)
		}
	}),
}

var nameDirMismatch = &Rule{
	Rule: &rules.Rule{ID: "SK017", Name: "name-dir-mismatch", Kind: rules.Lint, Severity: rules.Error,
		Title: "The name differs from its folder's name",
		Why:   "The spec and the validator require the two to match; a mismatch also makes it unclear which name users invoke.",
		Since: rules.FirstVersion,
		Doc:   "The name differs from the name of the folder holding SKILL.md (compared exactly, case-sensitive). The spec and skills-ref require them to match; names equal only after Unicode normalization are SK019 instead."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f, name, ok := nameOf(d)
		if !ok || !u.dirSkill {
			return
		}
		dir := catalog.FolderName(u.src.Path)
		if name == dir || nfkc(name) == nfkc(dir) {
			return
		}
		// Reached through a symlink: the real folder's name counts too.
		if real := catalog.FolderName(u.src.Canonical); u.src.Canonical != "" && (name == real || nfkc(name) == nfkc(real)) {
			return
		}
		p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q does not match its folder %q", name, dir)
	}),
}

var nameNonASCII = &Rule{
	Rule: &rules.Rule{ID: "SK018", Name: "name-non-ascii", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The name has letters outside ASCII",
		Why:   "Validators disagree on non-ASCII names, and Pi warns on each, so such a skill is not portable.",
		Since: rules.FirstVersion,
		Reads: []string{"lint.profile"},
		Doc:   "The name uses lowercase letters or digits outside ASCII. The spec is ambiguous, the Python skills-ref accepts any script, its npm port rejects Greek, kana, Arabic and others, and Pi warns on every non-ASCII name. Under the skills-ref profile, letters the npm port rejects are errors."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
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
		if !npm && p.Settings.skillsRef() {
			p.Report(rules.Error, u.src.Path, f.ValueLine, f.ValueCol, "name %q has letters the npm skills-ref rejects (%s)", name, quoteRunes(non))
			return
		}
		p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q has non-ASCII characters (%s): Pi warns and some validators reject them", name, quoteRunes(non))
	}),
}

var nameNormalization = &Rule{
	Rule: &rules.Rule{ID: "SK019", Name: "name-normalization", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The name is not Unicode-normalized",
		Why:   "Names that look equal but differ in normalization compare unequal on some systems, so a skill can match its folder on one machine and not on another.",
		Since: rules.FirstVersion,
		Doc:   "The name is not in Unicode normalization form NFC or NFKC (decomposed accents, fullwidth letters), or it matches its folder name only after normalization. Such names look equal but compare unequal on some systems (macOS stores folder names decomposed)."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f, name, ok := nameOf(d)
		if !ok {
			return
		}
		switch {
		case name != nfc(name):
			s, fix := p.nameSuggestion(u, d, f, name)
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q is not NFC-normalized (it has combining marks)%s", name, s)
			p.Fix(fix)
		case name != nfkc(name):
			s, fix := p.nameSuggestion(u, d, f, name)
			p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q is not NFKC-normalized (compatibility forms such as fullwidth letters)%s", name, s)
			p.Fix(fix)
		case u.dirSkill:
			if dir := catalog.FolderName(u.src.Path); dir != name && nfkc(dir) == nfkc(name) {
				p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q matches its folder %q only after Unicode normalization", name, dir)
			}
		}
	}),
}

var nameReservedWord = &Rule{
	Rule: &rules.Rule{ID: "SK024", Name: "name-reserved-word", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The name uses a reserved word",
		Why:   "Anthropic's platform reserves anthropic and claude for its own skills and rejects uploads that use them.",
		Since: rules.FirstVersion,
		Doc:   "The name contains the word anthropic or claude, which Anthropic's platform reserves for its own skills; uploads with such names are rejected there."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f, name, ok := nameOf(d)
		if !ok {
			return
		}
		for _, w := range []string{"anthropic", "claude"} {
			if strings.Contains(strings.ToLower(name), w) {
				p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q contains the reserved word %q", name, w)
				return
			}
		}
	}),
}

var nameNotInvocable = &Rule{
	Rule: &rules.Rule{ID: "SK062", Name: "name-not-invocable", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The name cannot be invoked as /skill:NAME",
		Why:   "A command router accepts only ASCII letters, digits, _ and -, so a name outside that set cannot be invoked by name.",
		Since: rules.FirstVersion,
		Doc:   "The name is valid for the spec but does not match [a-zA-Z0-9_-]+, the pattern a /skill:NAME command router accepts: non-ASCII letters and digits cannot be invoked by name there. Names with other forbidden characters are reported by SK014."},
	Skill: withFrontmatter(func(p *Pass, u *Skill, d *catalog.SkillDoc) {
		f, name, ok := nameOf(d)
		if !ok || invocableName().MatchString(name) {
			return
		}
		// Names with characters the spec forbids are SK014's; this
		// rule adds what a valid name can still lack.
		for _, r := range nfkc(name) {
			if !isNameRune(r) {
				return
			}
		}
		p.Report(rules.Warning, u.src.Path, f.ValueLine, f.ValueCol, "name %q cannot be invoked as /skill:NAME (names must match [a-zA-Z0-9_-]+)", name)
	}),
}

// scalarText returns a field's scalar text when it is a non-null scalar.
func scalarText(f *catalog.Field) (string, bool) {
	if f == nil || f.Node.Kind != yaml.ScalarNode || catalog.IsNull(f.Node) {
		return "", false
	}
	return f.Node.Value, true
}

// nameOf returns the frontmatter name when it is a non-empty scalar.
func nameOf(d *catalog.SkillDoc) (*catalog.Field, string, bool) {
	f := d.Field("name")
	s, ok := scalarText(f)
	if !ok || strings.TrimSpace(s) == "" {
		return f, "", false
	}
	return f, s, true
}

// nameRules are the rules a suggested name must pass (set in init: the
// rules' checks suggest names themselves).
var nameRules []*Rule

func init() {
	nameRules = []*Rule{nameNotString, nameTooLong, nameNotLowercase, nameInvalidChars, nameEdgeHyphen,
		nameConsecutiveHyphens, nameDirMismatch, nameNonASCII, nameNormalization, nameReservedWord, nameNotInvocable}
}

// suggestName spells a name in the form the spec asks for: NFKC,
// lowercase, and every run of separators and symbols one hyphen, without
// hyphens at the ends. It returns "" when that is not possible
// mechanically (letters outside ASCII) or changes nothing.
func suggestName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(nfkc(name)) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r < 0x80 || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r):
			if !dash {
				b.WriteByte('-')
				dash = true
			}
		default:
			return ""
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == name {
		return ""
	}
	return s
}

// nameText is how a fix writes a name into the frontmatter.
func nameText(name string) string { return scalarYAML(name) }

// validName reports whether name, written as a fix writes it, passes every
// name rule as the name of a skill in a folder of the same name.
func validName(name string, settings *Settings) bool {
	if name == "" {
		return false
	}
	path := filepath.Join("skills", name, catalog.SkillFileName)
	doc, err := catalog.ParseSkillDoc(path, []byte("---\nname: "+nameText(name)+"\ndescription: x\n---\nx\n"))
	if err != nil {
		return false
	}
	u := &Skill{src: catalog.Source{Path: path, Kind: catalog.SkillFile}, doc: doc, dirSkill: true}
	for _, r := range nameRules {
		p := newPass(r, settings, nil, nil)
		p.noSuggest = true
		r.Skill(p, u)
		if len(p.Diagnostics()) > 0 {
			return false
		}
	}
	return true
}

// nameSuggestion returns the message suffix suggesting a valid spelling of
// a name (": use \"x\"", or "" when there is none) and the fix writing it.
// A suggestion passes every name rule. The fix is offered only when the
// name then matches its folder (for a skill folder), and is safe only when
// it changes case and Unicode form alone.
func (p *Pass) nameSuggestion(u *Skill, d *catalog.SkillDoc, f *catalog.Field, name string) (string, *Fix) {
	if p.noSuggest {
		return "", nil
	}
	s := suggestName(name)
	if s == "" || !validName(s, p.Settings) {
		return "", nil
	}
	msg := fmt.Sprintf(": use %q", s)
	if dir := catalog.FolderName(u.src.Path); u.dirSkill && dir != s {
		if suggestName(dir) == s {
			msg += " (and rename the folder to match)"
		}
		return msg, nil
	}
	start, end, ok := scalarSpan(d, f.Node)
	if !ok {
		return msg, nil
	}
	return msg, &Fix{Unsafe: s != strings.ToLower(nfkc(name)), Edits: []Edit{{start, end, nameText(s)}}}
}
