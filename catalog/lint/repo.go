package lint

// Rules about the whole run: discovery surprises, names across skills,
// the catalog budget.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

var skillMDMissing = &Rule{
	Rule: &rules.Rule{ID: "SK001", Name: "skill-md-missing", Kind: rules.Lint, Severity: rules.Error,
		Title: "A linted folder holds no skill",
		Why:   "Linting a folder that holds nothing to lint would otherwise pass in silence; the finding catches the wrong path or misnamed file before a loader ignores the folder too.",
		Since: rules.FirstVersion,
		Doc:   "A linted folder contains no SKILL.md and no agent definition. A skill is a folder holding a file named SKILL.md; pointing the linter (or a loader) at a folder without one finds nothing, which usually means a wrong path or a misnamed file."},
	Repo: func(p *Pass, u *Repo) {
		for _, dir := range u.empty {
			p.Report(rules.Error, dir, 1, 1, "no SKILL.md or agent definition found under %s", dir)
		}
	},
}

var duplicateSkillName = &Rule{
	Rule: &rules.Rule{ID: "SK050", Name: "duplicate-skill-name", Kind: rules.Lint, Severity: rules.Error,
		Title: "Two skills declare the same name",
		Why:   "Loaders keep one of them depending on folder order, so which skill runs is an accident.",
		Since: rules.FirstVersion,
		Doc:   "Two different skill files (by canonical path) declare the same name. Pi loads the first one found and reports a collision; which one wins depends on folder order. Paths reaching one file through symlinks count once."},
	Repo: func(p *Pass, u *Repo) {
		first := map[string]skillSummary{}
		for _, s := range u.skills {
			if s.name == "" {
				continue
			}
			if f, ok := first[s.name]; ok && f.canonical != s.canonical {
				p.Report(rules.Error, s.path, s.nameLine, s.nameCol, "skill name %q is also declared by %s", s.name, f.path)
				continue
			}
			if _, ok := first[s.name]; !ok {
				first[s.name] = s
			}
		}
	},
}

var symlinkAlias = &Rule{
	Rule: &rules.Rule{ID: "SK051", Name: "symlink-alias", Kind: rules.Lint, Severity: rules.Info,
		Title: "A skill is reached through a second path",
		Why:   "Symlinks or overlapping paths make one skill appear twice; the note says where the second path leads so the duplicate can be removed.",
		Since: rules.FirstVersion,
		Doc:   "A skill file or folder is reached again through another path (a symlink or an overlapping lint path). It is linted once, under the path found first; this note says where the other path leads."},
	Repo: func(p *Pass, u *Repo) {
		for _, ev := range u.events {
			// The same path given twice (overlapping lint paths) is
			// merely deduplicated.
			if ev.Kind == catalog.EventAlias && filepath.Clean(ev.Path) != filepath.Clean(ev.Other) {
				p.Report(rules.Info, ev.Path, 1, 1, "same file or folder as %s: linted once", ev.Other)
			}
		}
	},
}

var symlinkCycle = &Rule{
	Rule: &rules.Rule{ID: "SK052", Name: "symlink-cycle", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A symlink leads back to its own folder",
		Why:   "Loaders that follow such links walk until the system refuses, and two of them make the walk exponential.",
		Since: rules.FirstVersion,
		Doc:   "A symlink leads back to a folder that contains it. The walk cuts the cycle by canonical path and reports it once; Pi follows such links until the system refuses, and two of them make its walk exponential."},
	Repo: func(p *Pass, u *Repo) {
		for _, ev := range u.events {
			if ev.Kind != catalog.EventCycle {
				continue
			}
			if ev.Other != "" {
				p.Report(rules.Warning, ev.Path, 1, 1, "symlink leads back to %s, which contains it: not followed", displayPath(ev.Other))
			} else {
				p.Report(rules.Warning, ev.Path, 1, 1, "symlink loop: not followed")
			}
		}
	},
}

var brokenSymlink = &Rule{
	Rule: &rules.Rule{ID: "SK053", Name: "broken-symlink", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A symlink points nowhere",
		Why:   "Loaders skip broken links silently, so a skill behind one disappears without notice.",
		Since: rules.FirstVersion,
		Doc:   "A symlink in the tree points nowhere. Loaders skip it silently, so a skill behind it disappears without notice."},
	Repo: func(p *Pass, u *Repo) {
		for _, ev := range u.events {
			if ev.Kind == catalog.EventBroken {
				p.Report(rules.Warning, ev.Path, 1, 1, "dangling symlink: skipped")
			}
		}
	},
}

var nestedSkillIgnored = &Rule{
	Rule: &rules.Rule{ID: "SK054", Name: "nested-skill-ignored", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A skill lies inside another skill",
		Why:   "Loaders stop at the outer SKILL.md and never discover the inner skill.",
		Since: rules.FirstVersion,
		Doc:   "A SKILL.md lies below a folder that already has a SKILL.md. Loaders treat the outer folder as the skill root and never descend into it, so the inner skill is never discovered."},
	Repo: func(p *Pass, u *Repo) {
		for _, ev := range u.events {
			if ev.Kind == catalog.EventNested {
				p.Report(rules.Warning, ev.Path, 1, 1, "not discovered: it is inside the skill of %s", ev.Other)
			}
		}
	},
}

var ignoredPath = &Rule{
	Rule: &rules.Rule{ID: "SK055", Name: "ignored-path", Kind: rules.Lint, Severity: rules.Info,
		Title: "A path is skipped by an ignore file",
		Why:   "A skill hidden by .gitignore, .ignore or .fdignore is not loaded; the note makes that visible.",
		Since: rules.FirstVersion,
		Doc:   "A folder or markdown file is skipped because a .gitignore, .ignore or .fdignore pattern matches it (git semantics: nested files apply to their folder, ! re-includes). Hidden entries and node_modules are skipped without a note; the linted folder itself may be hidden."},
	Repo: func(p *Pass, u *Repo) {
		for _, ev := range u.events {
			if ev.Kind == catalog.EventIgnored && (isDirPath(ev.Path) || strings.EqualFold(filepath.Ext(ev.Path), ".md")) {
				p.Report(rules.Info, ev.Path, 1, 1, "skipped: matches %q (%s:%d)", ev.Pattern, ev.File, ev.Line)
			}
		}
	},
}

var staleTempFile = &Rule{
	Rule: &rules.Rule{ID: "SK065", Name: "stale-temp-file", Kind: rules.Lint, Severity: rules.Warning,
		Title: "A leftover temporary file of an interrupted write",
		Why:   "The skill itself is intact, but the leftover travels with the folder and is easily committed.",
		Since: rules.FirstVersion,
		Doc: "A temporary file of skillopt's atomic writer (.skillopt-tmp-SKILL.md.123) lies beside a skill file: a write such as lint --fix was killed before it renamed the file into place. " +
			"The skill file is intact (its old content or its new one, never a mix), but the leftover travels with the folder and is easily committed. Only files of exactly that name are reported; --fix removes them."},
	Repo: func(p *Pass, u *Repo) {
		seen := map[string]bool{}
		for _, ev := range u.events {
			if ev.Kind != catalog.EventTemp || seen[ev.Path] {
				continue
			}
			seen[ev.Path] = true
			p.Report(rules.Warning, ev.Path, 1, 1, "temporary file left by an interrupted write of %s: remove it", filepath.Base(ev.Other))
			p.Fix(&Fix{Remove: ev.Path})
		}
	},
}

// indexBudgetOptions are the options of SK058.
type indexBudgetOptions struct {
	IndexBudgetChars int `toml:"index_budget_chars" doc:"budget for the sum of name and description characters over all skills; 0 turns the check off"`
}

func (*indexBudgetOptions) Section() string { return "lint" }

func (o *indexBudgetOptions) Check() []rules.OptionError {
	if o.IndexBudgetChars < 0 {
		return []rules.OptionError{{Key: "index_budget_chars", Msg: fmt.Sprintf("%d must not be negative", o.IndexBudgetChars)}}
	}
	return nil
}

var indexBudget = &Rule{
	Rule: &rules.Rule{ID: "SK058", Name: "index-budget", Kind: rules.Lint, Severity: rules.Warning,
		Title:   "The skill index is over budget",
		Why:     "Every skill's name and description is in every request, and clients cap the list and silently drop what does not fit.",
		Since:   rules.FirstVersion,
		Options: &indexBudgetOptions{IndexBudgetChars: 20000},
		Doc:     "The names and descriptions of all linted skills add up to more than 20,000 characters. Every one of them is in the system prompt of every request; clients cap the list (Codex at about 8,000 characters, Claude Code near 16,000) and drop the rest."},
	Repo: func(p *Pass, u *Repo) {
		budget := p.Options.(*indexBudgetOptions).IndexBudgetChars
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
			p.Report(rules.Warning, s.path, s.descLine, s.descCol, "skill names and descriptions add up to %s characters over %d skills, over the %s-character budget (crossed here)", thousands(total), len(u.skills), thousands(budget))
		}
	},
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
