package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/sarif"
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
			"usage, configuration or an unreadable path.\n\n" +
			"Formats: text, json, sarif (2.1.0), github (workflow annotations).\n\n" +
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
			if err := e.setup(c, "text", "json", "sarif", "github"); err != nil {
				return err
			}
			if err := e.cfg.CheckLintRules(ruleset.Known); err != nil {
				return e.configErr(err)
			}
			if c.IsSet("profile") {
				switch p := c.String("profile"); p {
				case "default", "skills-ref":
					e.cfg.Lint.Profile = p
				default:
					return usageErr("lint: --profile %q is not one of default, skills-ref", p)
				}
			}
			opts := catalog.LintOptions{Paths: c.Args().Slice(), Config: e.cfg}
			if c.IsSet("ambient") {
				opts.Ambient = c.StringSlice("ambient")
			}
			if e.cfg.Lint.Cache && !c.Bool("no-cache") {
				if dir, err := os.UserCacheDir(); err == nil {
					opts.CacheDir = filepath.Join(dir, "skillopt")
				}
			}
			rep, err := catalog.Lint(opts)
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

// lintDiag is one diagnostic in the JSON output, fields in the documented
// order.
type lintDiag struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

func (e *env) writeLint(rep *catalog.LintReport) error {
	switch e.format {
	case "json":
		out := struct {
			Diagnostics []lintDiag `json:"diagnostics"`
			Skills      int        `json:"skills"`
			Agents      int        `json:"agents"`
			Suppressed  int        `json:"suppressed"`
		}{Diagnostics: []lintDiag{}, Skills: rep.Skills, Agents: rep.Agents, Suppressed: rep.Suppressed}
		for _, d := range rep.Diagnostics {
			out.Diagnostics = append(out.Diagnostics, lintDiag{d.Rule, d.Severity.String(), d.File, d.Line, d.Column, d.Message})
		}
		return writeJSON(e, out)
	case "sarif":
		root, err := os.Getwd()
		if err != nil {
			root = ""
		}
		log := sarif.Build("skillopt", version, "", sarif.FromRules(catalog.LintRules()), sarif.FromDiagnostics(rep.Diagnostics), root)
		return sarif.Write(e.stdout, log)
	case "github":
		for _, d := range rep.Diagnostics {
			fmt.Fprintln(e.stdout, githubAnnotation(d))
		}
		if !e.quiet {
			fmt.Fprintln(e.stdout, lintSummary(rep))
		}
		return nil
	}
	for _, d := range rep.Diagnostics {
		if e.quiet && d.Severity < rules.Warning {
			continue
		}
		sev := d.Severity.String()
		switch d.Severity {
		case rules.Error:
			sev = e.paint(red, sev)
		case rules.Warning:
			sev = e.paint(yellow, sev)
		}
		fmt.Fprintf(e.stdout, "%s:%d:%d: %s %s: %s\n", d.File, d.Line, d.Column, d.Rule, sev, d.Message)
	}
	if !e.quiet {
		fmt.Fprintln(e.stdout, lintSummary(rep))
	}
	return nil
}

// lintSummary is the last line of the text output.
func lintSummary(rep *catalog.LintReport) string {
	var n [3]int
	for _, d := range rep.Diagnostics {
		n[d.Severity]++
	}
	s := fmt.Sprintf("%s, %s: %s, %s, %d info", plural(rep.Skills, "skill"), plural(rep.Agents, "agent definition"),
		plural(n[rules.Error], "error"), plural(n[rules.Warning], "warning"), n[rules.Info])
	if rep.Suppressed > 0 {
		s += fmt.Sprintf(" (%d suppressed)", rep.Suppressed)
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// githubAnnotation renders a workflow command: ::error file=…,line=…,col=…,title=…::message,
// with data and property values escaped as the runner expects.
func githubAnnotation(d rules.Diagnostic) string {
	cmd := "notice"
	switch d.Severity {
	case rules.Error:
		cmd = "error"
	case rules.Warning:
		cmd = "warning"
	}
	return fmt.Sprintf("::%s file=%s,line=%d,col=%d,title=%s::%s", cmd,
		escapeProperty(d.File), d.Line, d.Column, escapeProperty(d.Rule), escapeData(d.Message))
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
