package commands

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/apply"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

func archiveFlag() cli.Flag {
	return &cli.StringFlag{Name: "archive", Usage: "directory receiving originals of reduced content (default: archive.dir of skillopt.toml, .skillopt/archive)"}
}

func noArchiveFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-archive", Usage: "archive nothing: keep every original in place (rules that need the archive leave their content unreduced)"}
}

func transformCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "transform",
		Usage:     "run the rule pipeline and write the transformed capture",
		ArgsUsage: "CAPTURE",
		Description: "Runs the configured transform rules (or --rules) over every capture in the file and\n" +
			"writes the file back in the same envelope and provider shape: to stdout, or atomically\n" +
			"to -o OUT. The input is never modified. Untouched bytes stay byte-identical; with\n" +
			"--rules none the output equals the input except that secrets are replaced by\n" +
			"REDACTED: in the envelope, every header, URL parameter, cookie and field value\n" +
			"that is not on the list of harmless metadata (content-type, user-agent,\n" +
			"anthropic-version, x-stainless-*, …; see the README), credentials in the text of the\n" +
			"rest, and credentials at the top level of the body. --keep-header NAME keeps one\n" +
			"more header or parameter.\n\n" +
			"-o OUT must be a new path or a writable regular file: a symbolic link, FIFO, device or\n" +
			"directory is refused (the link is not followed), as is any input file, also through a\n" +
			"link; a read-only file only with --force. An existing OUT keeps its permissions.\n\n" +
			"Originals of reduced content are archived (--archive DIR, default archive.dir,\n" +
			".skillopt/archive) only once the output is about to be written, to a file or to stdout\n" +
			"alike, and only those the output names by handle; stderr then says how many and where\n" +
			"(-q silences it). With --no-archive nothing is archived and the rules that need the\n" +
			"archive leave their content in place. A failed archive write keeps that original in the\n" +
			"output, with a warning.\n\n" +
			"The output is the request, not a report: its bytes are printed as they are.\n\n" +
			"A host's session file (Claude Code, Codex, Gemini CLI) holds the conversation, not the\n" +
			"requests: it is refused (exit 2) and nothing is written; diff and measure --conversation\n" +
			"show what the rules change, and skillopt record captures requests to transform.\n\n" +
			"Examples:\n" +
			"  skillopt transform capture.json -o capture.min.json\n" +
			"  skillopt transform --rules SO101 - < capture.json\n" +
			"  skillopt transform --no-archive --rules SO3 capture.json -o out.json",
		Flags: []cli.Flag{
			formats("", "text"),
			rulesFlag(),
			providerFlag(),
			archiveFlag(),
			noArchiveFlag(),
			tierFlag(), usageFlag(),
			keepHeaderFlag(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` atomically instead of stdout"},
			&cli.BoolFlag{Name: "force", Usage: "replace a read-only OUT"},
		},
		Action: func(c *cli.Context) error { return e.runTransform(c) },
	}
}

// keeperEnv builds the rule environment with originals going to keeper.
func (e *env) keeperEnv(pipeline []*rules.Rule, keeper archive.Keeper) *rules.Env {
	renv := e.ruleEnv(pipeline)
	ruleset.SetArchive(renv, keeper, false)
	return renv
}

// readOnlyEnv builds the rule environment of a command that only shows or
// verifies: reductions are computed with an in-memory archive (the same
// handles), over the configured archive read but never written, so
// handles from an earlier transform still resolve.
func (e *env) readOnlyEnv(pipeline []*rules.Rule) *rules.Env {
	return e.keeperEnv(pipeline, archive.NewMemory(archive.Open(e.cfg.Archive.Dir)))
}

// transformFile runs the pipeline over every capture of f and prints the
// diagnostics it produced (dropped transforms) to stderr.
func (e *env) transformFile(f *capture.File, pipeline []*rules.Rule, renv *rules.Env) ([]*rules.Result, error) {
	out, err := runFile(f, pipeline, renv)
	if err != nil {
		return nil, err
	}
	e.printDiagnostics(out)
	return out, nil
}

// runFile runs the pipeline over every capture of f.
func runFile(f *capture.File, pipeline []*rules.Rule, renv *rules.Env) ([]*rules.Result, error) {
	out, err := apply.Run(f, pipeline, renv)
	return out, ruleFailure(err)
}

// printDiagnostics prints what the pipeline reported (dropped transforms,
// originals kept) to stderr; -q keeps warnings and errors only.
func (e *env) printDiagnostics(results []*rules.Result) {
	report.EngineNotes(e.stderr, results, e.quiet, e.width(e.stderr))
}

// transformArgs checks the arguments of transform and returns the input
// and the output ("" or "-" for standard output).
func transformArgs(c *cli.Context) (in, out string, err error) {
	if c.NArg() != 1 {
		return "", "", argErr(c, "want exactly one CAPTURE file (or - for stdin), got %d arguments", c.NArg())
	}
	if c.IsSet("archive") && c.Bool("no-archive") {
		return "", "", usageErr("--archive and --no-archive exclude each other")
	}
	in, out = c.Args().First(), c.String("output")
	if err := apply.CheckPaths(in, out, c.IsSet("output"), c.Bool("force")); err != nil {
		return "", "", usageErr("%w", err)
	}
	return in, out, nil
}

// runTransform runs the pipeline over the one CAPTURE argument and writes
// the result (see transformCommand).
func (e *env) runTransform(c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	in, out, err := transformArgs(c)
	if err != nil {
		return err
	}
	toFile := out != "" && out != "-"
	pipeline, err := e.pipeline(c)
	if err != nil {
		return err
	}
	files, err := e.readCaptures(c)
	if err != nil {
		return err
	}
	if len(files) == 0 || e.errored {
		// Part of the input was unreadable: write nothing rather
		// than a capture with entries missing.
		return e.finish(nil)
	}
	f := files[0]
	if err := apply.Writable(f); err != nil {
		return usageErr("%w", err)
	}
	store := archive.Open(e.cfg.Archive.Dir)
	results, archived, err := e.transformKept(c, f, pipeline, store)
	if err != nil {
		return err
	}
	e.printDiagnostics(results)
	data := apply.Rebuild(f, results)
	if archived > 0 && !e.quiet {
		fmt.Fprintf(e.stderr, "skillopt: archived %d original(s) in %s\n", archived, escape.Text(store.Dir()))
	}
	if !toFile {
		if _, err := e.stdout.Write(data); err != nil {
			return err
		}
		return e.finish(nil)
	}
	side, err := apply.SidecarOut(f, in, out, c.Bool("force"))
	if err != nil {
		return usageErr("%w", err)
	}
	if err := apply.Write(f, data, out, side, c.Bool("force")); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	return e.finish(nil)
}

// transformKept runs the pipeline over f and writes to the archive the
// originals the results name, returning how many it wrote (see
// apply.Kept); --no-archive keeps none.
func (e *env) transformKept(c *cli.Context, f *capture.File, pipeline []*rules.Rule, store *archive.Store) ([]*rules.Result, int, error) {
	if c.Bool("no-archive") {
		results, err := runFile(f, pipeline, e.keeperEnv(pipeline, archive.Off))
		return results, 0, err
	}
	results, archived, err := apply.Kept(f, pipeline, store, func(k archive.Keeper) *rules.Env { return e.keeperEnv(pipeline, k) })
	return results, archived, ruleFailure(err)
}
