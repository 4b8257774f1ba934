package main

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
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
			if e.format == "json" {
				out := struct {
					Agent       string                 `json:"agent"`
					Mode        string                 `json:"mode"`
					Resolved    bool                   `json:"resolved"`
					Unchanged   bool                   `json:"unchanged"`
					Skills      []catalog.LoadoutEntry `json:"skills"`
					Pending     []string               `json:"pending"`
					Diagnostics []loadoutDiag          `json:"diagnostics"`
				}{a.Path, lo.Mode, lo.Resolved, lo.Unchanged, lo.Entries, lo.Pending, []loadoutDiag{}}
				if out.Skills == nil {
					out.Skills = []catalog.LoadoutEntry{}
				}
				if out.Pending == nil {
					out.Pending = []string{}
				}
				for _, d := range diags {
					out.Diagnostics = append(out.Diagnostics, loadoutDiag{d.Rule, d.Severity.String(), d.File, d.Line, d.Column, d.Message})
				}
				if err := writeJSON(e, out); err != nil {
					return err
				}
			} else {
				writeLoadoutText(e.stdout, lo, diags, e)
			}
			if !lo.Resolved {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// loadoutDiag is one diagnostic in the JSON output, fields in the
// documented order.
type loadoutDiag struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// writeLoadoutText prints a resolved loadout like an /agent-skills report.
func writeLoadoutText(w io.Writer, lo *catalog.Loadout, diags []rules.Diagnostic, e *env) {
	fmt.Fprintf(w, "agent: %s\n", escape.Text(lo.Agent.Path))
	mode := lo.Mode
	if lo.Agent.Valid() {
		mode += fmt.Sprintf(" (inheritSkills: %t)", lo.Agent.Inherit)
	}
	fmt.Fprintf(w, "mode: %s\n", mode)
	errs := 0
	for _, d := range diags {
		if d.Severity == rules.Error {
			errs++
		}
	}
	switch {
	case !lo.Resolved:
		fmt.Fprintf(w, "status: %s (%s)\n", e.paint(red, "unresolved"), plural(errs, "error"))
	case len(lo.Pending) > 0:
		fmt.Fprintf(w, "status: resolved, %d pending on the ambient skills\n", len(lo.Pending))
	default:
		fmt.Fprintf(w, "status: resolved\n")
	}
	if lo.Resolved {
		switch {
		case lo.Unchanged && len(lo.Entries) == 0:
			fmt.Fprintln(w, "skills: the incoming (ambient) catalogue, unchanged")
		case len(lo.Entries) == 0 && len(lo.Pending) == 0:
			fmt.Fprintln(w, "skills: none")
		default:
			fmt.Fprintln(w, "skills:")
			width := 0
			for _, en := range lo.Entries {
				width = max(width, utf8.RuneCountInString(escape.Text(en.Name)))
			}
			for _, en := range lo.Entries {
				note := en.From
				if en.Disabled {
					note += ", disabled: not advertised"
				}
				fmt.Fprintf(w, "  %s  %s  (%s)\n", padRight(escape.Text(en.Name), width), escape.Text(en.Path), escape.Text(note))
			}
			for _, p := range lo.Pending {
				fmt.Fprintf(w, "  %s  (pending: from the ambient skills at run time)\n", padRight(escape.Text(p), width))
			}
		}
	}
	if len(diags) > 0 {
		fmt.Fprintln(w, "diagnostics:")
		for _, d := range diags {
			fmt.Fprintf(w, "  %s:%d:%d: %s %s: %s\n", escape.Text(d.File), d.Line, d.Column, d.Rule, d.Severity, escape.Text(d.Message))
		}
	}
}
