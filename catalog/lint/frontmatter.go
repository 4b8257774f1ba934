package lint

// Rules about the skill file itself and its frontmatter block.

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

var skillMDFilenameCase = &Rule{
	Rule: &rules.Rule{ID: "SK002", Name: "skill-md-filename-case", Kind: rules.Lint, Severity: rules.Warning,
		Title: "SKILL.md is not named exactly SKILL.md",
		Why:   "Pi and most clients look only for the exact name, so a skill file in another casing is invisible to them.",
		Since: rules.FirstVersion,
		Doc:   "The skill file is named skill.md (or another casing) instead of SKILL.md. The reference validator accepts skill.md, but Pi and the client implementation guide look for the exact name SKILL.md, so the skill is invisible to them; it is still linted here."},
	Skill: func(p *Pass, u *Skill) {
		if u.miscased {
			p.Report(rules.Warning, u.src.Path, 1, 1, "%s is not named SKILL.md: Pi and most clients load only the exact name", filepath.Base(u.src.Path))
		}
	},
}

var frontmatterMissing = &Rule{
	Rule: &rules.Rule{ID: "SK003", Name: "frontmatter-missing", Kind: rules.Lint, Severity: rules.Error,
		Title: "The file does not start with frontmatter",
		Why:   "Without frontmatter at the very start a skill has no name and no description, and loaders skip it.",
		Since: rules.FirstVersion,
		Doc:   "The file does not start with a --- line opening YAML frontmatter. The spec, skills-ref and Pi all require the frontmatter at the very start; a leading blank line or a heading first means no name and no description, and loaders skip the skill."},
	Skill: func(p *Pass, u *Skill) {
		if de := u.docErr(); de != nil && de.Kind == catalog.ErrNoFrontmatter && !u.notSkill {
			msg := "file does not start with a --- frontmatter line"
			if len(bytes.TrimSpace(u.doc.Line(1))) == 0 && u.doc.Lines() > 1 {
				msg += " (the first line is blank)"
			}
			p.Report(rules.Error, u.src.Path, 1, 1, "%s", msg)
		}
	},
}

var frontmatterUnclosed = &Rule{
	Rule: &rules.Rule{ID: "SK004", Name: "frontmatter-unclosed", Kind: rules.Lint, Severity: rules.Error,
		Title: "The frontmatter is never closed",
		Why:   "An unclosed frontmatter leaves loaders to guess where it ends; they disagree, and Pi reads no fields at all.",
		Since: rules.FirstVersion,
		Doc:   "The frontmatter opened by --- is never closed by another --- line. Everything is then frontmatter or nothing is, depending on the loader; skills-ref reports it and Pi reads no fields. CRLF line ends and a missing final newline are accepted."},
	Skill: func(p *Pass, u *Skill) {
		if de := u.docErr(); de != nil && de.Kind == catalog.ErrUnclosed {
			p.Report(rules.Error, u.src.Path, 1, 1, "frontmatter opened here is not closed by a --- line")
		}
	},
}

var frontmatterBOM = &Rule{
	Rule: &rules.Rule{ID: "SK005", Name: "frontmatter-bom", Kind: rules.Lint, Severity: rules.Error,
		Title: "The file starts with a byte order mark",
		Why:   "Several loaders fail or skip a file whose first bytes are a BOM, so the skill disappears on some clients.",
		Since: rules.FirstVersion,
		Doc:   "The file starts with a UTF-8 byte order mark before the opening ---. Both skills-ref ports fail such files ('must start with YAML frontmatter') and Pi 0.73 skips them; Pi 1.x strips the mark. Save the file as UTF-8 without BOM."},
	Skill: func(p *Pass, u *Skill) {
		if u.doc.BOM && !u.notSkill {
			p.Report(rules.Error, u.src.Path, 1, 1, "file starts with a UTF-8 byte order mark: save it without one (skills-ref rejects it)")
			p.Fix(&Fix{Edits: []Edit{{0, len(bom), ""}}})
		}
	},
}

var yamlInvalid = &Rule{
	Rule: &rules.Rule{ID: "SK006", Name: "yaml-invalid", Kind: rules.Lint, Severity: rules.Error,
		Title: "The frontmatter is not valid YAML",
		Why:   "Loaders skip a skill whose frontmatter does not parse, and lenient and strict parsers may read the same text differently.",
		Since: rules.FirstVersion,
		Doc:   "The frontmatter is not valid YAML. The most common cause is an unquoted ': ' inside a description, which lenient parsers read differently and strict ones reject; tabs used for indentation and unterminated lists or quotes are others. Loaders skip the skill."},
	Skill: func(p *Pass, u *Skill) {
		if de := u.docErr(); de != nil && de.Kind == catalog.ErrYAML {
			msg := de.Msg
			var fix *Fix
			if l := u.doc.Line(de.Line); strings.Contains(msg, "mapping values are not allowed") && bytes.Count(l, []byte(": ")) > 1 {
				msg += ": quote the value"
				fix = valueYAMLFix(u.doc, de.Line)
			}
			p.Report(rules.Error, u.src.Path, de.Line, de.Col, "%s", msg)
			p.Fix(fix)
		}
	},
}

var yamlDuplicateKey = &Rule{
	Rule: &rules.Rule{ID: "SK007", Name: "yaml-duplicate-key", Kind: rules.Lint, Severity: rules.Error,
		Title: "A frontmatter key repeats",
		Why:   "YAML forbids duplicate keys; some loaders reject the file and others silently keep the last value, so the skill behaves differently per client.",
		Since: rules.FirstVersion,
		Doc:   "A frontmatter mapping key appears twice, even with the same value. YAML forbids it; Pi's parser and skills-ref reject the file, while some other parsers silently keep the last value."},
	Skill: func(p *Pass, u *Skill) {
		if u.notSkill {
			return
		}
		for _, dup := range u.doc.Duplicates {
			p.Report(rules.Error, u.src.Path, dup.Line, dup.Col, "duplicate key %q (first at line %d)", dup.Key, dup.FirstLine)
		}
	},
}

var frontmatterNotMapping = &Rule{
	Rule: &rules.Rule{ID: "SK008", Name: "frontmatter-not-mapping", Kind: rules.Lint, Severity: rules.Error,
		Title: "The frontmatter is not a mapping",
		Why:   "A list or scalar frontmatter has no name and no description, so no loader can use the skill.",
		Since: rules.FirstVersion,
		Doc:   "The frontmatter is a YAML list or a scalar rather than a mapping of keys to values, so it has no name or description."},
	Skill: func(p *Pass, u *Skill) {
		if de := u.docErr(); de != nil && de.Kind == catalog.ErrNotMapping {
			p.Report(rules.Error, u.src.Path, de.Line, de.Col, "%s", de.Msg)
		}
	},
}

var frontmatterDashesInValue = &Rule{
	Rule: &rules.Rule{ID: "SK009", Name: "frontmatter-dashes-in-value", Kind: rules.Lint, Severity: rules.Warning,
		Title: "--- inside the frontmatter",
		Why:   "The reference validator splits the file at every ---, so it reads a truncated frontmatter and fails a skill that Pi loads fine.",
		Since: rules.FirstVersion,
		Reads: []string{"lint.profile"},
		Doc:   "The text --- appears inside the frontmatter (for example in a quoted description). The reference validator splits the file on every ---, so it reads a truncated frontmatter and fails, while Pi reads the file fine. Under the skills-ref profile this is an error."},
	Skill: func(p *Pass, u *Skill) {
		d := u.doc
		if u.notSkill || d.CloseLine == 0 {
			return
		}
		if i := bytes.Index(d.FrontmatterText, []byte("---")); i >= 0 {
			sev := rules.Warning
			if p.Settings.skillsRef() {
				sev = rules.Error
			}
			line, col := d.Pos(d.FrontmatterOffset + i)
			p.Report(sev, u.src.Path, line, col, "--- inside the frontmatter: skills-ref splits the file here and fails")
		}
	},
}

var rootMarkdownNotSkill = &Rule{
	Rule: &rules.Rule{ID: "SK056", Name: "root-markdown-not-skill", Kind: rules.Lint, Severity: rules.Info,
		Title: "A top-level markdown file is not a skill",
		Why:   "A file with frontmatter but without a name or description looks like a skill and is not one; the note explains why it is skipped.",
		Since: rules.FirstVersion,
		Doc:   "A markdown file at the top of a linted folder has frontmatter without a name or description, so it is not a skill (Pi 1.x skips it too). Files without any frontmatter, such as a README, are skipped without a note; markdown below the top level is never a skill unless named SKILL.md."},
	Skill: func(p *Pass, u *Skill) {
		if u.notSkill && u.doc.Frontmatter != nil {
			p.Report(rules.Info, u.src.Path, 1, 1, "frontmatter has no name or description: not a skill")
		}
	},
}

var singleFileSkill = &Rule{
	Rule: &rules.Rule{ID: "SK057", Name: "single-file-skill", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A single-file skill",
		Why:   "Pi loads a top-level markdown file with skill frontmatter, but other clients need a folder with SKILL.md, so the skill is not portable.",
		Since: rules.FirstVersion,
		Doc:   "A markdown file at the top of a linted folder has skill frontmatter, so Pi loads it as a single-file skill. That is not portable: the spec, skills-ref and other clients need a folder with SKILL.md."},
	Skill: func(p *Pass, u *Skill) {
		if !u.notSkill && !u.dirSkill {
			p.Report(rules.Warning, u.src.Path, 1, 1, "single-file skill: move it to %s/SKILL.md for other clients", strings.TrimSuffix(filepath.Base(u.src.Path), filepath.Ext(u.src.Path)))
		}
	},
}
