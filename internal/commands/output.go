package commands

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/transform/output"
)

// outputCommand is `skillopt output`: the output rules' checks that need
// no capture.
func outputCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "output",
		Usage:       "check tool-output reductions without a capture",
		Subcommands: []*cli.Command{checkExtractCommand(e)},
	}
}

func checkExtractCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check-extract",
		Usage:     "say whether an extraction of a tool output passes the extraction guards",
		ArgsUsage: "ORIGINAL CANDIDATE",
		Description: "Runs the guards a candidate extraction (a shortened copy of a tool output, written by a\n" +
			"model or a person) must pass before it is returned in the output's place, in order: every\n" +
			"line of CANDIDATE is a line of ORIGINAL, verbatim and in order; it keeps every protected\n" +
			"evidence string the smart reduction of ORIGINAL keeps; the returned text (the candidate and\n" +
			"its recovery label) clears min_saved_bytes and min_saved_ratio of [output]; the original is\n" +
			"recoverable from the archive. With --archive DIR the original must be stored in DIR and\n" +
			"verify; without it, it is archived in memory and read back (nothing is written).\n" +
			"Prints accepted, or the guard that refused it: the first candidate line out of order or not\n" +
			"verbatim, the evidence missing with its line in ORIGINAL, or the sizes against the thresholds.\n" +
			"Exit 0 accepted, 1 refused, 2 when a file cannot be read.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt output check-extract go-test.txt extracted.txt\n" +
			"  skillopt output check-extract --archive .skillopt/archive --format json go-test.txt extracted.txt",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "archive", Usage: "require the original to be stored in the archive `DIR` (default: archived in memory and read back)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() != 2 {
				return argErr(c, "want ORIGINAL and CANDIDATE, got %d arguments", c.NArg())
			}
			var texts [2]string
			for i, name := range c.Args().Slice() {
				data, err := untrusted.ReadFile(name, output.MaxExtractBytes)
				if err != nil {
					return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", name, err)}
				}
				texts[i] = string(data)
			}
			keep := output.Recoverable(archive.NewMemory(nil))
			if c.IsSet("archive") {
				st, err := archive.OpenExisting(c.String("archive"))
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				keep = output.Archived(st)
			}
			x := output.CheckExtract(texts[0], texts[1], output.FromSet(e.cfg.Options), keep)
			var err error
			if e.format == "json" {
				err = output.WriteExtractJSON(e.stdout, x)
			} else {
				err = output.WriteExtractText(e.stdout, x, e.quiet)
			}
			if err != nil {
				return err
			}
			if !x.Accepted {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}
