package main

import (
	"fmt"
	"sort"

	"github.com/urfave/cli/v2"

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
			"rule failed on it (the other inputs are still checked and reported).\n\n" +
			"Formats: text, json ({\"diagnostics\":[…]}).\n\n" +
			"Examples:\n" +
			"  skillopt check captures/\n" +
			"  skillopt check --rules SO1 --format json capture.json",
		Flags: []cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag()},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
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
			sort.SliceStable(diags, func(i, j int) bool { return diags[i].Capture < diags[j].Capture })
			failed := false
			for _, d := range diags {
				failed = failed || d.Severity == rules.Error
			}
			if e.format == "json" {
				if err := writeJSON(e, struct {
					Diagnostics []rules.Diagnostic `json:"diagnostics"`
					Captures    int                `json:"captures"`
				}{diags, checked}); err != nil {
					return err
				}
			} else {
				for _, d := range diags {
					if e.quiet && d.Severity < rules.Warning {
						continue
					}
					sev := d.Severity.String()
					if d.Severity == rules.Error {
						sev = e.paint(red, sev)
					} else if d.Severity == rules.Warning {
						sev = e.paint(yellow, sev)
					}
					fmt.Fprintf(e.stdout, "%s: %s %s: %s\n", locate(d), d.Rule, sev, d.Message)
				}
				if !e.quiet {
					fmt.Fprintf(e.stdout, "%d capture(s) checked with %d invariant(s) and %d pipeline rule(s): %d finding(s)\n", checked, len(invariants), len(pipeline), len(diags))
				}
			}
			if failed {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// locate renders where a diagnostic points: capture and JSON Pointer, or
// file:line:col.
func locate(d rules.Diagnostic) string {
	if d.File != "" {
		return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
	}
	if d.Pointer != "" {
		return d.Capture + ":" + d.Pointer
	}
	return d.Capture
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
