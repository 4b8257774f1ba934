package commands

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
		Flags:  append([]cli.Flag{rulesFlag(), providerFlag(), archiveFlag(), tierFlag(), usageFlag(), jobsFlag()}, formats("", captureReportFormats...)),
		Action: func(c *cli.Context) error { return checkAction(e, c) },
	}
}

// checked is one capture transformed and verified.
type checked struct {
	res   *rules.Result
	diags []rules.Diagnostic
	// prep is what the cross-capture invariants do with the result on
	// its own, done on the worker; take adds the result in order.
	prep rules.Prepared
	// line is the capture's JSON line, with --format jsonl: encoded on
	// the worker, written in order by take.
	line []byte
}

// checkRun gathers what `skillopt check` found, capture by capture.
type checkRun struct {
	e          *env
	pipeline   []*rules.Rule
	invariants []*rules.Rule
	levels     *rules.Levels
	renv       *rules.Env
	// located are the findings of each file, placed in it as it comes;
	// where those of the cross-capture invariants, per rule, without those
	// of rules turned off.
	located []report.Diagnostic
	batch   *rules.BatchVerifier
	where   [][]report.Diagnostic
	inputs  []report.Input
	failed  bool
}

func checkAction(e *env, c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	pipeline, err := e.pipeline(c)
	if err != nil {
		return err
	}
	invariants, err := ruleset.Invariants(e.cfg.Rules.Disable, e.cfg.Rules.Severity)
	if err != nil {
		return usageErr("%w", err)
	}
	levels, err := ruleset.Registry().Levels(e.cfg.Rules.Severity, e.cfg.Rules.Disable)
	if err != nil {
		return usageErr("%w", err)
	}
	r := &checkRun{e: e, pipeline: pipeline, invariants: invariants, levels: levels, renv: e.readOnlyEnv(pipeline), located: []report.Diagnostic{}}
	r.batch = rules.NewBatchVerifier(invariants, r.renv)
	r.where = make([][]report.Diagnostic, r.batch.Rules())
	if err := eachFile(e, c, r.check, r.take); err != nil {
		return err
	}
	if err := r.cross(); err != nil {
		return err
	}
	if r.failed {
		return e.finish(findings)
	}
	return e.finish(nil)
}

// check transforms and verifies the captures of one file.
func (r *checkRun) check(f *capture.File, log *inputLog) ([]checked, error) {
	var out []checked
	for _, capt := range f.Captures {
		res, err := rules.Run(capt, r.pipeline, r.renv)
		if err != nil {
			if log.ruleFailed(err) {
				continue
			}
			return nil, err
		}
		ds, err := rules.Verify(res, r.invariants, r.renv)
		if err != nil {
			if log.ruleFailed(err) {
				continue
			}
			return nil, err
		}
		prep, err := r.batch.Prepare(res)
		if err != nil {
			if log.ruleFailed(err) {
				continue
			}
			return nil, err
		}
		ch := checked{res: res, diags: r.levels.Kept(append(slices.Clip(res.Diagnostics), ds...)), prep: prep}
		if r.e.format == jsonl {
			line := report.NewLine(captureInput(res.Original), report.Locate(ch.diags, []*capture.File{f}))
			if ch.line, err = encodeLine(line); err != nil {
				return nil, err
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

// take keeps the findings of one file, placed in it, in input order, or
// writes them as JSON lines; the cross-capture invariants see each result
// as it comes and keep only their own state, so the file and its results
// are not held after it.
func (r *checkRun) take(f *capture.File, cs []checked) error {
	files := []*capture.File{f}
	for _, ch := range cs {
		raised, err := r.batch.AddPrepared(ch.res, ch.prep)
		if err != nil {
			return ruleFailure(err)
		}
		for k, ds := range raised {
			placed := report.Locate(ds, files)
			for i, d := range ds {
				if len(r.keep([]rules.Diagnostic{d})) > 0 {
					r.where[k] = append(r.where[k], placed[i])
				}
			}
		}
		ds := r.keep(ch.diags)
		if r.e.format == jsonl {
			if _, err := r.e.stdout.Write(ch.line); err != nil {
				return err
			}
			continue
		}
		r.located = append(r.located, report.Locate(ds, files)...)
		r.inputs = append(r.inputs, captureInput(ch.res.Original))
	}
	return nil
}

// keep drops the diagnostics of rules turned off and notes an error.
func (r *checkRun) keep(ds []rules.Diagnostic) []rules.Diagnostic {
	ds = r.levels.Kept(ds)
	for _, d := range ds {
		r.failed = r.failed || d.Severity == rules.Error
	}
	return ds
}

// crossFindings returns the kept findings of the cross-capture
// invariants, rule by rule, each rule's in input order.
func (r *checkRun) crossFindings() []report.Diagnostic {
	var out []report.Diagnostic
	for _, ds := range r.where {
		out = append(out, ds...)
	}
	return out
}

// cross writes the report (or the last JSON line) with the findings of
// the invariants across captures.
func (r *checkRun) cross() error {
	ds := r.crossFindings()
	if r.e.format == jsonl {
		if len(ds) > 0 {
			return r.e.writeLine(report.CrossLine{Cross: report.Sorted(ds)})
		}
		return nil
	}
	rep := r.e.newReport("check")
	rep.Inputs = append(rep.Inputs, r.inputs...)
	rep.Diagnostics = append(r.located, ds...)
	rep.Summary.Captures = report.Count(len(r.inputs))
	rep.Summary.Invariants = report.Count(len(r.invariants))
	rep.Summary.Pipeline = report.Count(len(r.pipeline))
	rs := append(append([]*rules.Rule{}, r.pipeline...), r.invariants...)
	return r.e.writeReport(rep, rs)
}
