package commands

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/bench/searchbench"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

func benchSearchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "search",
		Usage: "skill-search quality on a labelled query set over a folder of skills",
		Description: "Runs every query of the labelled set through BM25F alone (names and descriptions, as\n" +
			"`catalog browse --query` ranks) and through the full ranking (`catalog search`: BM25F\n" +
			"fused with exact names and typo recovery), ten results each, and reports per part of\n" +
			"the set (tuning, held-out: every third query, which no tuning looked at):\n\n" +
			"  R@1, R@3, R@5   share of the query's grade-2 skills (the skill asked for) in the\n" +
			"                  first 1, 3, 5 results\n" +
			"  MRR             mean reciprocal rank of the first grade-2 skill (0 past ten)\n" +
			"  nDCG@10         graded gain (2 the skill asked for, 1 also useful), log2 discount\n\n" +
			"Then exact-name recovery: every skill name misspelled once by one edit (names of 3+\n" +
			"letters) and once by two (6+), fixed draws; top 1 and top 5 are the shares of names\n" +
			"ranked first and in the first five. And pagination: each query paged through `catalog\n" +
			"browse` three cards at a time, alone and ordering every skill; a query is complete when\n" +
			"its pages hold every match exactly once.\n\n" +
			"SKILLS is the folder the labels are relative to (the built-in set labels the skill\n" +
			"repositories of skillopt's test corpus, corpus/skills); --set reads another JSON Lines\n" +
			"file of {id, kind, query, relevant: {FOLDER: 1 or 2}}. --usage gives the full ranking\n" +
			"usage evidence from traces and sessions, as `catalog search --usage` does.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt bench search ../corpus/skills\n" +
			"  skillopt bench search --cases --format json ../corpus/skills",
		ArgsUsage: "SKILLS",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "set", Usage: "labelled query `FILE` (default: the built-in set)"},
			&cli.BoolFlag{Name: "cases", Usage: "also list every query's rank under each ranker"},
			&cli.StringSliceFlag{Name: "usage", Usage: "execution trace or Pi session `PATH` read as usage evidence of the full ranking (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want one SKILLS folder, got %d arguments", c.NArg())
			}
			set, err := searchbench.Default()
			if c.IsSet("set") {
				set, err = searchbench.Load(c.String("set"))
			}
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			corpus, err := searchbench.Open(c.Args().First())
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if paths := c.StringSlice("usage"); len(paths) > 0 {
				var errs []error
				if corpus.Usage, errs = catalogrules.ReadUsage(paths, time.Now()); len(errs) > 0 {
					return &exitError{code: exitUsage, err: errs[0]}
				}
			}
			rep, err := searchbench.Run(corpus, set)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if !c.Bool("cases") {
				rep.Cases = nil
			}
			return e.show(rep, func(w io.Writer) error { return searchbench.WriteText(w, rep, c.Bool("cases")) })
		},
	}
}
