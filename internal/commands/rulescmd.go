package commands

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruledoc"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

func rulesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or explain one",
		ArgsUsage: "[ID|NAME|FAMILY]",
		Description: "Without an argument lists every rule: ID, name, kind, default severity and a one-line\n" +
			"summary. With an ID or name prints the rule's documentation (what it checks, why,\n" +
			"an example from its test cases, its options, since when it exists); with a family\n" +
			"(catalog, tools, output, invariant, validity, lint, skill, agent) or an ID prefix lists\n" +
			"its rules.\n\n" +
			"Formats: text, json, markdown.\n\n" +
			"Examples:\n" +
			"  skillopt rules\n" +
			"  skillopt rules SO403\n" +
			"  skillopt rules invariant",
		Flags: []cli.Flag{formats("", "text", "json", "markdown")},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			list := ruleset.All()
			if c.NArg() > 1 {
				return argErr(c, "want at most one rule ID, got %d", c.NArg())
			}
			one := false
			if c.NArg() == 1 {
				// A rule is explained; a family or a prefix is listed.
				if r := ruleset.ByID(c.Args().First()); r != nil {
					list, one = []*rules.Rule{r}, true
				} else if rs, err := ruleset.Registry().MatchAll(c.Args().First()); err == nil {
					list = rs
				} else {
					return usageErr("unknown rule %q (see `skillopt rules`)", c.Args().First())
				}
			}
			pages := make([]ruledoc.Page, len(list))
			for i, r := range list {
				pages[i] = ruledoc.PageOf(r, ruleset.Registry().OptionsOf(r))
			}
			return ruledoc.Write(e.stdout, pages, e.format, one, 78)
		},
	}
}

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "write a commented default skillopt.toml",
		Description: "Writes the default configuration, every key commented with its meaning and default,\n" +
			"to skillopt.toml in the working directory (or -o FILE; -o - prints it). An existing\n" +
			"file is never overwritten unless --force is given; the existing file is not read, so\n" +
			"--force also replaces a configuration that no longer loads.\n\n" +
			"Examples:\n" +
			"  skillopt init\n" +
			"  skillopt init -o - | less",
		Flags: []cli.Flag{
			formats("", "text"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: config.FileName, Usage: "where to write (- for stdout)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing file"},
		},
		Action: func(c *cli.Context) error {
			// The configuration is not loaded: init must be able to
			// replace a broken one.
			if err := e.options(c); err != nil {
				return err
			}
			out := c.String("output")
			if out == "" {
				return usageErr("-o: an empty file name; give a file, or - for standard output")
			}
			if out == "-" {
				_, err := e.stdout.Write(config.TemplateWith(ruleset.Registry().Binding()))
				return err
			}
			if _, err := os.Stat(out); err == nil && !c.Bool("force") {
				return usageErr("%s already exists (use --force to overwrite)", out)
			}
			if err := atomicfile.Write(out, config.TemplateWith(ruleset.Registry().Binding()), atomicfile.Options{Perm: 0o644, Force: c.Bool("force")}); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", out, err)}
			}
			if !e.quiet {
				fmt.Fprintf(e.stdout, "wrote %s\n", out)
			}
			return nil
		},
	}
}
