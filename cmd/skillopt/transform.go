package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/rules"
)

func archiveFlag() cli.Flag {
	return &cli.StringFlag{Name: "archive", Usage: "directory receiving originals of reduced content (default: archive.dir of skillopt.toml, .skillopt/archive)"}
}

func transformCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "transform",
		Usage:     "run the rule pipeline and write the transformed capture",
		ArgsUsage: "CAPTURE",
		Description: "Runs the configured transform rules (or --rules) over every capture in the file and\n" +
			"writes the file back in the same envelope and provider shape: to stdout, or atomically\n" +
			"to -o OUT. The input is never modified. Untouched bytes stay byte-identical; with\n" +
			"--rules none the output equals the input except that secret header values and\n" +
			"key= URL parameters are replaced by REDACTED.\n\n" +
			"Examples:\n" +
			"  skillopt transform capture.json -o capture.min.json\n" +
			"  skillopt transform --rules SO101 - < capture.json",
		Flags: []cli.Flag{
			rulesFlag(),
			providerFlag(),
			archiveFlag(),
			tierFlag(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` atomically instead of stdout"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageErr("transform: want exactly one CAPTURE file (or - for stdin), got %d arguments", c.NArg())
			}
			in := c.Args().First()
			if in != "-" {
				if st, err := os.Stat(in); err == nil && st.IsDir() {
					return usageErr("%s: is a directory; transform takes one capture file", in)
				}
			}
			out := c.String("output")
			if out != "" && out != "-" && in != "-" && atomicfile.SameFile(in, out) {
				return usageErr("transform: refusing to overwrite the input %s; choose another -o", in)
			}
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
			results, err := e.transformFile(f, pipeline)
			if err != nil {
				return err
			}
			bodies := map[*capture.Capture][]byte{}
			for _, res := range results {
				bodies[res.Original] = res.Final.Body
			}
			data := f.Rebuild(bodies)
			if out == "" || out == "-" {
				if _, err := e.stdout.Write(data); err != nil {
					return err
				}
				return e.finish(nil)
			}
			if err := atomicfile.WriteFile(out, data, 0o644); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %v", out, err)}
			}
			return e.finish(nil)
		},
	}
}

// transformFile runs the pipeline over every capture of f and prints the
// diagnostics it produced (dropped transforms) to stderr.
func (e *env) transformFile(f *capture.File, pipeline []*rules.Rule) ([]*rules.Result, error) {
	renv := e.ruleEnv(pipeline)
	var out []*rules.Result
	for _, capt := range f.Captures {
		res, err := rules.Run(capt, pipeline, renv)
		if err != nil {
			return nil, ruleFailure(err)
		}
		for _, d := range res.Diagnostics {
			if e.quiet && d.Severity < rules.Warning {
				continue
			}
			fmt.Fprintf(e.stderr, "skillopt: %s: %s %s: %s\n", d.Capture, d.Rule, d.Severity, d.Message)
		}
		out = append(out, res)
	}
	return out, nil
}
