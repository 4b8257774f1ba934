package lint

// Suppressions of skillopt.toml and the rule about unused ones.

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

var unusedSuppression = &Rule{
	Rule: &rules.Rule{ID: "SK059", Name: "unused-suppression", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A suppression matches nothing",
		Why:   "Stale suppressions hide nothing and mislead readers into thinking a problem exists or is handled.",
		Since: rules.FirstVersion,
		Reads: []string{"lint.suppress"},
		Doc: "A [[lint.suppress]] entry of skillopt.toml, or an inline suppression comment of a skill file (<!-- skillopt: disable=SK043 -->), matched no finding, or the comment names no rule. " +
			"Stale suppressions hide nothing and mislead readers; remove them. A comment whose rules are all turned off in the run is not reported."},
	Unused: func(p *Pass, u *Suppressions) {
		for _, s := range u.unused {
			where := "any file"
			if s.path != "" {
				where = fmt.Sprintf("%q", s.path)
			}
			p.Report(rules.Warning, u.file, s.line, s.col, "suppression of %s in %s matched nothing: remove it", s.rule, where)
		}
		for _, s := range u.inline {
			p.Report(rules.Warning, s.file, s.line, s.col, "%s", inlineMessage(s))
		}
	},
}

// suppress drops the findings that [[lint.suppress]] entries silence,
// counting them in rep, and returns the entries nothing matched. A rule
// reference is resolved as everywhere else (ID, ID prefix, name, name
// prefix, any case); paths are relative to the configuration file's
// folder.
func suppress(opts Options, s *Settings, diags []rules.Diagnostic, rep *Report) ([]rules.Diagnostic, *Suppressions) {
	if len(s.Suppress) == 0 {
		return diags, nil
	}
	base := ""
	if opts.ConfigFile != "" {
		if abs, err := filepath.Abs(filepath.Dir(opts.ConfigFile)); err == nil {
			base = abs
		}
	}
	ids := make([]map[string]bool, len(s.Suppress))
	for i, sup := range s.Suppress {
		ids[i] = map[string]bool{}
		if reg, err := registry(); err == nil {
			rs, _ := reg.Match(sup.Rule)
			for _, r := range rs {
				ids[i][r.ID] = true
			}
		}
	}
	used := make([]bool, len(s.Suppress))
	out := diags[:0]
	for _, d := range diags {
		suppressed := false
		for i, sup := range s.Suppress {
			if !ids[i][d.Rule] {
				continue
			}
			if sup.Path == "" || (base != "" && d.File != "" && globMatch(sup.Path, relTo(base, d.File))) {
				used[i] = true
				suppressed = true
			}
		}
		if suppressed {
			rep.Suppressed++
			continue
		}
		out = append(out, d)
	}
	u := &Suppressions{file: opts.ConfigFile}
	for i, sup := range s.Suppress {
		if used[i] {
			continue
		}
		line, col := 0, 0
		if opts.Locate != nil {
			line, col = opts.Locate(fmt.Sprintf("lint.suppress[%d]", i))
		}
		if line == 0 {
			line, col = 1, 1
		}
		u.unused = append(u.unused, unusedEntry{index: i, rule: sup.Rule, path: sup.Path, line: line, col: col})
	}
	return out, u
}

// relTo returns file relative to base as a slash path ("" when it is
// outside base).
func relTo(base, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// globMatch matches a slash path against a pattern: * and ? within an
// element, ** for any number of elements.
func globMatch(pattern, name string) bool {
	if name == "" {
		return false
	}
	return globParts(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func globParts(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if globParts(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
