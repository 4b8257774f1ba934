package commands

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	arender "github.com/skillopt/skillopt/archive/render"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/transform/output"
)

func archiveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "archive",
		Usage: "read, list and verify the originals of reduced content",
		Description: "The archive is a local, immutable, content-addressed store: every original that an\n" +
			"output or history rule reduced is kept there under the SHA-256 of its exact bytes, and the\n" +
			"transformed request names it only by its handle, sko: followed by 43 base64url characters.\n" +
			"All subcommands take --archive DIR (default: archive.dir of skillopt.toml, .skillopt/archive);\n" +
			"a DIR given with --archive must exist (exit 2 naming it), while a missing default archive\n" +
			"is empty.\n\n" +
			"Examples:\n" +
			"  skillopt archive get sko:… --lines 120:180\n" +
			"  skillopt archive ls --format json\n" +
			"  skillopt archive verify\n" +
			"  skillopt archive gc",
		Subcommands: []*cli.Command{archiveGetCommand(e), archiveLsCommand(e), archiveVerifyCommand(e), archiveGcCommand(e)},
	}
}

// archiveText is the colour and quiet settings of the archive renderers.
func (e *env) archiveText() arender.Options { return arender.Options{Color: e.color, Quiet: e.quiet} }

// archiveStore returns the archive a command works on: --archive, which
// must exist (exit 2 naming it), else the configuration's, which is an
// empty archive while it does not exist.
func (e *env) archiveStore(c *cli.Context) (*archive.Store, error) {
	if c.IsSet("archive") {
		st, err := archive.OpenExisting(c.String("archive"))
		if err != nil {
			return nil, &exitError{code: exitUsage, err: err}
		}
		return st, nil
	}
	return archive.Open(e.cfg.Archive.Dir), nil
}

func archiveGetCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "print an archived original, verified, byte for byte",
		ArgsUsage: "HANDLE",
		Description: "Prints the original named by HANDLE exactly as it was stored (line endings included;\n" +
			"CRLF stays CRLF) after checking its SHA-256. --lines A:B prints only lines A to B (1-based,\n" +
			"inclusive; A: and :B are open ranges), at most 32,000 characters: a longer range is refused,\n" +
			"naming the range that fits and where to go on. Anything that is not a well-formed handle is\n" +
			"rejected before the archive is touched. Exit 2 when the handle is malformed, not archived,\n" +
			"damaged, or the range lies outside the original or over the read limit.\n\n" +
			"The output is data, not a report: control characters and escape sequences in the\n" +
			"original are printed as they are (page it with less to see them).\n\n" +
			"Formats: text.\n\n" +
			"Examples:\n" +
			"  skillopt archive get sko:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU\n" +
			"  skillopt archive get --lines 1:40 sko:47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU",
		Flags: []cli.Flag{
			formats("", "text"),
			archiveFlag(),
			&cli.StringFlag{Name: "lines", Usage: "print only lines `A:B` (1-based, inclusive)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want exactly one HANDLE, got %d arguments", c.NArg())
			}
			h := c.Args().First()
			if _, err := archive.ParseHandle(h); err != nil {
				return usageErr("%w", err)
			}
			var r *archive.Range
			if c.IsSet("lines") {
				rg, err := archive.ParseRange(c.String("lines"))
				if err != nil {
					return usageErr("--lines: %w", err)
				}
				r = &rg
			}
			st, err := e.archiveStore(c)
			if err != nil {
				return err
			}
			data, err := st.Get(h)
			if err == nil && r != nil {
				data, err = output.ReadSlice(data, *r)
				if err != nil {
					err = fmt.Errorf("%s: %w", h, err)
				}
			}
			if err != nil {
				if errors.Is(err, archive.ErrNotFound) {
					return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", st.Dir(), err)}
				}
				return &exitError{code: exitUsage, err: err}
			}
			_, err = e.stdout.Write(data)
			return err
		},
	}
}

func archiveLsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "ls",
		Usage: "list archived originals",
		Description: "Lists every archived original: handle, size in bytes and when it was stored, ordered\n" +
			"by handle. The default archive (archive.dir) is empty while its directory does not exist;\n" +
			"an --archive DIR that does not exist is an error (exit 2).\n\n" +
			"With --capture FILE, lists instead the originals one conversation refers to, by metadata\n" +
			"only: handle, kind (overflow, reduced, duplicate, columnar), the size its replacement\n" +
			"states, whether the archive holds it, the tool; and the context memory SO304 counts\n" +
			"(overflow entries and bytes against output.max_entries and max_bytes_per_run).\n\n" +
			"Formats: text, json ({\"entries\":[{\"handle\",\"bytes\",\"modified\"}]}; with --capture\n" +
			"{\"conversations\":[{\"capture\",\"entries\":[{\"handle\",\"kind\",\"tool\",\"bytes\",\"pointer\",\"stored\"}],…}]}).\n\n" +
			"Examples:\n" +
			"  skillopt archive ls\n" +
			"  skillopt archive ls --archive /tmp/run1 --format json\n" +
			"  skillopt archive ls --capture out.json",
		Flags: append([]cli.Flag{archiveFlag(), &cli.StringFlag{Name: "capture", Usage: "list the originals the conversation in `FILE` refers to, metadata only"}}, formats("", "text", "json")),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			store, err := e.archiveStore(c)
			if err != nil {
				return err
			}
			if c.IsSet("capture") {
				return e.archiveMemory(c.String("capture"), store)
			}
			entries, err := store.List()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			return e.show(arender.ListJSON(entries), func(w io.Writer) error { return arender.ListText(w, entries, e.archiveText()) })
		},
	}
}

func archiveVerifyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "re-hash every archived original; exit 1 on damage",
		Description: "Reads every archived original and checks that its SHA-256 still matches its handle.\n" +
			"Each damaged original is named by its handle; exit 1 if any is damaged. The next\n" +
			"transform that archives a damaged original's content rewrites it.\n\n" +
			"Temporary files of writers that were killed before they finished (named " + atomicfile.TempPrefix + "…,\n" +
			"unmodified for over an hour) are listed as stale; they do not change the exit code and\n" +
			"`skillopt archive gc` removes them.\n\n" +
			"Formats: text, json ({\"objects\":N,\"damaged\":[{\"handle\",\"problem\"}],\"stale\":[{\"path\",\"bytes\",\"modified\"}]}).\n\n" +
			"Examples:\n" +
			"  skillopt archive verify\n" +
			"  skillopt archive verify --format json --archive .skillopt/archive",
		Flags: append([]cli.Flag{archiveFlag()}, formats("", "text", "json")),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			store, err := e.archiveStore(c)
			if err != nil {
				return err
			}
			entries, damaged, err := store.Verify()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			stale, err := store.Stale(time.Now().Add(-atomicfile.StaleAfter))
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if stale == nil {
				stale = []archive.TempFile{}
			}
			v := arender.Verify{Objects: len(entries), Damaged: damaged, Stale: stale}
			err = e.show(v, func(w io.Writer) error { return arender.VerifyText(w, v, e.archiveText()) })
			if err != nil {
				return err
			}
			if len(damaged) > 0 {
				return findings
			}
			return nil
		},
	}
}

func archiveGcCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "gc",
		Usage:     "remove temporary files left by interrupted writers",
		ArgsUsage: "[DIR...]",
		Description: "A transform killed while it writes (kill -9, power loss) can leave a partly written\n" +
			"temporary file behind: in the archive, or beside the -o output. skillopt names every\n" +
			"temporary file " + atomicfile.TempPrefix + "…, so they are recognisable. gc removes those\n" +
			"unmodified for longer than --older-than (default 1h; a live writer keeps modifying its\n" +
			"file and renames it away when done) from the archive's folders and from each DIR given\n" +
			"(that folder only, not below it), and prints each file it removed. Archived originals\n" +
			"and any other file are never touched.\n\n" +
			"Formats: text, json ({\"removed\":[{\"path\",\"bytes\",\"modified\"}]}).\n\n" +
			"Examples:\n" +
			"  skillopt archive gc\n" +
			"  skillopt archive gc --archive /tmp/run1 out/\n" +
			"  skillopt archive gc --older-than 10m .",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			archiveFlag(),
			&cli.DurationFlag{Name: "older-than", Value: atomicfile.StaleAfter, Usage: "remove temporary files unmodified for at least `AGE`"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			age := c.Duration("older-than")
			if age < 0 {
				return usageErr("--older-than %v must not be negative", age)
			}
			for _, d := range c.Args().Slice() {
				if st, err := os.Stat(d); err != nil || !st.IsDir() {
					return usageErr("%s is not a directory", d)
				}
			}
			cutoff := time.Now().Add(-age)
			store, err := e.archiveStore(c)
			if err != nil {
				return err
			}
			stale, err := store.StaleWith(cutoff, c.Args().Slice())
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			removed, errs := archive.RemoveTemps(stale)
			for _, err := range errs {
				e.warnInput(err)
			}
			err = e.show(arender.RemovedJSON(removed), func(w io.Writer) error { return arender.RemovedText(w, removed, e.archiveText()) })
			if err != nil {
				return err
			}
			return e.finish(nil)
		},
	}
}

func sanitizeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sanitize",
		Usage:     "remove tool traces from final assistant text and cap its length",
		ArgsUsage: "[FILE|-]",
		Description: "Applies the final-output sanitizer of SO305 to plain text (FILE, or standard input\n" +
			"when FILE is - or missing) and prints the result: fenced blocks labelled tool_use,\n" +
			"tool_result, mcp, codebase-retrieval, auggie, scratchpad or internal (- and _ alike, any\n" +
			"case) and bare {\"jsonrpc\":…}, {\"tool_use_id\":…} and {\"tool_call_id\":…} lines are removed;\n" +
			"ordinary code fences and {\"type\":…} lines stay. The text is then capped at --max-chars\n" +
			"characters (default output.final_output_max_chars, 120000; 0: no cap), the truncation\n" +
			"marker counted inside the budget.\n\n" +
			"The text format prints the sanitized text byte for byte, for a host to use: control\n" +
			"characters and escape sequences in it are not escaped (json escapes them).\n\n" +
			"Formats: text (the sanitized text), json ({\"text\",\"removed_sections\",\"truncated\",\n" +
			"\"original_chars\",\"final_chars\"}).\n\n" +
			"Examples:\n" +
			"  skillopt sanitize answer.md\n" +
			"  pbpaste | skillopt sanitize --max-chars 4000 -",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.IntFlag{Name: "max-chars", Value: -1, Usage: "character cap, marker included (0: none; default output.final_output_max_chars)"},
			&cli.BoolFlag{Name: "keep-traces", Usage: "only cap the length; keep trace fences and envelope lines"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return argErr(c, "want at most one FILE, got %d arguments", c.NArg())
			}
			name := c.Args().First()
			var data []byte
			var err error
			if name == "" || name == "-" {
				name = "-"
				data, err = untrusted.ReadAll(e.stdin, maxSanitizeInput)
			} else {
				data, err = untrusted.ReadFile(name, maxSanitizeInput)
			}
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", name, err)}
			}
			set := output.FromSet(e.cfg.Options)
			opts := reduce.SanitizeOptions{StripTraces: set.StripToolTraces && !c.Bool("keep-traces"), MaxChars: set.FinalOutputMaxChars}
			if c.IsSet("keep-traces") && !c.Bool("keep-traces") {
				opts.StripTraces = true
			}
			if n := c.Int("max-chars"); n >= 0 {
				opts.MaxChars = n
			} else if c.IsSet("max-chars") {
				return usageErr("--max-chars %d must not be negative", n)
			}
			res := reduce.Sanitize(string(data), opts)
			if e.format == "json" {
				return writeJSON(e, res)
			}
			_, err = io.WriteString(e.stdout, res.Text)
			return err
		},
	}
}

// maxSanitizeInput bounds the text sanitize reads (a file or stdin).
const maxSanitizeInput = 64 << 20

// archiveMemory prints the entries of the conversations of one capture
// file, metadata only.
func (e *env) archiveMemory(path string, st *archive.Store) error {
	f, err := capture.ReadFile(path, e.stdin, capture.Options{})
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	ms := output.FileMemory(f, st, e.cfg.Options)
	if e.format == "json" {
		return output.WriteMemoryJSON(e.stdout, ms)
	}
	return output.WriteMemoryText(e.stdout, ms)
}
