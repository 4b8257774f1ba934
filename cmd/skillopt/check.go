package main

import (
	"github.com/urfave/cli/v2"

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
			"Formats: text, json, markdown, sarif (2.1.0), github (workflow annotations); see\n" +
			"docs/report.md.\n\n" +
			"Examples:\n" +
			"  skillopt check captures/\n" +
			"  skillopt check --rules SO1 --format json capture.json",
		Flags: append([]cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag()}, formats("", report.Formats...)),
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
			files, err := e.readCaptures(c)
			if err != nil {
				return err
			}
			renv := e.readOnlyEnv(pipeline)
			diags := []rules.Diagnostic{}
			var batch []*rules.Result
			var inputs []report.Input
			checked := 0
			for _, f := range files {
				for _, capt := range f.Captures {
					res, err := rules.Run(capt, pipeline, renv)
					if err != nil {
						if e.ruleFailed(err) {
							continue
						}
						return err
					}
					batch = append(batch, res)
					diags = append(diags, res.Diagnostics...)
					ds, err := rules.Verify(res, invariants, renv)
					if err != nil {
						if e.ruleFailed(err) {
							continue
						}
						return err
					}
					diags = append(diags, ds...)
					inputs = append(inputs, captureInput(capt))
					checked++
				}
			}
			ds, err := rules.VerifyBatch(batch, invariants, renv)
			if err != nil {
				return ruleFailure(err)
			}
			diags = append(diags, ds...)
			levels, err := ruleset.Registry().Levels(e.cfg.Rules.Severity, e.cfg.Rules.Disable)
			if err != nil {
				return usageErr("%v", err)
			}
			diags = filterOff(diags, levels)
			failed := false
			for _, d := range diags {
				failed = failed || d.Severity == rules.Error
			}
			rep := e.newReport("check")
			rep.Inputs = append(rep.Inputs, inputs...)
			rep.Diagnostics = report.Locate(diags, files)
			rep.Summary.Captures = report.Count(checked)
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
