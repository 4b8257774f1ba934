package commands

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/completion"
	"github.com/skillopt/skillopt/internal/suggest"
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: "The script completes commands, subcommands, flags, the values of flags that take a\n" +
			"fixed set (--format, --color, --provider, --tier, --profile, --match) and file names\n" +
			"elsewhere. It is generated from the commands of this binary, so regenerate it after an\n" +
			"upgrade.\n\n" +
			"Examples:\n" +
			"  skillopt completion bash > ~/.local/share/bash-completion/completions/skillopt\n" +
			"  skillopt completion zsh > \"${fpath[1]}/_skillopt\"\n" +
			"  skillopt completion fish > ~/.config/fish/completions/skillopt.fish\n" +
			"  source <(skillopt completion bash)",
		Flags: []cli.Flag{formats("", "text")},
		Action: func(c *cli.Context) error {
			if err := e.options(c); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageErr("want one shell: bash, zsh or fish (see `skillopt completion --help`)")
			}
			t := completionTree(c.App)
			switch sh := c.Args().First(); sh {
			case "bash":
				return completion.Bash(e.stdout, t)
			case "zsh":
				return completion.Zsh(e.stdout, t)
			case "fish":
				return completion.Fish(e.stdout, t)
			default:
				return usageErr("unknown shell %q%s: want bash, zsh or fish", sh, suggest.DidYouMean(sh, []string{"bash", "zsh", "fish"}))
			}
		},
	}
}

func manCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "man",
		Usage: "print the manual page (roff)",
		Description: "Prints skillopt(1) in roff, generated from the commands of this binary.\n\n" +
			"Examples:\n" +
			"  skillopt man | man -l -\n" +
			"  skillopt man > ~/.local/share/man/man1/skillopt.1",
		Flags: []cli.Flag{formats("", "text")},
		Action: func(c *cli.Context) error {
			if err := e.options(c); err != nil {
				return err
			}
			if c.NArg() != 0 {
				return usageErr("man takes no arguments (see `skillopt man --help`)")
			}
			return completion.Man(e.stdout, completionTree(c.App))
		},
	}
}

// flagValues are the fixed values some flags take on every command;
// --format takes the formats of its command (see formatFlag).
var flagValues = map[string][]string{
	"--color":    {"auto", "always", "never"},
	"--provider": {"anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "pi-messages"},
	"--tier":     {"cheap", "balanced", "frontier"},
	"--match":    {"any", "all"},
	"--encoding": {"o200k_base", "cl100k_base", "none"},
}

// commandValues are the fixed values of a flag on one command only.
var commandValues = map[string]map[string][]string{
	"lint": {"--profile": {"default", "skills-ref"}},
}

var (
	helpFlag    = completion.Flag{Names: []string{"--help", "-h"}, Usage: "show help", Global: true}
	versionFlag = completion.Flag{Names: []string{"--version", "-v"}, Usage: "print the version", Global: true}
)

// completionTree describes the app's commands (global flags already added
// to each by newApp) for the completion scripts and the manual page.
func completionTree(app *cli.App) *completion.Command {
	root := &completion.Command{Usage: app.Usage, Description: app.Description, Flags: compFlags("", app.Flags)}
	root.Flags = append(root.Flags, helpFlag, versionFlag)
	var walk func(parent *completion.Command, path string, cmds []*cli.Command)
	walk = func(parent *completion.Command, path string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			p := strings.TrimSpace(path + " " + c.Name)
			n := &completion.Command{Name: c.Name, Usage: c.Usage, ArgsUsage: c.ArgsUsage, Description: c.Description, Flags: compFlags(p, c.Flags)}
			n.Flags = append(n.Flags, helpFlag)
			parent.Subs = append(parent.Subs, n)
			walk(n, p, c.Subcommands)
		}
	}
	walk(root, "", app.Commands)
	return root
}

// compFlags describes the flags of the command at path ("" for the
// program), leaving out the help and version flags, which the tree adds.
func compFlags(path string, flags []cli.Flag) []completion.Flag {
	global := map[string]bool{}
	for _, g := range globalFlags() {
		global[g.Names()[0]] = true
	}
	var out []completion.Flag
	seen := map[string]bool{}
	for _, f := range flags {
		if slices.Contains(f.Names(), "help") || path == "" && slices.Contains(f.Names(), "version") {
			continue
		}
		var cf completion.Flag
		for _, n := range f.Names() {
			if seen[n] {
				continue
			}
			seen[n] = true
			if len(n) == 1 {
				cf.Names = append(cf.Names, "-"+n)
			} else {
				cf.Names = append(cf.Names, "--"+n)
			}
		}
		if len(cf.Names) == 0 {
			continue
		}
		cf.Global = global[f.Names()[0]]
		if df, ok := f.(cli.DocGenerationFlag); ok {
			cf.Usage = df.GetUsage()
			cf.TakesValue = df.TakesValue()
			cf.Default = df.GetDefaultText()
		}
		_, cf.Switch = f.(*cli.BoolFlag)
		switch {
		case commandValues[path][cf.Names[0]] != nil:
			cf.Values = commandValues[path][cf.Names[0]]
		case flagValues[cf.Names[0]] != nil:
			cf.Values = flagValues[cf.Names[0]]
		}
		if ff, ok := f.(*formatFlag); ok {
			cf.Values = ff.formats
		}
		out = append(out, cf)
	}
	return out
}
