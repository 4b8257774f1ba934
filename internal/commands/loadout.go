package commands

import (
	"io"
	"os"
	"path/filepath"

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
		Description: "Reads the agent definition (--agent FILE, or --agent NAME looked up as the host does:\n" +
			"NAME.md in the project's .pi/agents and in ~/.pi/agent/agents; a trusted project's\n" +
			"definition shadows the global one of the same file name, valid or not, and is never merged\n" +
			"with it; an untrusted project's is ignored. The project is the working directory, trusted\n" +
			"with --trust-project or when lint.trusted_projects lists it), checks inheritSkills, skills and skillPath,\n" +
			"discovers the private candidates on its skillPath entries (relative to the agent file's\n" +
			"folder, no ~ or $VAR expansion) and resolves each selected name: one valid private\n" +
			"candidate first, else one enabled skill of the ambient folders (--ambient, or\n" +
			"lint.ambient). Without ambient folders such names are pending, as in a switch-time\n" +
			"check. Prints the mode, the advertised names and paths, and the diagnostics (AGxxx).\n" +
			"Exit 1 when the loadout is unresolved (an error), 2 when the file cannot be read.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt catalog loadout --agent .pi/agents/reviewer.md\n" +
			"  skillopt catalog loadout --agent reviewer --trust-project\n" +
			"  skillopt catalog loadout --agent reviewer.md --ambient ~/.pi/agent/skills --format json",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "agent", Usage: "the agent definition: a file (markdown with frontmatter) or the `NAME` of one in .pi/agents or ~/.pi/agent/agents", Required: true},
			&cli.BoolFlag{Name: "trust-project", Usage: "use the working directory's .pi/agents definitions (default: when lint.trusted_projects lists it)"},
			&cli.StringFlag{Name: "global-agents", Usage: "folder of the global agent definitions (default: ~/.pi/agent/agents)"},
			&cli.StringSliceFlag{Name: "ambient", Aliases: []string{"skills"}, Usage: "skill folder of the incoming (ambient) catalogue (repeatable; default: lint.ambient)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return argErr(c, "unexpected argument %q (the agent is given with --agent)", c.Args().First())
			}
			ls := lint.FromSet(e.cfg.Options)
			def, err := catalog.FindAgent(c.String("agent"), e.agentDirs(c, ls))
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			a, err := catalog.ReadAgent(def.Path)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			ambient := ls.Ambient
			if c.IsSet("ambient") {
				ambient = c.StringSlice("ambient")
			}
			lo := catalog.ResolveLoadout(a, catalog.LoadoutOptions{
				Ambient: ambient, HasAmbient: len(ambient) > 0,
				Walk: catalog.WalkOptions{MaxDepth: ls.MaxDepth, MaxFiles: ls.MaxFiles},
			})
			if def.Scope != "file" {
				lo.Definition = &def
			}
			diags := lint.LoadoutDiagnostics(lo)
			o := catrender.Options{Color: e.color, Quiet: e.quiet}
			err = e.show(catrender.LoadoutJSON(lo, diags), func(w io.Writer) error { return catrender.LoadoutText(w, lo, diags, o) })
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

// agentDirs are where --agent NAME is looked up: the working directory's
// project, trusted by flag or configuration, and the global folder.
func (e *env) agentDirs(c *cli.Context, ls *lint.Settings) catalog.AgentDirs {
	d := catalog.AgentDirs{Project: ".", Global: c.String("global-agents")}
	if d.Global == "" {
		if home, err := os.UserHomeDir(); err == nil {
			d.Global = filepath.Join(home, ".pi", "agent", "agents")
		}
	}
	trusted := make([]string, len(ls.TrustedProjects))
	for i, p := range ls.TrustedProjects {
		trusted[i] = e.cfg.Resolve(p)
	}
	d.Trusted = c.Bool("trust-project") || catalog.TrustedProject(d.Project, trusted)
	return d
}
