package commands

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/catalogbench"
)

func benchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "run the catalog, output and tool benchmarks",
		Description: "Benchmarks of the transforms on data that ships with skillopt or that you point it at.\n" +
			"Each subcommand's --help says what its columns mean. The catalog and tool benchmarks\n" +
			"need no files (their data is built in); the output benchmark reads a folder of command\n" +
			"outputs.\n\n" +
			"Examples:\n" +
			"  skillopt bench catalog\n" +
			"  skillopt bench catalog --sizes 355,2000 --format json\n" +
			"  skillopt bench output testdata/outputs\n" +
			"  skillopt bench tools\n" +
			"  skillopt bench tools --providers anthropic --format json",
		Subcommands: []*cli.Command{
			benchCatalogCommand(e),
			benchOutputCommand(e),
			benchToolsCommand(e),
			benchSearchCommand(e),
			benchCatalogFirstCommand(e),
		},
	}
}

func benchCatalogCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "catalog",
		Usage: "compare native, compact and tag-directory catalogs and time transform on synthetic or captured requests",
		Description: "Builds deterministic synthetic catalogs (multi-part names, 80-400 character\n" +
			"descriptions, preassigned cards) in Pi's native format inside an Anthropic request shaped\n" +
			"like a coding agent's (22 KiB of project context in the system prompt besides the catalog,\n" +
			"four tool declarations, three earlier exchanges), or reads your own requests with\n" +
			"--captures DIR, and reports per catalog, with the default configuration:\n\n" +
			"  native B, compact B, tag B   the catalog's bytes in the first request: native, compact\n" +
			"                               index (SO101) and tag directory (SO102), the last two with\n" +
			"                               their skill_search declaration\n" +
			"  cumulative compact, tag      the bytes of every request of a replayed session: with the\n" +
			"                               compact index 1 + --replay requests; with the tag directory\n" +
			"                               one more, since the model browses one page of the first\n" +
			"                               skill's tags before loading (the page rides along in every\n" +
			"                               later request). A skill load counts 2 KiB (a synthetic\n" +
			"                               SKILL.md) in every request after it.\n" +
			"  5-page saving                the same with five browse pages, each one more request;\n" +
			"                               when the tags hold fewer cards, the pages there were\n" +
			"  pagination                   skills seen exactly once when browsing every tag\n" +
			"  snapshot ms                  building the catalog snapshot\n" +
			"  warm ms                      a later request as `transform --rules SO101` prepares it:\n" +
			"                               read and index the capture, run the rule, validate the\n" +
			"                               result (provider schema and SO5xx) and re-run the rule on\n" +
			"                               it, rebuild the file (catalog cache warm; a different\n" +
			"                               latest user text on every request; median of at least 11)\n" +
			"  prefetch ms                  the same with SO101 and SO103 (the prefetch overlay)\n" +
			"  request B                    what such a request allocates in all\n" +
			"  prefetch B                   what SO103 alone allocates on one\n" +
			"  first ms                     the first SO101 + SO103 request of the catalog in this\n" +
			"                               process: parsing, snapshot, search structures, transform\n" +
			"                               (cache empty, one-time work done before; median of three)\n" +
			"  fresh first ms               the same as the first thing a fresh skillopt process does,\n" +
			"                               one-time work included (median of three; - with --no-fresh)\n" +
			"  peak MiB                     the process's peak resident set size while the size ran:\n" +
			"                               on Linux VmHWM from /proc/self/status, reset through\n" +
			"                               /proc/self/clear_refs before each size; elsewhere\n" +
			"                               getrusage's ru_maxrss, the peak of the whole process so far\n\n" +
			"A line below the table gives prefetch ms against one SHA-256 pass over the system prompt.\n" +
			"Then start-up, whole processes: `skillopt --version` against an empty Go program, run\n" +
			"alternately --startup-runs times each (median; startup_ratio in JSON), and a cold\n" +
			"`transform --rules SO101,SO103` of the 355-skill request. The empty program is\n" +
			"--empty-program, or one built with the go command when it is on PATH.\n\n" +
			"Cards are preassigned: this measures transport, not card quality or model behaviour.\n" +
			"docs/bench.md says what every JSON field times.\n\n" +
			"Formats: text, json.\n\nExamples:\n  skillopt bench catalog\n  skillopt bench catalog --sizes 355,2000 --format json\n" +
			"  skillopt bench catalog --captures ~/captures --startup-runs 0",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "sizes", Value: "355,2000,10000", Usage: "comma-separated catalog sizes"},
			&cli.IntFlag{Name: "replay", Value: 8, Usage: "requests after the skill load (0..1000)"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "generator seed"},
			&cli.StringFlag{Name: "empty-program", Usage: "an empty Go program (`PROGRAM`, a path or a name on PATH) to compare start-up with (default: build one with go)"},
			&cli.IntFlag{Name: "startup-runs", Value: 31, Usage: "runs of each start-up command (0 skips start-up)"},
			&cli.StringFlag{Name: "captures", Usage: "measure the requests of the captures in `DIR` (a folder or a file) instead of synthetic ones; --sizes is ignored"},
			&cli.BoolFlag{Name: "no-fresh", Usage: "do not start fresh processes for fresh_process_first_ms"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if r := c.Int("replay"); r < 0 || r > 1000 {
				return usageErr("--replay %d is outside 0..1000", r)
			}
			sizes, err := catalogbench.ParseSizes(c.String("sizes"))
			if err != nil {
				return usageErr("%w", err)
			}
			if r := c.Int("startup-runs"); r < 0 || r > 1000 {
				return usageErr("bench catalog: --startup-runs %d is outside 0..1000", r)
			}
			opts := catalogbench.Options{Seed: c.Int64("seed"), Replay: c.Int("replay")}
			if !c.Bool("no-fresh") {
				exe, err := os.Executable()
				if err != nil {
					return err
				}
				opts.Fresh = catalogbench.ChildCommand(exe, "skillopt", nil, "bench", "catalog-first")
			}
			rows, err := e.benchCatalogRows(c, sizes, opts)
			if rows == nil {
				return err
			}
			start, note := catalogbench.StartupOfSelf(c.String("empty-program"), c.Int("startup-runs"))
			rep := catalogbench.NewReport(rows, start, note)
			return e.finish(e.show(rep, func(w io.Writer) error { return catalogbench.WriteReport(w, rep) }))
		},
	}
}

// benchCatalogFirstCommand is the child of fresh_process_first_ms: the
// first request of FILE, of PROVIDER ("" to detect it), in this process.
func benchCatalogFirstCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "catalog-first",
		Hidden:    true,
		ArgsUsage: "FILE PROVIDER",
		Flags:     []cli.Flag{formats("", "json")},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return argErr(c, "want FILE and PROVIDER, got %d arguments", c.NArg())
			}
			return catalogbench.FirstInProcess(c.Args().Get(0), capture.Provider(c.Args().Get(1)), e.stdout)
		},
	}
}

// benchCatalogRows runs the catalog benchmark over the requests of
// --captures, else over a synthetic request of every size. No rows come
// with the error that ends the command.
func (e *env) benchCatalogRows(c *cli.Context, sizes []int, opts catalogbench.Options) ([]catalogbench.Row, error) {
	dir := c.String("captures")
	if dir == "" {
		return catalogbench.RunSizes(sizes, opts)
	}
	inputs, errs := catalogbench.InputsFrom([]string{dir})
	for _, err := range errs {
		if errors.Is(err, catalogbench.ErrNoCatalog) {
			printErr(e.stderr, fmt.Errorf("%w: skipped", err))
			continue
		}
		e.warnInput(err)
	}
	if len(inputs) == 0 {
		return nil, e.finish(usageErr("%s: no request with a skill catalog and human text", dir))
	}
	rows, err := catalogbench.RunInputs(inputs, opts, func(err error) { printErr(e.stderr, err) })
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	if len(rows) == 0 {
		return nil, e.finish(usageErr("%s: no request SO101 and SO103 change", dir))
	}
	return rows, nil
}
