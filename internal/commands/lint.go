package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
			"(`skillopt rules` lists the rules); --select, --extend-select and --ignore change the\n" +
			"rules for one run, with the same references (ID, ID prefix, name, any case; ALL).\n" +
			"A comment <!-- skillopt: disable=SK043 --> in a SKILL.md silences rules from there on\n" +
			"(also disable-line, disable-next-line, disable-file and enable; see docs/lint.md).\n\n" +
			"Fixes: findings marked [*] have a safe fix, which --fix applies (the files are\n" +
			"rewritten atomically, then linted again); --unsafe-fixes also applies fixes that\n" +
			"change more than form (a list joined into a string, a renamed name). --diff prints\n" +
			"the fixes as a unified diff and writes nothing (exit 1 when there is something to fix).\n" +
			"Temporary files an interrupted write left beside a skill file (SK065) are reported;\n" +
			"--fix removes them and says so.\n\n" +
			"Exit 1 iff a finding is an error (0 with --exit-zero); 2 for bad usage,\n" +
			"configuration or an unreadable path (2 wins), whatever the format.\n\n" +
			"Formats: text, json, markdown, sarif (2.1.0), github (workflow annotations), jsonl\n" +
			"(one object per finding); see docs/report.md. Skills are linted in parallel\n" +
			"(--jobs); the output is the same for any number.\n\n" +
			"Examples:\n" +
			"  skillopt lint\n" +
			"  skillopt lint skills/ .pi/agents/reviewer.md\n" +
			"  skillopt lint --select SK01,SK02 --ignore SK024 skills/\n" +
			"  skillopt lint --diff skills/\n" +
			"  skillopt lint --fix skills/\n" +
			"  skillopt lint --profile skills-ref --format sarif > lint.sarif",
		Flags: []cli.Flag{
			formats("", captureReportFormats...),
			jobsFlag(),
			&cli.StringFlag{Name: "profile", Usage: "default (the spec and Pi) or skills-ref (also fail what the reference validator rejects); default: lint.profile"},
			&cli.StringSliceFlag{Name: "ambient", Usage: "skill folder agents inherit at run time, to resolve selected names no skillPath provides (repeatable; default: lint.ambient)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "do not read or write the cache of body token counts (default: lint.cache)"},
			&cli.StringSliceFlag{Name: "select", Usage: "run only these rules (comma-separated or repeated rule references; ALL for every rule)"},
			&cli.StringSliceFlag{Name: "extend-select", Usage: "run these rules too"},
			&cli.StringSliceFlag{Name: "ignore", Usage: "do not run these rules"},
			&cli.BoolFlag{Name: "exit-zero", Usage: "exit 0 even when a finding is an error (2 still reports bad usage or input)"},
			&cli.BoolFlag{Name: "fix", Usage: "apply the safe fixes and rewrite the files"},
			&cli.BoolFlag{Name: "unsafe-fixes", Usage: "with --fix or --diff, apply the unsafe fixes too"},
			&cli.BoolFlag{Name: "diff", Usage: "print the fixes as a unified diff instead of applying them"},
			&cli.BoolFlag{Name: "statistics", Usage: "print the number of findings per rule instead of the findings (text or json)"},
		},
		Action: func(c *cli.Context) error { return e.runLint(c) },
	}
}

// runLint lints the skill trees and applies fixes (see lintCommand).
func (e *env) runLint(c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	if c.Bool("fix") && c.Bool("diff") {
		return usageErr("--fix and --diff exclude each other (--diff shows what --fix would do)")
	}
	if c.Bool("statistics") {
		if c.Bool("diff") {
			return usageErr("--statistics and --diff exclude each other")
		}
		if !slices.Contains(report.StatisticsFormats, e.format) {
			return usageErr("--statistics is written as %s, not --format %s", strings.Join(report.StatisticsFormats, " or "), e.format)
		}
		e.statistics = true
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
	fo := lint.FixOptions{Unsafe: c.Bool("unsafe-fixes")}
	if c.Bool("diff") {
		return e.lintDiff(rep, fo)
	}
	fixed := 0
	if c.Bool("fix") {
		a := rep.Apply(fo, e.warnInput, func(p string) {
			if !e.quiet {
				fmt.Fprintf(e.stderr, "removed %s\n", p)
			}
		})
		fixed = a.Fixed
		if a.Changed {
			// What is left, as the files are now.
			if rep, err = lint.Run(opts); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
		}
	}
	if err := e.writeLint(rep, fixed, c.Bool("fix")); err != nil {
		return err
	}
	for _, d := range rep.Diagnostics {
		if d.Severity == rules.Error && !c.Bool("exit-zero") {
			return e.finish(findings)
		}
	}
	return e.finish(nil)
}

// lintDiff prints the fixes of a lint run as a unified diff and says on
// standard error how many findings they fix. Exit 1 when there is
// something to fix, as ruff's --diff.
func (e *env) lintDiff(rep *lint.Report, fo lint.FixOptions) error {
	s, err := rep.Diff(e.stdout, fo, e.warnInput)
	if err != nil {
		return err
	}
	if !e.quiet {
		report.WouldFix(e.stderr, s.Fixed, s.Files, s.Removals, s.Unsafe, fo.Unsafe)
	}
	if s.Fixed > 0 {
		return e.finish(findings)
	}
	return e.finish(nil)
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
			return lint.Options{}, usageErr("--profile %q is not one of default, skills-ref", p)
		}
	}
	levels, err := lint.Levels(reg, ls, e.cfg.Rules.Severity, e.cfg.Rules.Disable)
	if err != nil {
		return lint.Options{}, e.configErr(err)
	}
	sel := lint.Selection{Select: c.StringSlice("select"), ExtendSelect: c.StringSlice("extend-select"), Ignore: c.StringSlice("ignore")}
	if err := sel.Apply(reg, levels); err != nil {
		return lint.Options{}, usageErr("%w", err)
	}
	opts := lint.Options{Paths: c.Args().Slice(), Config: e.cfg.Options, Levels: levels, ConfigFile: e.cfg.Path, Locate: e.cfg.Position, Workers: c.Int("jobs")}
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
// read from the linted files, what has a fix, and what --fix fixed.
func (e *env) writeLint(lrep *lint.Report, fixed int, fixRun bool) error {
	rep := e.newReport("lint")
	var fixable int
	rep.Diagnostics, fixable = report.WithFixes(lrep.Diagnostics, lrep.Fixable)
	rep.SetColumns16(&report.Files{})
	if e.format == jsonl {
		for _, d := range report.Sorted(rep.Diagnostics) {
			if err := e.writeLine(d); err != nil {
				return err
			}
		}
		return nil
	}
	rep.Summary.Skills = report.Count(lrep.Skills)
	rep.Summary.Agents = report.Count(lrep.Agents)
	rep.Summary.Suppressed = report.Count(lrep.Suppressed)
	rep.Summary.Fixable = report.Count(fixable)
	if fixRun {
		rep.Summary.Fixed = report.Count(fixed)
	}
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
