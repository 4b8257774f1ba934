package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
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
	err = eachFile(e, c, func(f *capture.File, log *inputLog) ([]report.Line, error) {
		return validateFile(f, renv, c.Bool("strict"), c.Bool("lenient"), log), nil
	}, func(_ *capture.File, lines []report.Line) error {
		for _, l := range lines {
			if !*l.Valid {
				invalid++
			}
			if e.format == jsonl {
				if err := e.writeLine(l); err != nil {
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

// validateFile validates the captures of one file: one line each, the
// diagnostics placed in the file; a capture that could not be validated is
// an input error.
func validateFile(f *capture.File, renv *rules.Env, forceStrict, lenient bool, log *inputLog) []report.Line {
	var lines []report.Line
	src := report.NewSource(f.Data)
	for _, capt := range f.Captures {
		errs, err := schemas.ValidateDoc(string(capt.Provider), capt.Doc)
		if err != nil {
			log.warn(fmt.Errorf("%s: %w", capt.Name, err))
			continue
		}
		strict, endpoint := validity.Strict(capt)
		switch {
		case forceStrict:
			strict, endpoint = true, "--strict: unknown keys are errors"
		case lenient:
			strict, endpoint = false, "--lenient: unknown keys are reported as extensions"
		}
		valid := true
		var diags []report.Diagnostic
		for _, se := range errs {
			sev, note := validity.SchemaError(capt, se, strict)
			d := report.Diagnostic{Rule: report.SchemaRule.ID, Severity: sev, Message: se.Message + note,
				File: f.Name, Capture: capt.Name, Pointer: se.Pointer}
			off, exact := capt.FileOffset(se.Offset)
			src.Place(&d, off, exact)
			diags = append(diags, d)
		}
		vds, err := validity.Check(capt, renv)
		if err != nil {
			log.warn(err)
			continue
		}
		for _, vd := range vds {
			d := report.FromRule(vd)
			d.File = f.Name
			if i, err := capt.Doc.Lookup(vd.Pointer); err == nil {
				off, exact := capt.FileOffset(int(capt.Doc.Nodes[i].Start))
				src.Place(&d, off, exact)
			}
			diags = append(diags, d)
		}
		diags = rootCausesFirst(capt.Doc, diags)
		for _, d := range diags {
			valid = valid && d.Severity != rules.Error
		}
		in := captureInput(capt)
		in.Valid, in.Endpoint = &valid, endpoint
		lines = append(lines, report.NewLine(in, diags))
	}
	return lines
}

// rootCausesFirst marks the errors of one capture that follow from another
// (validity.Causes), with a note naming the cause, and drops those that
// repeat their cause; the report lists each consequence after its cause.
func rootCausesFirst(doc *capture.Doc, ds []report.Diagnostic) []report.Diagnostic {
	var fs []validity.Finding
	var at []int
	for i, d := range ds {
		if d.Severity == rules.Error {
			n, err := doc.Lookup(d.Pointer)
			k := doc.Kind(n)
			scalar := err == nil && k != capture.Object && k != capture.Array
			fs = append(fs, validity.Finding{Rule: d.Rule, Pointer: d.Pointer, Scalar: scalar})
			at = append(at, i)
		}
	}
	cause, dup := validity.Causes(fs)
	drop := make([]bool, len(ds))
	for k, c := range cause {
		if c < 0 {
			continue
		}
		d, from := &ds[at[k]], ds[at[c]]
		if dup[k] {
			drop[at[k]] = true
			continue
		}
		d.CauseRule, d.CausePointer = from.Rule, from.Pointer
		d.Message += " (follows from " + from.Rule + " at " + pointerText(from.Pointer) + ")"
	}
	out := ds[:0]
	for i, d := range ds {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// pointerText names a pointer in a note; the whole body has the empty one.
func pointerText(p string) string {
	if p == "" {
		return "the body"
	}
	return p
}

// captureInput describes a capture read for a report.
func captureInput(c *capture.Capture) report.Input {
	return report.Input{Name: c.Name, File: c.File.Name, Envelope: c.Envelope, Provider: string(c.Provider), Reason: c.Reason}
}

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
