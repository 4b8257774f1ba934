package commands

import (
	"bytes"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
)

// maxReportBytes bounds a saved report read back for rendering.
const maxReportBytes = 256 << 20

func renderCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a saved JSON report of validate, check or lint in another format",
		ArgsUsage: "[REPORT.json|-]",
		Description: "Reads a report written with --format json by validate, check or lint (a file, or\n" +
			"standard input by default) and writes it in the format asked for, exactly as the\n" +
			"command would have: run once, render many times (a SARIF file for code scanning and\n" +
			"annotations for the workflow log from the same run). The exit code says whether the\n" +
			"report holds an error finding (1), as the command's did.\n\n" +
			"Formats: text, json, markdown, sarif (2.1.0), github.\n\n" +
			"Examples:\n" +
			"  skillopt lint --format json > lint.json; skillopt render --format sarif lint.json\n" +
			"  skillopt validate --format json captures/ | skillopt render --format github",
		Flags: []cli.Flag{formats("", report.Formats...)},
		Action: func(c *cli.Context) error {
			if err := e.options(c); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return argErr(c, "want one report, got %d", c.NArg())
			}
			name := c.Args().First()
			var (
				data []byte
				err  error
			)
			if name == "" || name == "-" {
				name = "<stdin>"
				data, err = untrusted.ReadAll(e.stdin, maxReportBytes)
			} else {
				data, err = untrusted.ReadFile(name, maxReportBytes)
			}
			if err != nil {
				return usageErr("%s: %w", name, err)
			}
			rep, err := report.Read(bytes.NewReader(data))
			if err != nil {
				return usageErr("%s: %w", name, err)
			}
			var rs []*rules.Rule
			for _, d := range rep.Diagnostics {
				if r := ruleset.Registry().Lookup(d.Rule); r != nil {
					rs = append(rs, r)
				}
			}
			opts := report.Options{Color: e.color, Quiet: e.quiet, Rules: rs, OptionsOf: ruleset.Registry().OptionsOf}
			if e.format == "sarif" {
				if wd, err := os.Getwd(); err == nil {
					opts.Root = wd
				}
			}
			if err := report.Write(e.stdout, rep, e.format, opts); err != nil {
				return err
			}
			if rep.Summary.Errors > 0 {
				return findings
			}
			return nil
		},
	}
}
