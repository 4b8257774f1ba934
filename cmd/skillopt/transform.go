package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/escape"
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

// countNamed counts the distinct handles the results name that store
// holds.
func countNamed(store *archive.Store, results []*rules.Result) int {
	seen := map[string]bool{}
	for _, res := range results {
		for _, h := range archive.FindHandles(string(res.Final.Body)) {
			if !seen[h] && store.Has(h) {
				seen[h] = true
			}
		}
	}
	return len(seen)
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
	var out []*rules.Result
	for _, capt := range f.Captures {
		res, err := rules.Run(capt, pipeline, renv)
		if err != nil {
			return nil, ruleFailure(err)
		}
		out = append(out, res)
	}
	return out, nil
}

// printDiagnostics prints what the pipeline reported (dropped transforms,
// originals kept) to stderr; -q keeps warnings and errors only.
func (e *env) printDiagnostics(results []*rules.Result) {
	for _, res := range results {
		for _, d := range res.Diagnostics {
			if e.quiet && d.Severity < rules.Warning {
				continue
			}
			prefix := fmt.Sprintf("skillopt: %s: %s %s: ", escape.Text(d.Capture), d.Rule, d.Severity)
			if d.Severity == rules.Info {
				// A note, prose for a person: wrapped to the terminal.
				fmt.Fprintln(e.stderr, escape.Wrap(prefix, d.Message, e.width(e.stderr)))
				continue
			}
			fmt.Fprintf(e.stderr, "%s%s\n", prefix, escape.Text(d.Message))
		}
	}
}

// runTransform runs the pipeline over the one CAPTURE argument and writes
// the result (see transformCommand).
// transformArgs checks the arguments of transform and returns the input
// and the output ("" or "-" for standard output).
func transformArgs(c *cli.Context) (in, out string, err error) {
	if c.NArg() != 1 {
		return "", "", argErr(c, "want exactly one CAPTURE file (or - for stdin), got %d arguments", c.NArg())
	}
	if c.IsSet("archive") && c.Bool("no-archive") {
		return "", "", usageErr("--archive and --no-archive exclude each other")
	}
	in = c.Args().First()
	if in != "-" {
		if st, err := os.Stat(in); err == nil && st.IsDir() {
			return "", "", usageErr("%s: is a directory; transform takes one capture file", in)
		}
	}
	out = c.String("output")
	if c.IsSet("output") && out == "" {
		return "", "", usageErr("-o: an empty file name; give a file, or - (or no -o) for standard output")
	}
	if out != "" && out != "-" {
		if in != "-" && atomicfile.SameFile(in, out) {
			return "", "", usageErr("refusing to overwrite the input %s; choose another -o", in)
		}
		if _, err := atomicfile.Check(out, c.Bool("force")); err != nil {
			return "", "", usageErr("%s: %w", out, err)
		}
	}
	return in, out, nil
}

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
	if err := sessionInput(f); err != nil {
		return err
	}
	if f.IsCassette() {
		return usageErr("%s: a VCR cassette is read-only input for transform (its bodies are converted from YAML); "+
			"measure and validate read it; to transform one request, give transform its body as a JSON file", escape.Text(f.Name))
	}
	store := archive.Open(e.cfg.Archive.Dir)
	results, archived, err := e.transformKept(c, f, pipeline, store)
	if err != nil {
		return err
	}
	e.printDiagnostics(results)
	bodies := map[*capture.Capture][]byte{}
	for _, res := range results {
		bodies[res.Original] = res.Final.Body
	}
	data := f.Rebuild(bodies)
	if archived > 0 && !e.quiet {
		fmt.Fprintf(e.stderr, "skillopt: archived %d original(s) in %s\n", archived, escape.Text(store.Dir()))
	}
	if !toFile {
		if _, err := e.stdout.Write(data); err != nil {
			return err
		}
		return e.finish(nil)
	}
	side, err := sidecarOut(f, in, out, c.Bool("force"))
	if err != nil {
		return err
	}
	if err := atomicfile.Write(out, data, atomicfile.Options{Perm: 0o644, Force: c.Bool("force")}); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", out, err)}
	}
	if side != "" {
		// The sidecar goes with a bare body only, so data is the body.
		if err := atomicfile.Write(side, f.Sidecar.For(data), atomicfile.Options{Perm: 0o644, Force: c.Bool("force")}); err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", side, err)}
		}
	}
	return e.finish(nil)
}

// sidecarOut is where transform writes the sidecar of a bare body read
// with one (NAME.meta.json beside OUT), so that OUT is judged against the
// same endpoint as the input; "" when the input had none. It refuses to
// replace the input or its sidecar, before anything is written.
func sidecarOut(f *capture.File, in, out string, force bool) (string, error) {
	if f.Sidecar == nil {
		return "", nil
	}
	side := capture.SidecarPath(out)
	if atomicfile.SameFile(side, f.Sidecar.Path) || in != "-" && atomicfile.SameFile(side, in) {
		return "", usageErr("refusing to overwrite the input's endpoint file %s; choose another -o", side)
	}
	if _, err := atomicfile.Check(side, force); err != nil {
		return "", usageErr("%s: %w", side, err)
	}
	return side, nil
}

// sessionInput refuses a host's session file: its requests are rebuilt
// from the conversation it holds and cannot be written back into it, and
// a copy of the file would change nothing.
func sessionInput(f *capture.File) error {
	for _, c := range f.Captures {
		if c.Session == nil {
			continue
		}
		name := escape.Text(f.Name)
		return usageErr("%s: a %s session file is input only: it holds the conversation, not the requests, so there is nothing to write back; nothing was written. "+
			"`skillopt diff %s` shows what the rules change in its last request, `skillopt measure --conversation %s` in every turn; "+
			"to get requests to transform, record the host with `skillopt record -o captures -- CMD` and transform captures/skillopt-record-TIME.jsonl",
			name, capture.HostName(c.Session.Host), name, name)
	}
	return nil
}

// transformKept runs the pipeline over f and writes to the archive the
// originals the results name, returning how many it wrote. Originals are
// kept in memory while the rules run, so a rule that fails or a step the
// engine drops leaves nothing behind.
func (e *env) transformKept(c *cli.Context, f *capture.File, pipeline []*rules.Rule, store *archive.Store) ([]*rules.Result, int, error) {
	if c.Bool("no-archive") {
		results, err := runFile(f, pipeline, e.keeperEnv(pipeline, archive.Off))
		return results, 0, err
	}
	mem := archive.NewMemory(store)
	results, err := runFile(f, pipeline, e.keeperEnv(pipeline, mem))
	if err != nil {
		return nil, 0, err
	}
	named := map[string]bool{}
	for _, res := range results {
		for _, h := range archive.FindHandles(string(res.Final.Body)) {
			named[h] = true
		}
	}
	archived, _, err := mem.Flush(store, func(h string) bool { return named[h] })
	if err == nil {
		return results, archived, nil
	}
	// Run again against the archive itself: each rule whose original
	// cannot be written keeps it, with a warning, and the output names
	// only what is stored.
	if results, err = runFile(f, pipeline, e.keeperEnv(pipeline, store)); err != nil {
		return nil, 0, err
	}
	return results, countNamed(store, results), nil
}
