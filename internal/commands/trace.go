package commands

import (
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/trace"
	"github.com/skillopt/skillopt/trace/render"
)

func traceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "trace",
		Usage: "skill health from auggie execution traces and Pi sessions: report, view, alerts, prune",
		Description: "Reads auggie router execution traces (.pi/traces/SKILL_TIMESTAMP.json) and the skill runs\n" +
			"inside Pi session files (*.jsonl), classifies every run offline with the router's heuristics\n" +
			"plus skillopt's own signals, and reports skill health, one run's timeline, degradation\n" +
			"alerts, and count-based retention. See docs/trace.md for the JSON contracts, the mapping of\n" +
			"Pi sessions to runs and the signals.\n\n" +
			"Malformed files are reported as FILE:LINE:COL and skipped; the output still prints and the\n" +
			"exit code is 2.\n\n" +
			"Examples:\n" +
			"  skillopt trace report .pi/traces\n" +
			"  skillopt trace view .pi/traces/refactor_1767225600000.json\n" +
			"  skillopt trace alerts --state .skillopt/trace-alerts.json .pi/traces ~/.pi/agent/sessions\n" +
			"  skillopt trace prune --keep 20 .pi/traces",
		Subcommands: []*cli.Command{traceReportCommand(e), traceViewCommand(e), traceAlertsCommand(e), tracePruneCommand(e)},
	}
}

// classifyFlags tune the classifier: skillopt's own signals and the
// provider allow-list.
func classifyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "disable-signal", Usage: "skillopt signal not to raise: " + strings.Join(trace.Optional, ", ") + " (repeatable or comma-separated)"},
		&cli.StringSliceFlag{Name: "allow-provider", Usage: "provider prefix a run's model may use, for model-not-allowed (repeatable; default: lint.allowed_provider_prefixes of skillopt.toml; empty allows all)"},
	}
}

func windowFlag() cli.Flag {
	return &cli.IntFlag{Name: "window", Value: trace.DefaultWindow, Usage: "earlier runs of a skill that regression detection and alerts look back on"}
}

// textOptions are the colour and quiet settings of the trace renderers.
func (e *env) textOptions() render.Options { return render.Options{Color: e.color, Quiet: e.quiet} }

// traceOptions reads the classifier flags.
func (e *env) traceOptions(c *cli.Context) (trace.Options, error) {
	var names []string
	for _, v := range c.StringSlice("disable-signal") {
		names = append(names, strings.Split(v, ",")...)
	}
	disabled, err := trace.CheckDisabled(names)
	if err != nil {
		return trace.Options{}, usageErr("--disable-signal: %w", err)
	}
	o := trace.Options{Disabled: disabled, AllowedProviders: lint.FromSet(e.cfg.Options).AllowedProviderPrefixes}
	if c.IsSet("allow-provider") {
		o.AllowedProviders = nil
		for _, v := range c.StringSlice("allow-provider") {
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					o.AllowedProviders = append(o.AllowedProviders, p)
				}
			}
		}
	}
	if c.IsSet("window") {
		if c.Int("window") < 1 {
			return o, usageErr("--window must be at least 1")
		}
		o.Window = c.Int("window")
	}
	return o, nil
}

// loadRuns reads every PATH argument into classified histories, printing
// the files it cannot read (exit 2 at the end).
func (e *env) loadRuns(c *cli.Context, o trace.Options) ([]trace.History, error) {
	args := c.Args().Slice()
	if len(args) == 0 {
		return nil, argErr(c, "no PATH given (trace files, Pi session files, directories of them, or - for stdin)")
	}
	paths, errs := trace.Expand(args)
	for _, err := range errs {
		e.warnInput(err)
	}
	sums, errs := trace.Load(paths, e.stdin, o)
	for _, err := range errs {
		e.warnInput(err)
	}
	return trace.Histories(sums, o.Window), nil
}

func traceReportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "skill health over the newest runs: outcomes, failure signals, trend, recent runs",
		ArgsUsage: "PATH...",
		Description: "For each skill (or only --skill NAME), over its newest --max-traces runs: the outcome\n" +
			"distribution (success, likely-failure, unknown) with bars, the runs whose history is a\n" +
			"likely regression, the most common failure signals, the success rate of the older against\n" +
			"the newer half and of the last 5 runs, and the newest --inline runs (file, outcome,\n" +
			"confidence, history, tool calls, duration from the first to the last call, stop reason);\n" +
			"the other runs are counted. A run's outcome is its own, as trace view shows it; its\n" +
			"history (likely-regression or -) judges it against the runs of its skill before it.\n\n" +
			"PATH is a trace file, a Pi session file, a directory (read recursively for *.json and\n" +
			"*.jsonl), or - for standard input.\n\n" +
			"Formats: text, json, markdown, html (one self-contained page).\n\n" +
			"Examples:\n" +
			"  skillopt trace report .pi/traces\n" +
			"  skillopt trace report --skill refactor --max-traces 20 --inline 10 .pi/traces\n" +
			"  skillopt trace report --format html ~/.pi/agent/sessions > skills.html",
		Flags: append([]cli.Flag{
			formats("", "text", "json", "markdown", "html"),
			&cli.StringFlag{Name: "skill", Usage: "report only this skill"},
			&cli.IntFlag{Name: "max-traces", Value: 10, Usage: "newest runs per skill the report covers"},
			&cli.IntFlag{Name: "inline", Value: 5, Usage: "newest runs listed one by one; the rest are counted"},
			windowFlag(),
		}, classifyFlags()...),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			o, err := e.traceOptions(c)
			if err != nil {
				return err
			}
			ro := trace.ReportOptions{Skill: c.String("skill"), MaxTraces: c.Int("max-traces"), Inline: c.Int("inline")}
			if ro.MaxTraces < 1 {
				return usageErr("--max-traces must be at least 1")
			}
			if ro.Inline < 0 {
				return usageErr("--inline must not be negative")
			}
			hs, err := e.loadRuns(c, o)
			if err != nil {
				return err
			}
			rep := trace.Report(hs, ro)
			switch e.format {
			case "json":
				err = writeJSON(e, render.ReportJSON(rep))
			case "markdown":
				err = render.ReportMarkdown(e.stdout, rep, ro)
			case "html":
				err = render.ReportHTML(e.stdout, rep, ro)
			default:
				err = render.ReportText(e.stdout, rep, ro, e.textOptions())
			}
			if err != nil {
				return err
			}
			return e.finish(nil)
		},
	}
}

func traceViewCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "view",
		Usage:     "one run's timeline: model, route, verdict, tool calls, final text",
		ArgsUsage: "FILE|SESSION#RUN",
		Description: "Shows one run: its model and route, its verdict with the signals behind it (judged on\n" +
			"its own, as trace report shows it), its duration and number of tool calls, one line per\n" +
			"tool call (seconds since the first call, server/tool, an argument summary, the result size,\n" +
			"blocked or error), and the final text. Credentials recognised in arguments and in the\n" +
			"final text are shown as [REDACTED].\n\n" +
			"FILE is a trace file; SESSION#RUN names the RUN-th skill run (1-based) of a Pi session, and\n" +
			"a session holding a single run may be named without #RUN.\n\n" +
			"Formats: text, json (with \"verdict\":{\"outcome\",\"signals\",\"confidence\"}).\n\n" +
			"Examples:\n" +
			"  skillopt trace view .pi/traces/refactor_1767225600000.json\n" +
			"  skillopt trace view --format json ~/.pi/agent/sessions/--home-dev-app--/2026-01-01T10-00-00-000Z_abc.jsonl#2",
		Flags: append(classifyFlags(), formats("", "text", "json")),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			o, err := e.traceOptions(c)
			if err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want exactly one FILE or SESSION#RUN, got %d arguments", c.NArg())
			}
			r, err := trace.Open(c.Args().First(), e.stdin)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			v := trace.ViewOf(r, o)
			return e.show(render.ViewJSON(v), func(w io.Writer) error { return render.ViewText(w, v, e.textOptions()) })
		},
	}
}

func traceAlertsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "alerts",
		Usage:     "degradation alerts: skills whose newest runs all fail after an earlier success; exit 1 on any",
		ArgsUsage: "PATH...",
		Description: "Raises an alert for each skill whose newest --consecutive runs are all not successes while\n" +
			"a success lies within the --window runs before the newest: the skill, how many runs in a\n" +
			"row failed, their signals aggregated (timeout (3x), high tool-call count (2x)), and the last\n" +
			"successful run. Exit 1 when an alert fires, 0 when none does (for cron and CI).\n\n" +
			"With --state FILE, an alert for a skill that already fired within --cooldown is held back\n" +
			"(listed, but it does not fire), and the time of every alert that fires is written to FILE\n" +
			"(atomically). A missing FILE is an empty state; a malformed one is an error and is left as\n" +
			"it is.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt trace alerts .pi/traces\n" +
			"  skillopt trace alerts --consecutive 5 --cooldown 12h --state .skillopt/trace-alerts.json .pi/traces",
		Flags: append([]cli.Flag{
			formats("", "text", "json"),
			&cli.IntFlag{Name: "consecutive", Value: trace.RegressionRun, Usage: "newest runs that must all be non-successes"},
			windowFlag(),
			&cli.DurationFlag{Name: "cooldown", Value: 24 * time.Hour, Usage: "hold back a skill's alert this long after the last one (needs --state)"},
			&cli.StringFlag{Name: "state", Usage: "alert state `FILE` that carries the cooldown between runs"},
			&cli.StringFlag{Name: "now", Usage: "judge the cooldown as of this RFC 3339 `TIME` (default: the current time)"},
		}, classifyFlags()...),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			o, err := e.traceOptions(c)
			if err != nil {
				return err
			}
			ao := trace.AlertOptions{Consecutive: c.Int("consecutive"), Window: c.Int("window")}
			if ao.Consecutive < 1 {
				return usageErr("--consecutive must be at least 1")
			}
			cooldown := c.Duration("cooldown")
			if cooldown < 0 {
				return usageErr("--cooldown must not be negative")
			}
			now := time.Now()
			if c.IsSet("now") {
				now, err = time.Parse(time.RFC3339Nano, c.String("now"))
				if err != nil {
					return usageErr("--now: %q is not an RFC 3339 time", c.String("now"))
				}
			}
			statePath := c.String("state")
			if statePath == "-" {
				return usageErr("--state needs a file, not standard input")
			}
			st := trace.State{}
			if statePath != "" {
				st, err = trace.LoadState(statePath)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
			}
			hs, err := e.loadRuns(c, o)
			if err != nil {
				return err
			}
			fire, held, next := trace.Cooldown(trace.Alerts(hs, ao), st, cooldown, now)
			err = e.show(render.AlertsJSON(fire, held), func(w io.Writer) error { return render.AlertsText(w, fire, held, e.textOptions()) })
			if err != nil {
				return err
			}
			if statePath != "" && len(fire) > 0 {
				if err := trace.SaveState(statePath, next); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
			}
			if len(fire) > 0 {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

func tracePruneCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "prune",
		Usage:     "count-based retention: keep each skill's newest traces; a dry run unless --apply",
		ArgsUsage: "DIR...",
		Description: "Plans retention for the trace files directly in each DIR (not below it): every *.json\n" +
			"is read, and of each skill's traces (by skillName) the newest --keep stay, newest by the\n" +
			"trace's timestamp. Without --apply nothing is deleted: the files that would be are listed.\n" +
			"With --apply they are deleted, each only if it is unchanged since it was read. A file that\n" +
			"does not parse as a trace is never touched: it is reported (FILE:LINE:COL) and the exit\n" +
			"code is 2. Pi sessions, symbolic links and subfolders are left alone.\n\n" +
			"Formats: text, json ({\"apply\",\"keep\",\"kept\",\"delete\":[{\"file\",\"skill\",\"timestamp\"}]}).\n\n" +
			"Examples:\n" +
			"  skillopt trace prune .pi/traces\n" +
			"  skillopt trace prune --keep 50 --apply .pi/traces",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.IntFlag{Name: "keep", Value: 20, Usage: "traces to keep per skill"},
			&cli.BoolFlag{Name: "apply", Usage: "delete the files (default: only list them)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			keep := c.Int("keep")
			if keep < 1 {
				return usageErr("--keep must be at least 1")
			}
			if c.NArg() == 0 {
				return argErr(c, "no DIR given")
			}
			pruned, errs := trace.Prune(c.Args().Slice(), keep, c.Bool("apply"))
			for _, err := range errs {
				e.warnInput(err)
			}
			out := render.PruneOf(pruned, keep, c.Bool("apply"))
			if e.format == "json" {
				if err := writeJSON(e, out); err != nil {
					return err
				}
				return e.finish(nil)
			}
			if err := render.PruneText(e.stdout, out, e.textOptions()); err != nil {
				return err
			}
			return e.finish(nil)
		},
	}
}
