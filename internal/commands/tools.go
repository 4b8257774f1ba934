package commands

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/tools"
)

func toolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "inspect tool deferral: what optimizer_tool_search returns for a capture",
		Description: "Tool deferral (SO201, SO202) keeps the tools a request needs and leaves the rest behind\n" +
			"optimizer_tool_search; see docs/tools.md. `tools search` shows what that search returns.\n\n" +
			"Formats: text, json (per subcommand).\n\n" +
			"Examples:\n" +
			"  skillopt tools search \"kubernetes pod logs\" capture.json",
		Subcommands: []*cli.Command{toolsSearchCommand(e)},
	}
}

func toolsSearchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "show the page optimizer_tool_search would return for a query, and what the deferral decided",
		ArgsUsage: "QUERY CAPTURE",
		Description: "Searches CAPTURE's deferrable tools for QUERY as optimizer_tool_search does: one page of\n" +
			"at most tools.page_size results, best first, the cursor of the next page (pass it back\n" +
			"with --cursor and the same QUERY), the tools the page activates and every tool declared\n" +
			"once they are added (skillopt's own skill_search and retrieve_output included when the\n" +
			"pipeline declares them). Separately it says what SO201 decides for CAPTURE under the\n" +
			"configuration: when it defers, the search covers the deferred tools, the page the model\n" +
			"would get; when it fails open or skips, it covers every deferrable tool, as if they were\n" +
			"deferred, and activates nothing. A cursor from another query or tool set is refused\n" +
			"(exit 2).\n\n" +
			"A file holding several captures (JSONL, HAR) is searched in its capture --entry N.\n\n" +
			"Formats: text, json ({\"tools\":[{\"name\",\"score\"}],\"cursor\":\"…\"|null,\"activated\":[…],\"active\":[…],\n" +
			"\"searched\":N,\"deferral\":{\"decision\",\"deferred\",\"kept\",\"reason\"},…}).\n\n" +
			"Examples:\n" +
			"  skillopt tools search \"open a pull request\" capture.json\n" +
			"  skillopt tools search --format json --cursor o5.3f2a9c0d1e2b \"pull request\" capture.json",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "cursor", Usage: "continue a previous page of the same QUERY"},
			&cli.IntFlag{Name: "entry", Value: 1, Usage: "which capture of a multi-capture file (1-based)"},
			providerFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() != 2 {
				return argErr(c, "want QUERY and CAPTURE, got %d arguments", c.NArg())
			}
			query, path := c.Args().Get(0), c.Args().Get(1)
			var opts capture.Options
			if p := c.String("provider"); p != "" {
				prov, err := capture.ParseProvider(p)
				if err != nil {
					return usageErr("--provider: %w", err)
				}
				opts.Provider = prov
			}
			f, err := capture.ReadFile(path, e.stdin, opts)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if len(f.Errs) > 0 {
				return &exitError{code: exitUsage, err: f.Errs[0]}
			}
			n := c.Int("entry")
			if n < 1 || n > len(f.Captures) {
				return usageErr("--entry %d: %s holds %d capture(s)", n, path, len(f.Captures))
			}
			capt := f.Captures[n-1]
			page, err := tools.Probe(capt, tools.FromSet(e.cfg.Options), query, c.String("cursor"))
			if err != nil {
				var ce *tools.CursorError
				if errors.As(err, &ce) {
					return usageErr("--cursor: %w", err)
				}
				return err
			}
			// The transformed request may declare tools of skillopt's own
			// besides the host's (skill_search, retrieve_output): active
			// lists them too. The pipeline runs as under measure, writing
			// nothing.
			pipeline, err := e.pipeline(c)
			if err != nil {
				return err
			}
			renv := e.ruleEnv(pipeline)
			ruleset.SetArchive(renv, renv.Archive, true)
			res, err := rules.Run(capt, pipeline, renv)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			page.AddDeclared(capt, res.Final)
			if e.format == "json" {
				return e.finish(writeJSON(e, page))
			}
			page.WriteText(e.stdout, capt.Name)
			return e.finish(nil)
		},
	}
}
