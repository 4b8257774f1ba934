package commands

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/validate"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/validity"
)

func validateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "say what the provider would say: schema and request-validity checks",
		ArgsUsage: "CAPTURE...",
		Description: "Detects each capture's provider (or takes --provider) and validates the body against\n" +
			"skillopt's embedded schema for that provider, then runs the request-validity rules\n" +
			"(SO5xx: tool names, tool-call pairing, turn order, cache breakpoints, deferred tools;\n" +
			"see `skillopt rules SO5`). Keys the provider's API does not define are errors for a\n" +
			"capture sent to the provider's own endpoint or without a URL, and info (extensions)\n" +
			"for other endpoints such as vLLM, OpenRouter or LiteLLM; --strict and --lenient\n" +
			"override. Every finding is located by\n" +
			"FILE:LINE:COL and a JSON Pointer into the body (a body inside a JSON string, as in\n" +
			"HAR files, is located at that string). Every input is reported; exit 1 if any\n" +
			"capture is invalid, 2 if any input could not be read (2 wins), whatever the format.\n\n" +
			"Formats: text, json, markdown, sarif (2.1.0), github (workflow annotations), jsonl\n" +
			"(one object per capture, written as each is done); see docs/report.md. Many captures\n" +
			"are validated in parallel (--jobs); the output is the same for any number.\n\n" +
			"Examples:\n" +
			"  skillopt validate capture.json\n" +
			"  skillopt validate --format sarif captures/ > validate.sarif\n" +
			"  skillopt validate --lenient --format json --provider mistral body.json",
		Flags: []cli.Flag{providerFlag(), formats("", captureReportFormats...), jobsFlag(),
			&cli.BoolFlag{Name: "strict", Usage: "treat unknown keys as errors whatever the endpoint"},
			&cli.BoolFlag{Name: "lenient", Usage: "treat unknown keys as extensions (info) whatever the endpoint"},
		},
		Action: func(c *cli.Context) error { return e.runValidate(c) },
	}
}

// runValidate validates each capture (see validateCommand).
func (e *env) runValidate(c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	if c.Bool("strict") && c.Bool("lenient") {
		return usageErr("--strict and --lenient exclude each other")
	}
	levels, err := ruleset.Registry().Levels(e.cfg.Rules.Severity, e.cfg.Rules.Disable)
	if err != nil {
		return usageErr("%w", err)
	}
	renv := &rules.Env{Options: e.cfg.Options, Levels: levels}
	rep := e.newReport("validate")
	invalid := 0
	type validated struct {
		report.Line
		json []byte // the JSON line, with --format jsonl
	}
	err = eachFile(e, c, func(f *capture.File, log *inputLog) ([]validated, error) {
		lines, errs := validate.File(f, renv, c.Bool("strict"), c.Bool("lenient"))
		for _, err := range errs {
			log.warn(err)
		}
		out := make([]validated, len(lines))
		for i, l := range lines {
			out[i].Line = l
			if e.format == jsonl {
				var err error
				if out[i].json, err = encodeLine(l); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}, func(_ *capture.File, lines []validated) error {
		for _, l := range lines {
			if !*l.Valid {
				invalid++
			}
			if e.format == jsonl {
				if _, err := e.stdout.Write(l.json); err != nil {
					return err
				}
				continue
			}
			rep.Inputs = append(rep.Inputs, l.Input)
			rep.Diagnostics = append(rep.Diagnostics, l.Diagnostics...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e.format == jsonl {
		if invalid > 0 {
			return e.finish(findings)
		}
		return e.finish(nil)
	}
	rep.Summary.Captures = report.Count(len(rep.Inputs))
	rep.Summary.Invalid = report.Count(invalid)
	if err := e.writeReport(rep, validity.Rules()); err != nil {
		return err
	}
	if invalid > 0 {
		return e.finish(findings)
	}
	return e.finish(nil)
}

// captureInput describes a capture read for a report.
func captureInput(c *capture.Capture) report.Input { return report.InputOf(c) }

// newReport starts the report of a command, naming the configuration file
// in use.
func (e *env) newReport(command string) *report.Report {
	rep := report.New(command, version)
	if e.cfg != nil && e.cfg.Path != "" {
		path := e.cfg.Path
		rep.Config = &path
	}
	return rep
}

// writeReport finishes a report (sorted, counted; incomplete when an input
// error was printed) and renders it in the chosen format. SARIF names
// files relative to the working directory and describes the rules given.
func (e *env) writeReport(rep *report.Report, rs []*rules.Rule) error {
	rep.Incomplete = e.errored
	rep.Finish()
	opts := report.Options{Color: e.color, Quiet: e.quiet, Rules: rs, OptionsOf: ruleset.Registry().OptionsOf, Statistics: e.statistics}
	if e.format == "sarif" {
		if wd, err := os.Getwd(); err == nil {
			opts.Root = wd
		}
	}
	return report.Write(e.stdout, rep, e.format, opts)
}

const (
	red    = "31"
	green  = "32"
	yellow = "33"
	bold   = "1"
)

// paint wraps s in an ANSI colour when colour is on.
func (e *env) paint(code, s string) string {
	if !e.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
