package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

type ruleRow struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Summary  string         `json:"summary"`
	Doc      string         `json:"doc"`
	Options  []rules.Option `json:"options,omitempty"`
	Requires []string       `json:"requires,omitempty"`
	Lossy    bool           `json:"-"`
}

func rowOf(r *rules.Rule) ruleRow {
	return ruleRow{ID: r.ID, Name: r.Name, Kind: r.Kind.String(), Severity: r.Severity.String(), Summary: r.Summary(), Doc: r.Doc, Options: ruleset.Registry().OptionsOf(r), Requires: r.RequiredIDs(), Lossy: r.Engine.Lossy}
}

func rulesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rules, or explain one",
		ArgsUsage: "[ID|NAME|FAMILY]",
		Description: "Without an argument lists every rule: ID, name, kind, default severity and a one-line\n" +
			"summary. With an ID or name prints the rule's full documentation; with a family\n" +
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
			rows := make([]ruleRow, len(list))
			for i, r := range list {
				rows[i] = rowOf(r)
			}
			switch {
			case e.format == "json":
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(struct {
					Rules []ruleRow `json:"rules"`
				}{rows})
			case e.format == "markdown":
				for _, r := range rows {
					fmt.Fprint(e.stdout, RuleMarkdown(r))
				}
			case one:
				r := rows[0]
				fmt.Fprintf(e.stdout, "%s %s (%s, default severity %s)\n\n%s\n", r.ID, r.Name, r.Kind, r.Severity, wrap(r.Doc, 78))
				for _, o := range r.Options {
					fmt.Fprintf(e.stdout, "\noption %s (default %s): %s\n", o.Name(), o.Default, o.Doc)
				}
			default:
				tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tNAME\tKIND\tSEVERITY\tSUMMARY")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Kind, r.Severity, r.Summary)
				}
				tw.Flush()
			}
			return nil
		},
	}
}

// RuleMarkdown renders one rule's documentation page.
func RuleMarkdown(r ruleRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s `%s`\n\n", r.ID, r.Name)
	fmt.Fprintf(&b, "Kind: %s. Default severity: %s.\n\n%s\n\n", r.Kind, r.Severity, r.Doc)
	if r.Lossy {
		b.WriteString("Lossy: it may remove content that it neither archives nor leaves in the request.\n\n")
	}
	if len(r.Options) > 0 {
		fmt.Fprintf(&b, "| option | default | meaning |\n| --- | --- | --- |\n")
		for _, o := range r.Options {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.Name(), o.Default, o.Doc)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// wrap breaks text into lines of at most width columns.
func wrap(text string, width int) string {
	var out strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		if col > 0 && col+1+len(w) > width {
			out.WriteByte('\n')
			col = 0
		} else if col > 0 {
			out.WriteByte(' ')
			col++
		}
		out.WriteString(w)
		col += len(w)
	}
	return out.String()
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
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %v", out, err)}
			}
			if !e.quiet {
				fmt.Fprintf(e.stdout, "wrote %s\n", out)
			}
			return nil
		},
	}
}
