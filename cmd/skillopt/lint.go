package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

func lintCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "lint skill folders, SKILL.md files and agent definitions",
		ArgsUsage: "[PATH...]",
		Description: "Finds skills (folders with a SKILL.md, and markdown files with skill frontmatter at\n" +
			"the top of a linted folder) and agent definitions (*.md in .pi/agents/ and agents/, or\n" +
			"files whose frontmatter sets inheritSkills, skills or skillPath) under each PATH\n" +
			"(default: .), and runs the SKxxx and AGxxx rules over them: frontmatter and YAML,\n" +
			"name and description limits, local links, discovery surprises, agent loadouts.\n" +
			"Hidden folders, node_modules and paths matched by .gitignore, .ignore or .fdignore\n" +
			"are skipped. Positions are file:line:col, 1-based, columns in code points (SARIF:\n" +
			"UTF-16 units).\n\n" +
			"Severities, disabled rules and suppressions come from [lint] in skillopt.toml\n" +
			"(`skillopt rules` lists the rules). Exit 1 iff a finding is an error; 2 for bad\n" +
			"usage, configuration or an unreadable path (2 wins), whatever the format.\n\n" +
			"Formats: text, json, markdown, sarif (2.1.0), github (workflow annotations); see\n" +
			"docs/report.md.\n\n" +
			"Examples:\n" +
			"  skillopt lint\n" +
			"  skillopt lint skills/ .pi/agents/reviewer.md\n" +
			"  skillopt lint --profile skills-ref --format sarif > lint.sarif",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Usage: "default (the spec and Pi) or skills-ref (also fail what the reference validator rejects); default: lint.profile"},
			&cli.StringSliceFlag{Name: "ambient", Usage: "skill folder agents inherit at run time, to resolve selected names no skillPath provides (repeatable; default: lint.ambient)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "do not read or write the cache of body token counts (default: lint.cache)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, report.Formats...); err != nil {
				return err
			}
			opts, err := e.lintOptions(c)
			if err != nil {
				return err
			}
			rep, err := lint.Run(opts)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			for _, err := range rep.Errors {
				e.warnInput(err)
			}
			if err := e.writeLint(rep); err != nil {
				return err
			}
			for _, d := range rep.Diagnostics {
				if d.Severity == rules.Error {
					return e.finish(findings)
				}
			}
			return e.finish(nil)
		},
	}
}

// lintOptions configures a lint run: settings and rule options from the
// configuration, severities and disabled rules resolved by the registry,
// and the flags.
func (e *env) lintOptions(c *cli.Context) (lint.Options, error) {
	reg := ruleset.Registry()
	ls := lint.FromSet(e.cfg.Options)
	if err := e.cfg.Located(ls.CheckRefs(reg.Match)); err != nil {
		return lint.Options{}, e.configErr(err)
	}
	if c.IsSet("profile") {
		switch p := c.String("profile"); p {
		case "default", "skills-ref":
			ls.Profile = p
		default:
			return lint.Options{}, usageErr("lint: --profile %q is not one of default, skills-ref", p)
		}
	}
	levels, err := lint.Levels(reg, ls, e.cfg.Rules.Severity, e.cfg.Rules.Disable)
	if err != nil {
		return lint.Options{}, e.configErr(err)
	}
	opts := lint.Options{Paths: c.Args().Slice(), Config: e.cfg.Options, Levels: levels, ConfigFile: e.cfg.Path, Locate: e.cfg.Position}
	if c.IsSet("ambient") {
		opts.Ambient = c.StringSlice("ambient")
	}
	if ls.Cache && !c.Bool("no-cache") {
		if dir, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(dir, "skillopt")
		}
	}
	return opts, nil
}

// writeLint renders the lint's findings, with UTF-16 columns (for SARIF)
// read from the linted files.
func (e *env) writeLint(lrep *lint.Report) error {
	rep := e.newReport("lint")
	for _, d := range lrep.Diagnostics {
		rep.Diagnostics = append(rep.Diagnostics, report.FromRule(d))
	}
	rep.SetColumns16(&report.Files{})
	rep.Summary.Skills = report.Count(lrep.Skills)
	rep.Summary.Agents = report.Count(lrep.Agents)
	rep.Summary.Suppressed = report.Count(lrep.Suppressed)
	return e.writeReport(rep, lintRules())
}

// lintRules are the registry values of the lint rules.
func lintRules() []*rules.Rule {
	var out []*rules.Rule
	for _, r := range lint.Rules() {
		out = append(out, r.Rule)
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
