package main

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

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
		},
	}
}

func benchCatalogCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "catalog",
		Usage: "compare native, compact and tag-directory catalogs on synthetic skill sets",
		Description: "Builds deterministic synthetic catalogs (multi-part names, 80-400 character\n" +
			"descriptions, preassigned cards) in Pi's native format inside an Anthropic request and\n" +
			"reports per size, with the default configuration:\n\n" +
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
			"                               result against the provider schema (catalog cache warm;\n" +
			"                               median of at least eleven)\n" +
			"  prefetch ms                  the same with SO101 and SO103 (the prefetch overlay)\n" +
			"  prefetch B                   what SO103 allocates on such a request\n" +
			"  first ms                     the first SO101 + SO103 request of the catalog: parsing,\n" +
			"                               snapshot, search structures, transform (cache empty;\n" +
			"                               median of three)\n" +
			"  peak MiB                     the process's peak resident set size while the size ran:\n" +
			"                               on Linux VmHWM from /proc/self/status, reset through\n" +
			"                               /proc/self/clear_refs before each size; elsewhere\n" +
			"                               getrusage's ru_maxrss, the peak of the whole process so far\n\n" +
			"Then start-up, whole processes: `skillopt --version` against an empty Go program, run\n" +
			"alternately --startup-runs times each (median; startup_ratio in JSON), and a cold\n" +
			"`transform --rules SO101,SO103` of a 355-skill request. The empty program is\n" +
			"--empty-program, or one built with the go command when it is on PATH.\n\n" +
			"Cards are preassigned: this measures transport, not card quality or model behaviour.\n\n" +
			"Formats: text, json.\n\nExamples:\n  skillopt bench catalog\n  skillopt bench catalog --sizes 355,2000 --format json",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "sizes", Value: "355,2000,10000", Usage: "comma-separated catalog sizes"},
			&cli.IntFlag{Name: "replay", Value: 8, Usage: "requests after the skill load (0..1000)"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "generator seed"},
			&cli.StringFlag{Name: "empty-program", Usage: "an empty Go program (`PROGRAM`, a path or a name on PATH) to compare start-up with (default: build one with go)"},
			&cli.IntFlag{Name: "startup-runs", Value: 31, Usage: "runs of each start-up command (0 skips start-up)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if r := c.Int("replay"); r < 0 || r > 1000 {
				return usageErr("--replay %d is outside 0..1000", r)
			}
			var sizes []int
			for _, f := range strings.Split(c.String("sizes"), ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || n < 1 || n > 1_000_000 {
					return usageErr("bad size %q", f)
				}
				sizes = append(sizes, n)
			}
			if r := c.Int("startup-runs"); r < 0 || r > 1000 {
				return usageErr("bench catalog: --startup-runs %d is outside 0..1000", r)
			}
			var rows []catalogbench.Row
			for _, n := range sizes {
				row, err := catalogbench.Run(n, c.Int64("seed"), c.Int("replay"))
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
			start, note := catalogbench.StartupOfSelf(c.String("empty-program"), c.Int("startup-runs"))
			rep := catalogbench.NewReport(rows, start, note)
			if e.format == "json" {
				return writeJSON(e, rep)
			}
			return catalogbench.WriteReport(e.stdout, rep)
		},
	}
}
