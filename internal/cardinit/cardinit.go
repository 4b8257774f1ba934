// Package cardinit drives card generation for catalog init: it finds the
// card profile, writes the requests, runs the --exec command over them in
// rounds, absorbs the answers, and tells the user what happened and what
// to run next. The model work itself is never sent from here: a request
// is answered by a person or by the command the user gave.
package cardinit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/shell"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// MaxExecOutput bounds what one --exec run may print: an answer of a few
// thousand cards is well under a megabyte.
const MaxExecOutput = 8 << 20

// Options are one run of catalog init.
type Options struct {
	// Dir is the work folder of requests, responses and state.
	Dir string
	// Absorb reads the answers in Dir/responses.
	Absorb bool
	// Exec, when set, is the command line that answers every request
	// (request on stdin, answer on stdout), stopped after Timeout (0: no
	// limit).
	Exec    string
	Timeout time.Duration
	// Profile is the profile asked for (--profile), "" for the
	// configured one or cards.json beside Dir.
	Profile string
	// ConfigPath is the configuration file in use ("" for the built-in
	// defaults) and ConfigProfile its catalog.profile.
	ConfigPath, ConfigProfile string
	// Provider and Model are named in the requests.
	Provider, Model string
	// Again is the command that continues the run, printed at its end.
	Again string
	// SetProfile sets catalog.profile in the configuration file at path.
	SetProfile func(path, value string) error
	// Stdout and Stderr receive the report and the progress.
	Stdout, Stderr io.Writer
}

// Init is one run of catalog init.
type Init struct {
	Options
	snap       *catalog.Snapshot
	profPath   string
	configured bool
	prof       *catalog.Profile
	in         *catalog.Initializer
	st         *catalog.InitState
	// What the progress lines of --exec count, and the answers read.
	step, steps, answers int
}

// New starts a run of catalog init: it finds the card profile and reads
// it when it exists.
func New(o Options) (*Init, error) {
	r := &Init{Options: o}
	if err := r.findProfile(); err != nil {
		return nil, err
	}
	return r, nil
}

// Run prepares, absorbs or executes card generation for the skills of
// snap. failed reports groups that ran out of attempts; err is a problem
// with the files, the profile or the --exec command.
func (r *Init) Run(snap *catalog.Snapshot) (failed bool, err error) {
	o := r.Options
	r.snap = snap
	r.in = &catalog.Initializer{Dir: o.Dir, Profile: r.profPath, Provider: o.Provider, Model: o.Model, Snap: snap, OnAnswer: r.answered}
	if r.st, err = r.in.Plan(r.prof); err != nil {
		return false, err
	}
	switch {
	case o.Exec != "":
		if err := r.execAnswers(); err != nil {
			return false, err
		}
	case o.Absorb:
		acc, rej, err := r.in.Absorb(r.st, r.prof)
		if err != nil {
			return false, err
		}
		r.absorbed(acc, rej)
	default:
		if n := len(catalog.PendingIDs(r.st)); n == 0 {
			fmt.Fprintln(o.Stdout, "every eligible skill has a current card: nothing to ask")
		} else {
			r.printf(o.Stdout, "%s in %s; answer each in %s with the same file name (ID.json), then run:\n  %s\n",
				plural(n, "request"), filepath.Join(o.Dir, "requests"), filepath.Join(o.Dir, "responses"), o.Again)
		}
	}
	p := catalog.ProgressOf(r.st)
	r.printf(o.Stderr, "cards: %d/%d groups accepted (%d/%d skills), %d pending, %d failed\n", p.Accepted, p.Groups, p.Carded, p.Skills, p.Pending, p.Failed)
	// Once some cards exist: where they are, and how the commands that
	// use them find them. (Read back: what the next command will read.)
	if carded := countCarded(r.profPath, snap); carded > 0 {
		r.profileNext(carded)
	}
	return p.Failed > 0, nil
}

// printf formats a message that is multi-line by design and prints it
// with escape.Lines: the paths, names and model answers in it cannot drive
// the terminal.
func (r *Init) printf(w io.Writer, format string, args ...any) {
	io.WriteString(w, escape.Lines(fmt.Sprintf(format, args...)))
}

// answered reports an answer read: on standard error with the step of
// --exec, else on standard output.
func (r *Init) answered(o catalog.AnswerOutcome) {
	r.answers++
	if r.steps > 0 {
		r.printf(r.Stderr, "group %d/%d %s (%s): %s\n", r.step, r.steps, o.Group, plural(o.Skills, "skill"), outcomeText(o, r.Dir))
		return
	}
	r.printf(r.Stdout, "%s (%s): %s\n", o.Group, plural(o.Skills, "skill"), outcomeText(o, r.Dir))
}

// findProfile finds the card profile: Profile, else the configured one,
// else cards.json beside Dir; and reads it when it exists.
func (r *Init) findProfile() error {
	r.profPath = r.Profile
	if r.profPath == "" && r.ConfigProfile != "" {
		p, err := ConfiguredProfile(r.ConfigPath, r.ConfigProfile)
		if err != nil {
			return err
		}
		r.profPath, r.configured = p, true
	}
	if r.profPath == "" {
		r.profPath = filepath.Join(filepath.Dir(r.Dir), "cards.json")
	}
	r.prof = catalog.NewProfile()
	if _, err := os.Stat(r.profPath); err == nil {
		p, err := catalog.LoadProfile(r.profPath)
		if err != nil {
			return err
		}
		r.prof = p
	}
	return nil
}

// execAnswers answers every pending request with the Exec command, in
// rounds until none is pending (retries and splits add requests) or the
// attempts are spent.
func (r *Init) execAnswers() error {
	defer func() { r.step, r.steps = 0, 0 }()
	for round := 0; ; round++ {
		ids := catalog.PendingIDs(r.st)
		if len(ids) == 0 {
			return nil
		}
		r.steps = len(ids)
		for i, id := range ids {
			r.step = i + 1
			if err := r.execOne(id); err != nil {
				return err
			}
		}
		if round > catalog.MaxExtraCalls+catalog.MaxAttempts {
			return nil
		}
	}
}

// execOne answers the request of group id with the Exec command and
// absorbs the answer.
func (r *Init) execOne(id string) error {
	req, err := r.in.ReadRequest(id)
	if err != nil {
		return err
	}
	out, err := shell.Run(r.Exec, req, r.Stderr, r.Timeout, MaxExecOutput)
	if errors.Is(err, shell.ErrTimeout) {
		err = fmt.Errorf("no answer within %v (--exec-timeout); stopped", r.Timeout)
	}
	if err != nil {
		return fmt.Errorf("--exec for group %s: %v", id, err)
	}
	respPath, err := r.in.ResponsePath(id)
	if err != nil {
		return err
	}
	os.MkdirAll(filepath.Join(r.Dir, "responses"), 0o755)
	if err := atomicfile.WriteFile(respPath, out, 0o644); err != nil {
		return fmt.Errorf("%s: %w", respPath, err)
	}
	_, _, err = r.in.Absorb(r.st, r.prof)
	return err
}

// absorbed says what reading the answers did and what is left to answer.
func (r *Init) absorbed(acc, rej int) {
	pending := len(catalog.PendingIDs(r.st))
	r.printf(r.Stdout, "%s accepted, %d rejected\n", plural(acc, "group"), rej)
	requests, responses := filepath.Join(r.Dir, "requests"), filepath.Join(r.Dir, "responses")
	switch {
	case r.answers == 0 && pending > 0:
		r.printf(r.Stdout, "no answers in %s: answer each request of %s in %s with the same file name, then run:\n  %s\n",
			responses, requests, responses, r.Again)
	case pending > 0:
		r.printf(r.Stdout, "%s still to answer in %s; answers go in %s, then run:\n  %s\n",
			plural(pending, "request"), requests, responses, r.Again)
	}
}

// profileNext says where the cards are and makes sure the commands that
// use them (SO102, catalog browse) find them: catalog.profile is set in
// the configuration when it can be, or the exact line to add is printed.
func (r *Init) profileNext(carded int) {
	w, profPath, cfgPath := r.Stdout, r.profPath, r.ConfigPath
	r.printf(w, "profile: %s (%s with a card)\n", profPath, plural(carded, "skill"))
	if !r.configured && r.ConfigProfile != "" {
		// --profile may name the configured profile itself.
		if p, err := ConfiguredProfile(cfgPath, r.ConfigProfile); err == nil && sameFile(p, profPath) {
			r.configured = true
		}
	}
	if r.configured {
		r.printf(w, "catalog.profile of %s names it: SO102 and catalog browse use the cards\n", cfgPath)
		return
	}
	if cfgPath == "" {
		r.printf(w, "to use the cards (SO102, catalog browse), put these lines in skillopt.toml (`skillopt init` writes one):\n  [catalog]\n  profile = %s\n", config.TOMLString(filepath.ToSlash(profPath)))
		return
	}
	rel, err := filepath.Rel(filepath.Dir(mustAbs(cfgPath)), mustAbs(profPath))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		r.printf(w, "the profile is outside the folder of %s, where catalog init keeps a configured profile: pass --profile %s to the commands that use it\n", cfgPath, ShellQuote(profPath))
		return
	}
	rel = filepath.ToSlash(rel)
	if cur := r.ConfigProfile; cur != "" {
		r.printf(w, "catalog.profile of %s names %q, not this profile: to use it, change that line to\n  profile = %s\n", cfgPath, cur, config.TOMLString(rel))
		return
	}
	if err := r.SetProfile(cfgPath, rel); err != nil {
		r.printf(w, "to use the cards (SO102, catalog browse), add under [catalog] in %s:\n  profile = %s\n", cfgPath, config.TOMLString(rel))
		return
	}
	r.printf(w, "set catalog.profile = %s in %s: SO102 and catalog browse use the cards\n", config.TOMLString(rel), cfgPath)
}

// sameFile reports whether two paths name one file: the same absolute
// path, or the same file on disk.
func sameFile(a, b string) bool {
	if mustAbs(a) == mustAbs(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// plural is n and word, plural unless n is 1: "3 requests".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ConfiguredProfile returns the profile path set by catalog.profile in the
// configuration at cfgPath, which catalog init writes. A configuration can
// come with a cloned repository, so the path must stay inside the
// configuration's folder: relative, no "..", and no symlinked folder on the
// way that leads out of it.
func ConfiguredProfile(cfgPath, p string) (string, error) {
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

// ShellQuote quotes a word for a POSIX shell when it needs quoting.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
