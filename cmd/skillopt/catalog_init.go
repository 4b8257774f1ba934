package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/shell"
	"github.com/skillopt/skillopt/internal/untrusted"
	catalogrules "github.com/skillopt/skillopt/transform/catalog"
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

// configuredProfile returns the profile path set by catalog.profile in the
// configuration at cfgPath, which catalog init writes. A configuration can
// come with a cloned repository, so the path must stay inside the
// configuration's folder: relative, no "..", and no symlinked folder on the
// way that leads out of it.
func configuredProfile(cfgPath, p string) (string, error) {
	if cfgPath == "" {
		return p, nil // a built-in default, not a file's
	}
	if _, err := untrusted.Rel(filepath.ToSlash(p)); err != nil {
		return "", fmt.Errorf("%s: catalog.profile %v: catalog init writes a configured profile only inside the configuration's folder (pass --profile to choose another place)", cfgPath, err)
	}
	path, err := untrusted.Confine(filepath.Dir(cfgPath), p)
	switch {
	case errors.Is(err, untrusted.ErrOutside):
		return "", fmt.Errorf("%s: catalog.profile %q leads out of the configuration's folder through a symbolic link (pass --profile to choose another place)", cfgPath, p)
	case err != nil:
		return "", fmt.Errorf("%s: catalog.profile %q: %v", cfgPath, p, err)
	}
	return path, nil
}

// runCatalogInit prepares, absorbs or executes card generation (see
// catalogInitCommand).
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
	profPath, configured, prof, err := e.initProfile(c, dir)
	if err != nil {
		return err
	}
	// Every eligible skill is considered; Plan skips current cards.
	snap, _, _, err := e.snapshotNoProfile(c)
	if err != nil {
		return err
	}
	prov := lookup(c, "provider")
	// What the progress lines of --exec count, and the outcome of every
	// answer read.
	var step, steps, answers int
	in := &catalog.Initializer{Dir: dir, Profile: profPath, Provider: prov, Model: c.String("model"), Snap: snap,
		OnAnswer: func(o catalog.AnswerOutcome) {
			answers++
			if steps > 0 {
				printLines(e.stderr, "group %d/%d %s (%s): %s\n", step, steps, o.Group, plural(o.Skills, "skill"), outcomeText(o, dir))
				return
			}
			printLines(e.stdout, "%s (%s): %s\n", o.Group, plural(o.Skills, "skill"), outcomeText(o, dir))
		}}
	st, err := in.Plan(prof)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	report := func() {
		p := catalog.ProgressOf(st)
		printLines(e.stderr, "cards: %d/%d groups accepted (%d/%d skills), %d pending, %d failed\n", p.Accepted, p.Groups, p.Carded, p.Skills, p.Pending, p.Failed)
	}
	again := "skillopt catalog init" + sourceArgs(c) + " --responses " + shellQuote(dir)
	switch {
	case c.String("exec") != "":
		err := e.execAnswers(c, in, st, prof, func(i, n int) { step, steps = i, n })
		if err != nil {
			return err
		}
		report()
	case c.String("responses") != "":
		acc, rej, err := in.Absorb(st, prof)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		e.absorbed(st, dir, again, acc, rej, answers)
		report()
	default:
		n := len(catalog.PendingIDs(st))
		if n == 0 {
			fmt.Fprintln(e.stdout, "every eligible skill has a current card: nothing to ask")
		} else {
			printLines(e.stdout, "%s in %s; answer each in %s with the same file name (ID.json), then run:\n  %s\n",
				plural(n, "request"), filepath.Join(dir, "requests"), filepath.Join(dir, "responses"), again)
		}
		report()
	}
	// Once some cards exist: where they are, and how the commands that
	// use them find them. (Read back: what the next command will read.)
	if carded := countCarded(profPath, snap); carded > 0 {
		e.profileNext(profPath, configured, carded)
	}
	if p := catalog.ProgressOf(st); p.Failed > 0 {
		return e.finish(findings)
	}
	return nil
}

// initProfile finds the card profile of catalog init: --profile, else
// catalog.profile of the configuration (configured), else cards.json
// beside dir; and reads it when it exists.
func (e *env) initProfile(c *cli.Context, dir string) (path string, configured bool, prof *catalog.Profile, err error) {
	path = c.String("profile")
	if p := e.catalogSettings().Profile; path == "" && p != "" {
		if path, err = configuredProfile(e.cfg.Path, p); err != nil {
			return "", false, nil, &exitError{code: exitUsage, err: err}
		}
		configured = true
	}
	if path == "" {
		path = filepath.Join(filepath.Dir(dir), "cards.json")
	}
	prof = catalog.NewProfile()
	if _, err := os.Stat(path); err == nil {
		if prof, err = catalog.LoadProfile(path); err != nil {
			return "", false, nil, &exitError{code: exitUsage, err: err}
		}
	}
	return path, configured, prof, nil
}

// maxExecOutput bounds what one --exec run may print: an answer of a few
// thousand cards is well under a megabyte.
const maxExecOutput = 8 << 20

// execAnswers answers every pending request with the --exec command, in
// rounds until none is pending (retries and splits add requests) or the
// attempts are spent; progress(i, n) is called before the i-th of n
// requests of a round, and with (0, 0) at the end.
func (e *env) execAnswers(c *cli.Context, in *catalog.Initializer, st *catalog.InitState, prof *catalog.Profile, progress func(i, n int)) error {
	defer progress(0, 0)
	for round := 0; ; round++ {
		ids := catalog.PendingIDs(st)
		if len(ids) == 0 {
			return nil
		}
		for i, id := range ids {
			progress(i+1, len(ids))
			req, err := in.ReadRequest(id)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			out, err := shell.Run(c.String("exec"), req, e.stderr, c.Duration("exec-timeout"), maxExecOutput)
			if errors.Is(err, shell.ErrTimeout) {
				err = fmt.Errorf("no answer within %v (--exec-timeout); stopped", c.Duration("exec-timeout"))
			}
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("--exec for group %s: %v", id, err)}
			}
			respPath, err := in.ResponsePath(id)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			os.MkdirAll(filepath.Join(in.Dir, "responses"), 0o755)
			if err := atomicfile.WriteFile(respPath, out, 0o644); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", respPath, err)}
			}
			if _, _, err := in.Absorb(st, prof); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
		}
		if round > catalog.MaxExtraCalls+catalog.MaxAttempts {
			return nil
		}
	}
}

// absorbed says what reading the answers did and what is left to answer.
func (e *env) absorbed(st *catalog.InitState, dir, again string, acc, rej, answers int) {
	pending := len(catalog.PendingIDs(st))
	printLines(e.stdout, "%s accepted, %d rejected\n", plural(acc, "group"), rej)
	switch {
	case answers == 0 && pending > 0:
		printLines(e.stdout, "no answers in %s: answer each request of %s in %s with the same file name, then run:\n  %s\n",
			filepath.Join(dir, "responses"), filepath.Join(dir, "requests"), filepath.Join(dir, "responses"), again)
	case pending > 0:
		printLines(e.stdout, "%s still to answer in %s; answers go in %s, then run:\n  %s\n",
			plural(pending, "request"), filepath.Join(dir, "requests"), filepath.Join(dir, "responses"), again)
	}
}

// countCarded is how many skills of snap have a current card in the
// profile saved at path (what the next command will read).
func countCarded(path string, snap *catalog.Snapshot) int {
	saved, err := catalog.LoadProfile(path)
	if err != nil {
		return 0
	}
	n := 0
	for _, sk := range snap.Skills {
		if _, ok := saved.Current(sk); ok {
			n++
		}
	}
	return n
}

// outcomeText says what became of an answer: accepted, or rejected with
// the reasons, where the answer went and what happens next.
func outcomeText(o catalog.AnswerOutcome, dir string) string {
	if o.Accepted {
		return "accepted"
	}
	reason := strings.Join(o.Problems, "; ")
	if len([]rune(reason)) > 400 {
		reason = string([]rune(reason)[:397]) + "..."
	}
	msg := "rejected: " + reason
	if o.Next == "resend" {
		msg = "not answered: " + reason
	}
	if o.SetAside != "" {
		msg += "; answer kept as " + o.SetAside
	}
	switch o.Next {
	case "retry":
		msg += "; a retry request with this feedback is in " + filepath.Join(dir, "requests", o.Group+".json")
	case "split":
		msg += "; split into two smaller requests in " + filepath.Join(dir, "requests")
	case "failed":
		msg += "; no more attempts for this group"
	case "resend":
		msg += "; the request is unchanged, to be sent again"
	}
	return msg
}

// sourceArgs repeats the flags that chose the skills, for the next command
// to print.
func sourceArgs(c *cli.Context) string {
	var b strings.Builder
	for _, s := range c.StringSlice("skills") {
		b.WriteString(" --skills " + shellQuote(s))
	}
	if f := c.String("from"); f != "" {
		b.WriteString(" --from " + shellQuote(f))
	}
	if p := c.String("profile"); p != "" {
		b.WriteString(" --profile " + shellQuote(p))
	}
	if p := lookup(c, "provider"); p != "" {
		b.WriteString(" --provider " + shellQuote(p))
	}
	return b.String()
}

// shellQuote quotes a word for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// profileNext says where the cards are and makes sure the commands that
// use them (SO102, catalog browse) find them: catalog.profile is set in
// the configuration when it can be, or the exact line to add is printed.
func (e *env) profileNext(profPath string, configured bool, carded int) {
	printLines(e.stdout, "profile: %s (%s with a card)\n", profPath, plural(carded, "skill"))
	if configured {
		printLines(e.stdout, "catalog.profile of %s names it: SO102 and catalog browse use the cards\n", e.cfg.Path)
		return
	}
	cfgPath := e.cfg.Path
	if cfgPath == "" {
		printLines(e.stdout, "to use the cards (SO102, catalog browse), put these lines in skillopt.toml (`skillopt init` writes one):\n  [catalog]\n  profile = %s\n", config.TOMLString(filepath.ToSlash(profPath)))
		return
	}
	rel, err := filepath.Rel(filepath.Dir(mustAbs(cfgPath)), mustAbs(profPath))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		printLines(e.stdout, "the profile is outside the folder of %s, where catalog init keeps a configured profile: pass --profile %s to the commands that use it\n", cfgPath, shellQuote(profPath))
		return
	}
	rel = filepath.ToSlash(rel)
	if cur := e.catalogSettings().Profile; cur != "" {
		printLines(e.stdout, "catalog.profile of %s names %q, not this profile: to use it, change that line to\n  profile = %s\n", cfgPath, cur, config.TOMLString(rel))
		return
	}
	if err := setCatalogProfile(cfgPath, rel); err != nil {
		printLines(e.stdout, "to use the cards (SO102, catalog browse), add under [catalog] in %s:\n  profile = %s\n", cfgPath, config.TOMLString(rel))
		return
	}
	printLines(e.stdout, "set catalog.profile = %s in %s: SO102 and catalog browse use the cards\n", config.TOMLString(rel), cfgPath)
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// setCatalogProfile sets catalog.profile in the configuration file at
// path (see config.EditString).
func setCatalogProfile(path, value string) error {
	return config.EditString(path, "catalog", "profile", value, ruleset.Registry().Binding(), func(cfg *config.Config) bool {
		return catalogrules.FromSet(cfg.Options).Profile == value
	})
}
