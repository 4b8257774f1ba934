package commands

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/bench/outputbench"
	"github.com/skillopt/skillopt/transform/output"
)

func benchOutputCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "output",
		Usage:     "output-reduction benchmark over a folder of real command outputs",
		ArgsUsage: "DIR",
		Description: "Reduces every output file in DIR (any file but *.evidence and *.md, read recursively)\n" +
			"the way SO302 and SO301 reduce a tool result with the configured [output] triggers and\n" +
			"thresholds, stores the original in the archive, and reports per file: bytes before and\n" +
			"after (recovery label included), the reducer used, how many of the evidence strings listed\n" +
			"in NAME.evidence (one per line; # comments) are still present, whether `archive get`\n" +
			"gives back the original byte for byte, and the time to reduce and to archive (the archive\n" +
			"write includes fsync). Exit 1 if any evidence string is lost or any recovery is not exact.\n" +
			"The archive is a temporary folder unless --archive is given.\n\n" +
			"Formats: text, json ({\"rows\":[…],\"totals\":{…}}), markdown.\n\n" +
			"Examples:\n" +
			"  skillopt bench output testdata/outputs\n" +
			"  skillopt bench output --format markdown testdata/outputs",
		Flags: append([]cli.Flag{archiveFlag()}, formats("", "text", "json", "markdown")),
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return argErr(c, "want exactly one DIR, got %d arguments", c.NArg())
			}
			dir := c.Args().First()
			files, err := outputbench.Files(dir)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if len(files) == 0 {
				return usageErr("%s holds no output files", dir)
			}
			archDir := ""
			if c.IsSet("archive") {
				archDir = c.String("archive")
			} else {
				archDir, err = os.MkdirTemp("", "skillopt-bench-archive-")
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				defer os.RemoveAll(archDir)
			}
			store := archive.Open(archDir)
			var rows []outputbench.Row
			for _, f := range files {
				row, err := outputbench.File(dir, f, store, output.FromSet(e.cfg.Options))
				if err != nil {
					e.warnInput(err)
					continue
				}
				rows = append(rows, row)
			}
			tot := outputbench.Sum(rows)
			switch e.format {
			case "json":
				err = writeJSON(e, outputbench.Report{Rows: rows, Totals: tot})
			case "markdown":
				err = outputbench.WriteMarkdown(e.stdout, rows, tot)
			default:
				err = outputbench.WriteText(e.stdout, rows, tot, func(s string) string { return e.paint(red, s) })
			}
			if err != nil {
				return err
			}
			if tot.Failed() {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}
