package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/untrusted"
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
			"process it started) and ends the command with exit code 2. Rejected answers are\n" +
			"moved aside to DIR/responses/ID.rejected-N.json, never deleted. A profile path taken\n" +
			"from catalog.profile must stay inside the configuration file's folder.\n\n" +
			"Examples:\n" +
			"  skillopt catalog init --skills skills/ --dir .skillopt/init\n" +
			"  skillopt catalog init --skills skills/ --responses .skillopt/init\n" +
			"  skillopt catalog init --skills skills/ --exec './ask-model.sh'",
		Flags: append(sourceFlags(), providerFlag(),
			&cli.StringFlag{Name: "dir", Value: ".skillopt/init", Usage: "work folder for requests, responses and state"},
			&cli.StringFlag{Name: "responses", Usage: "absorb the answers in `DIR`/responses"},
			&cli.StringFlag{Name: "exec", Usage: "run `CMD` (through sh -c) for every request"},
			&cli.DurationFlag{Name: "exec-timeout", Value: 10 * time.Minute, Usage: "stop an --exec run after this long (0: no limit)"},
			&cli.StringFlag{Name: "model", Usage: "model named in the requests"},
		),
		Action: func(c *cli.Context) error { return e.runCatalogInit(c) },
	}
}

// configuredProfile returns the profile path set by catalog.profile in the
// configuration at cfgPath, which catalog init writes. A configuration can
// come with a cloned repository, so the path must stay inside the
// configuration's folder: relative, no "..", and no symlinked folder on the
// way that leads out of it.
func configuredProfile(cfgPath, p string) (string, error) {
	if cfgPath == "" {
		return p, nil // a built-in default, not a file's
	}
	local, err := untrusted.Rel(filepath.ToSlash(p))
	if err != nil {
		return "", fmt.Errorf("%s: catalog.profile %v: catalog init writes a configured profile only inside the configuration's folder (pass --profile to choose another place)", cfgPath, err)
	}
	base := filepath.Dir(cfgPath)
	path := filepath.Join(base, local)
	// The deepest folder of the path that exists must resolve inside base.
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		_, err := untrusted.Within(base, dir)
		if err == nil {
			break
		}
		if errors.Is(err, untrusted.ErrOutside) {
			return "", fmt.Errorf("%s: catalog.profile %q leads out of the configuration's folder through a symbolic link (pass --profile to choose another place)", cfgPath, p)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == base || dir == filepath.Dir(dir) {
			return "", fmt.Errorf("%s: catalog.profile %q: %v", cfgPath, p, err)
		}
	}
	// The profile itself may be a symlink: atomicfile replaces the link,
	// but reading it first must not leave the folder either.
	if _, err := os.Lstat(path); err == nil {
		if _, err := untrusted.Within(base, path); err != nil {
			return "", fmt.Errorf("%s: catalog.profile %q leads out of the configuration's folder through a symbolic link (pass --profile to choose another place)", cfgPath, p)
		}
	}
	return path, nil
}

// runCatalogInit prepares, absorbs or executes card generation (see
// catalogInitCommand).
func (e *env) runCatalogInit(c *cli.Context) error {
	if err := e.setup(c, "text"); err != nil {
		return err
	}
	dir := c.String("dir")
	if r := c.String("responses"); r != "" {
		dir = r
	}
	if c.Duration("exec-timeout") < 0 {
		return usageErr("--exec-timeout %v must not be negative", c.Duration("exec-timeout"))
	}
	profPath := c.String("profile")
	if prof := e.catalogSettings().Profile; profPath == "" && prof != "" {
		p, err := configuredProfile(e.cfg.Path, prof)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		profPath = p
	}
	if profPath == "" {
		profPath = filepath.Join(filepath.Dir(dir), "cards.json")
	}
	prof := catalog.NewProfile()
	if _, err := os.Stat(profPath); err == nil {
		p, err := catalog.LoadProfile(profPath)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		prof = p
	}
	// Every eligible skill is considered; Plan skips current cards.
	snap, _, _, err := e.snapshotNoProfile(c)
	if err != nil {
		return err
	}
	prov := lookup(c, "provider")
	in := &catalog.Initializer{Dir: dir, Profile: profPath, Provider: prov, Model: c.String("model"), Snap: snap}
	st, err := in.Plan(prof)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	report := func() {
		p := catalog.ProgressOf(st)
		fmt.Fprintf(e.stderr, "cards: %d/%d groups accepted (%d/%d skills), %d pending, %d failed\n", p.Accepted, p.Groups, p.Carded, p.Skills, p.Pending, p.Failed)
	}
	switch {
	case c.String("exec") != "":
		start := time.Now()
		for round := 0; ; round++ {
			ids := catalog.PendingIDs(st)
			if len(ids) == 0 {
				break
			}
			for _, id := range ids {
				req, err := in.ReadRequest(id)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				out, err := runShell(c.String("exec"), req, e.stderr, c.Duration("exec-timeout"), maxExecOutput)
				if err != nil {
					return &exitError{code: exitUsage, err: fmt.Errorf("--exec for group %s: %v", id, err)}
				}
				respPath, err := in.ResponsePath(id)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				os.MkdirAll(filepath.Join(dir, "responses"), 0o755)
				if err := atomicfile.WriteFile(respPath, out, 0o644); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				if _, _, err := in.Absorb(st, prof); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				if isTTY(e.stderr) {
					p := catalog.ProgressOf(st)
					fmt.Fprintf(e.stderr, "\rcards: %d/%d groups, %s elapsed ", p.Accepted, p.Groups, time.Since(start).Round(time.Second))
				}
			}
			if round > catalog.MaxExtraCalls+catalog.MaxAttempts {
				break
			}
		}
		if isTTY(e.stderr) {
			fmt.Fprintln(e.stderr)
		}
		report()
	case c.String("responses") != "":
		acc, rej, err := in.Absorb(st, prof)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		fmt.Fprintf(e.stdout, "%d group(s) accepted, %d rejected (retry requests written to %s)\n", acc, rej, filepath.Join(dir, "requests"))
		report()
	default:
		fmt.Fprintf(e.stdout, "%d request(s) in %s; answer each in %s/ID.json, then run skillopt catalog init --responses %s\n", len(catalog.PendingIDs(st)), filepath.Join(dir, "requests"), filepath.Join(dir, "responses"), dir)
		report()
	}
	if p := catalog.ProgressOf(st); p.Failed > 0 {
		return e.finish(findings)
	}
	return nil
}
