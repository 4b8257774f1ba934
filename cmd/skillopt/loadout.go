package main

import (
	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/catalog/lint"
	catrender "github.com/skillopt/skillopt/catalog/render"
)

// loadoutCommand is `skillopt catalog loadout`: resolve an agent
// definition's skill loadout and print it like an /agent-skills report.
func loadoutCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "loadout",
		Usage:     "resolve an agent definition's skill loadout",
		ArgsUsage: " ",
		Description: "Reads the agent definition (--agent FILE), checks inheritSkills, skills and skillPath,\n" +
			"discovers the private candidates on its skillPath entries (relative to the agent file's\n" +
			"folder, no ~ or $VAR expansion) and resolves each selected name: one valid private\n" +
			"candidate first, else one enabled skill of the ambient folders (--ambient, or\n" +
			"lint.ambient). Without ambient folders such names are pending, as in a switch-time\n" +
			"check. Prints the mode, the advertised names and paths, and the diagnostics (AGxxx).\n" +
			"Exit 1 when the loadout is unresolved (an error), 2 when the file cannot be read.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt catalog loadout --agent .pi/agents/reviewer.md\n" +
			"  skillopt catalog loadout --agent reviewer.md --ambient ~/.pi/agent/skills --format json",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "agent", Usage: "the agent definition (markdown with frontmatter)", Required: true},
			&cli.StringSliceFlag{Name: "ambient", Aliases: []string{"skills"}, Usage: "skill folder of the incoming (ambient) catalogue (repeatable; default: lint.ambient)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return argErr(c, "unexpected argument %q (the agent is given with --agent)", c.Args().First())
			}
			a, err := catalog.ReadAgent(c.String("agent"))
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			ls := lint.FromSet(e.cfg.Options)
			ambient := ls.Ambient
			if c.IsSet("ambient") {
				ambient = c.StringSlice("ambient")
			}
			lo := catalog.ResolveLoadout(a, catalog.LoadoutOptions{
				Ambient: ambient, HasAmbient: len(ambient) > 0,
				Walk: catalog.WalkOptions{MaxDepth: ls.MaxDepth, MaxFiles: ls.MaxFiles},
			})
			diags := lint.LoadoutDiagnostics(lo)
			o := catrender.Options{Color: e.color, Quiet: e.quiet}
			if e.format == "json" {
				err = writeJSON(e, catrender.LoadoutJSON(lo, diags))
			} else {
				err = catrender.LoadoutText(e.stdout, lo, diags, o)
			}
			if err != nil {
				return err
			}
			if !lo.Resolved {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}
