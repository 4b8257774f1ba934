package commands

import (
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/cardinit"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

func catalogInitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "prepare card-generation requests, and absorb the answers into the card profile",
		Description: "Card generation is explicit model work that skillopt prepares but never sends itself.\n" +
			"Without --responses or --exec it groups the eligible skills that lack a current card\n" +
			"(at most 20 skills and 32 KiB of input per group) and writes one provider request body\n" +
			"per group to DIR/requests/ID.json. Put each answer (a raw provider response or bare\n" +
			"{\"cards\":[…]} JSON) in DIR/responses/ID.json and run with --responses DIR: a group is\n" +
			"accepted only when every skill is covered exactly once with a valid card and 1-3 tags;\n" +
			"accepted groups are saved to the profile at once; rejected groups get one retry request\n" +
			"with feedback, then are split, within 8 extra calls per group. --exec CMD runs CMD once\n" +
			"per request (request on stdin, answer on stdout) until nothing is pending; a run that\n" +
			"takes longer than --exec-timeout or prints more than 8 MiB is stopped (with every\n" +
			"process it started) and ends the command with exit code 2; each answer gets a line\n" +
			"`group 3/7 ID (N skills): accepted` (or rejected, with the reasons) on standard error.\n" +
			"Rejected answers are moved aside to DIR/responses/ID.rejected-N.json, never deleted,\n" +
			"and their reasons printed. Every run ends with the command to run next.\n\n" +
			"The profile is --profile, else catalog.profile, else cards.json beside DIR. Once it\n" +
			"holds cards, catalog.profile is set in the skillopt.toml in use when it is unset there\n" +
			"(or the line to add is printed), so that SO102 and catalog browse find the cards. A\n" +
			"profile path taken from catalog.profile must stay inside the configuration file's\n" +
			"folder.\n\n" +
			"Examples:\n" +
			"  skillopt catalog init --skills skills/ --dir .skillopt/init\n" +
			"  skillopt catalog init --skills skills/ --responses .skillopt/init\n" +
			"  skillopt catalog init --skills skills/ --exec './ask-model.sh'",
		Flags: append(sourceFlags(), providerFlag(), formats("", "text"),
			&cli.StringFlag{Name: "dir", Value: ".skillopt/init", Usage: "work folder for requests, responses and state"},
			&cli.StringFlag{Name: "responses", Usage: "absorb the answers in `DIR`/responses"},
			&cli.StringFlag{Name: "exec", Usage: "run `CMD` (through sh -c) for every request"},
			&cli.DurationFlag{Name: "exec-timeout", Value: 10 * time.Minute, Usage: "stop an --exec run after this long (0: no limit)"},
			&cli.StringFlag{Name: "model", Usage: "model named in the requests"},
		),
		Action: func(c *cli.Context) error { return e.runCatalogInit(c) },
	}
}

// runCatalogInit prepares, absorbs or executes card generation (see
// catalogInitCommand and internal/cardinit).
func (e *env) runCatalogInit(c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	dir := c.String("dir")
	if r := c.String("responses"); r != "" {
		dir = r
	}
	if c.Duration("exec-timeout") < 0 {
		return usageErr("--exec-timeout %v must not be negative", c.Duration("exec-timeout"))
	}
	in, err := cardinit.New(cardinit.Options{
		Dir: dir, Absorb: c.String("responses") != "", Exec: c.String("exec"), Timeout: c.Duration("exec-timeout"),
		Profile: c.String("profile"), ConfigPath: e.cfg.Path, ConfigProfile: e.catalogSettings().Profile,
		Provider: lookup(c, "provider"), Model: c.String("model"),
		Again:      "skillopt catalog init" + sourceArgs(c) + " --responses " + cardinit.ShellQuote(dir),
		SetProfile: setCatalogProfile, Stdout: e.stdout, Stderr: e.stderr,
	})
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	// Every eligible skill is considered; the plan skips current cards.
	snap, _, _, err := e.snapshotNoProfile(c)
	if err != nil {
		return err
	}
	failed, err := in.Run(snap)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if failed {
		return e.finish(findings)
	}
	return nil
}

// sourceArgs repeats the flags that chose the skills, for the next command
// to print.
func sourceArgs(c *cli.Context) string {
	var b strings.Builder
	for _, s := range c.StringSlice("skills") {
		b.WriteString(" --skills " + cardinit.ShellQuote(s))
	}
	if f := c.String("from"); f != "" {
		b.WriteString(" --from " + cardinit.ShellQuote(f))
	}
	if p := c.String("profile"); p != "" {
		b.WriteString(" --profile " + cardinit.ShellQuote(p))
	}
	if p := lookup(c, "provider"); p != "" {
		b.WriteString(" --provider " + cardinit.ShellQuote(p))
	}
	return b.String()
}

// setCatalogProfile sets catalog.profile in the configuration file at
// path (see config.EditString).
func setCatalogProfile(path, value string) error {
	return config.EditString(path, "catalog", "profile", value, ruleset.Registry().Binding(), func(cfg *config.Config) bool {
		return catalogrules.FromSet(cfg.Options).Profile == value
	})
}
