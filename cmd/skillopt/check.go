package main

import (
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "transform captures and verify every invariant on the result",
		ArgsUsage: "CAPTURE...",
		Description: "Runs the pipeline over each capture, then every invariant rule (SO4xx) on the\n" +
			"result: envelope and provider shape preserved, no growth, idempotence, and across\n" +
			"captures a stable prefix for captures sharing a skill catalog. Exit 1 on any\n" +
			"violation (a diagnostic of severity error); exit 2 if an input could not be read or a\n" +
			"rule failed on it (the other inputs are still checked and reported), whatever the\n" +
			"format. A finding at a JSON Pointer that the capture as read also has is located by\n" +
			"FILE:LINE:COL too.\n\n" +
			"Formats: text, json, markdown, sarif (2.1.0), github (workflow annotations), jsonl\n" +
			"(one object per capture, written as each is done, and one of the cross-capture\n" +
			"findings last); see docs/report.md. Many captures are checked in parallel (--jobs);\n" +
			"the output is the same for any number.\n\n" +
			"Examples:\n" +
			"  skillopt check captures/\n" +
			"  skillopt check --rules SO1 --format json capture.json",
		Flags: append([]cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag(), usageFlag(), jobsFlag()}, formats("", captureReportFormats...)),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			pipeline, err := e.pipeline(c)
			if err != nil {
				return err
			}
			invariants, err := ruleset.Invariants(e.cfg.Rules.Disable, e.cfg.Rules.Severity)
			if err != nil {
				return usageErr("%v", err)
			}
			levels, err := ruleset.Registry().Levels(e.cfg.Rules.Severity, e.cfg.Rules.Disable)
			if err != nil {
				return usageErr("%v", err)
			}
			renv := e.readOnlyEnv(pipeline)
			type checked struct {
				res   *rules.Result
				diags []rules.Diagnostic
			}
			diags := []rules.Diagnostic{}
			var batch []*rules.Result
			var inputs []report.Input
			var files []*capture.File
			failed := false
			err = eachFile(e, c, func(f *capture.File, log *inputLog) ([]checked, error) {
				var out []checked
				for _, capt := range f.Captures {
					res, err := rules.Run(capt, pipeline, renv)
					if err != nil {
						if log.ruleFailed(err) {
							continue
						}
						return nil, err
					}
					ds, err := rules.Verify(res, invariants, renv)
					if err != nil {
						if log.ruleFailed(err) {
							continue
						}
						return nil, err
					}
					out = append(out, checked{res, append(slices.Clip(res.Diagnostics), ds...)})
				}
				return out, nil
			}, func(f *capture.File, cs []checked) error {
				files = append(files, f)
				for _, ch := range cs {
					batch = append(batch, ch.res)
					ds := filterOff(ch.diags, levels)
					for _, d := range ds {
						failed = failed || d.Severity == rules.Error
					}
					if e.format == jsonl {
						line := report.NewLine(captureInput(ch.res.Original), report.Locate(ds, []*capture.File{f}))
						if err := e.writeLine(line); err != nil {
							return err
						}
						continue
					}
					diags = append(diags, ds...)
					inputs = append(inputs, captureInput(ch.res.Original))
				}
				return nil
			})
			if err != nil {
				return err
			}
			ds, err := rules.VerifyBatch(batch, invariants, renv)
			if err != nil {
				return ruleFailure(err)
			}
			ds = filterOff(ds, levels)
			for _, d := range ds {
				failed = failed || d.Severity == rules.Error
			}
			if e.format == jsonl {
				if len(ds) > 0 {
					if err := e.writeLine(report.CrossLine{Cross: report.Sorted(report.Locate(ds, files))}); err != nil {
						return err
					}
				}
				if failed {
					return e.finish(findings)
				}
				return e.finish(nil)
			}
			diags = append(diags, ds...)
			rep := e.newReport("check")
			rep.Inputs = append(rep.Inputs, inputs...)
			rep.Diagnostics = report.Locate(diags, files)
			rep.Summary.Captures = report.Count(len(inputs))
			rep.Summary.Invariants = report.Count(len(invariants))
			rep.Summary.Pipeline = report.Count(len(pipeline))
			rs := append(append([]*rules.Rule{}, pipeline...), invariants...)
			if err := e.writeReport(rep, rs); err != nil {
				return err
			}
			if failed {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// filterOff drops diagnostics of rules that the configuration turns off
// (through [rules.severity] or disable, by any reference form).
func filterOff(diags []rules.Diagnostic, l *rules.Levels) []rules.Diagnostic {
	out := diags[:0]
	for _, d := range diags {
		if l.Off[d.Rule] {
			continue
		}
		out = append(out, d)
	}
	return out
}
