// Package commands is the skillopt command line: its commands, their flags
// and formats, and exit codes. cmd/skillopt runs it.
package commands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/argv"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/gctune"
	"github.com/skillopt/skillopt/internal/jsonout"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/suggest"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
	"github.com/skillopt/skillopt/transform/catalogrules"
	"github.com/skillopt/skillopt/transform/output"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

// exitError carries an exit code; its message (if any) is printed once, at
// the edge, as "skillopt: message".
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func usageErr(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// argErr is a usage error about a command's arguments, pointing at its
// help.
func argErr(c *cli.Context, format string, args ...any) error {
	return usageErr("%s (see `skillopt %s --help`)", fmt.Sprintf(format, args...), commandPath(c.Command))
}

// commandPath is a command's words after the program name ("catalog
// search").
func commandPath(c *cli.Command) string {
	if p := strings.TrimSpace(strings.TrimPrefix(c.HelpName, "skillopt")); p != "" {
		return p
	}
	return c.FullName()
}

// findings signals exit code 1 without a message (the findings were printed).
var findings = &exitError{code: exitFindings}

// env is what every command shares: streams, global options, configuration.
type env struct {
	// args are the command line as typed, to quote flags in errors as
	// they were written.
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
	cfg            *config.Config
	format         string
	color          bool
	quiet          bool
	// statistics writes a report's counts per rule (lint --statistics).
	statistics bool
	// errored is set when an input error was printed but the command went
	// on with the other inputs; the exit code is then 2.
	errored bool
	// wholeCatalog is set by catalog commands whose result describes every
	// skill (build, search, browse): an unreadable or invalid skill makes
	// them end with exit code 2. Commands that fetch one skill (load,
	// resource, location) exit 2 for unreadable skills only and print the
	// others' problems.
	wholeCatalog bool
}

// warnInput prints an input error and remembers that the run must end with
// exit code 2.
func (e *env) warnInput(err error) {
	e.errored = true
	printErr(e.stderr, err)
}

// printErr prints an error as "skillopt: message", on one line. Messages
// quote names and text from inputs; escape.Text keeps those from driving
// the terminal or starting a line of their own.
func printErr(w io.Writer, err error) {
	fmt.Fprintf(w, "skillopt: %s\n", escape.Text(err.Error()))
}

func (e *env) finish(err error) error {
	if err == nil && e.errored {
		return &exitError{code: exitUsage}
	}
	if ee := (*exitError)(nil); errors.As(err, &ee) && ee.code == exitFindings && e.errored {
		return &exitError{code: exitUsage}
	}
	return err
}

var version = "dev"

func versionString() string {
	commit := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			}
		}
		if version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
	}
	return fmt.Sprintf("%s (%s, commit %s)", version, runtime.Version(), commit)
}

// globalFlags are accepted before or after the command name.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "skillopt.toml to use (default: $SKILLOPT_CONFIG, else the nearest one from the working directory up to the repository root or home folder)", EnvVars: []string{"SKILLOPT_CONFIG"}},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text, json, markdown, sarif or github (each command lists what it supports)"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour: auto (TTY only, honours NO_COLOR), always or never"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only findings and errors"},
	}
}

// Main runs the skillopt command line: args as os.Args (the program's name
// first), reading stdin and writing stdout and stderr. It returns the
// process's exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{args: args, stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "skillopt: internal error: %s\n%s", escape.Lines(fmt.Sprint(v)), debug.Stack())
			code = exitUsage
		}
	}()
	app := newApp(e)
	err := app.Run(argv.Permute(appCommand(app), args))
	if err == nil {
		if e.errored {
			return exitUsage
		}
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printErr(stderr, ee.err)
		}
		return ee.code
	}
	// Anything else is a usage error reported by the CLI library or an
	// input error.
	printErr(stderr, err)
	return exitUsage
}

func newApp(e *env) *cli.App {
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintf(c.App.Writer, "skillopt %s\n", versionString()) }
	app := &cli.App{
		Name:  "skillopt",
		Usage: "measure, validate, transform and check captured LLM requests; lint skills",
		Description: "skillopt reads captured provider request bodies (Anthropic Messages, OpenAI Chat\n" +
			"Completions and Responses, Gemini, Mistral, Pi message lists) and shows where their\n" +
			"bytes and tokens go, validates them, and applies and verifies transforms.\n\n" +
			"Exit codes: 0 clean, 1 findings (invalid capture, broken invariant), 2 usage error,\n" +
			"bad configuration or unreadable input.\n\n" +
			"Examples:\n" +
			"  skillopt measure capture.json                  where the bytes and tokens go\n" +
			"  skillopt validate captures/                    check every capture against its provider's schema\n" +
			"  skillopt transform capture.json -o small.json  apply the rule pipeline\n" +
			"  skillopt diff capture.json                     review what the pipeline changes\n" +
			"  skillopt lint skills/ --fix                    lint skills and fix what is mechanical\n" +
			"  skillopt catalog search \"fill a pdf form\" --skills skills/\n" +
			"  skillopt rules SK030                           explain a rule\n" +
			"  skillopt completion bash > ~/.local/share/bash-completion/completions/skillopt\n\n" +
			"`skillopt COMMAND --help` shows each command's options and examples.",
		Version:         versionString(),
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		Flags:           globalFlags(),
		HideHelpCommand: true,
		Before:          func(c *cli.Context) error { return nil },
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usageErr("%s (see `skillopt --help`)", flagError(err, e.args, c.App.Flags))
		},
		CommandNotFound: func(c *cli.Context, name string) {
			// An unknown subcommand (skillopt catalog frob) is reported
			// with its parent's help.
			cmds, help := c.App.Commands, "skillopt --help"
			if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name && len(c.Command.Subcommands) > 0 {
				cmds, help = c.Command.Subcommands, "skillopt "+commandPath(c.Command)+" --help"
			}
			fmt.Fprintf(e.stderr, "skillopt: unknown command %q%s (see `%s`)\n", name, suggest.DidYouMean(name, commandNames(cmds)), help)
			e.errored = true
		},
		Commands: []*cli.Command{
			measureCommand(e),
			validateCommand(e),
			transformCommand(e),
			diffCommand(e),
			checkCommand(e),
			lintCommand(e),
			catalogCommand(e),
			archiveCommand(e),
			toolsCommand(e),
			sanitizeCommand(e),
			outputCommand(e),
			routeCommand(e),
			rulesCommand(e),
			initCommand(e),
			benchCommand(e),
			traceCommand(e),
			recordCommand(e),
			renderCommand(e),
			completionCommand(e),
			manCommand(e),
		},
	}
	app.Flags = withFormat(app.Flags, groupFormats(formatsOf(&cli.Command{Subcommands: app.Commands})))
	var prepare func(cmds []*cli.Command)
	prepare = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			cmd.Flags = addGlobals(cmd)
			cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
				return usageErr("%s (see `skillopt %s --help`)", flagError(err, e.args, c.Command.Flags), commandPath(c.Command))
			}
			prepare(cmd.Subcommands)
		}
	}
	for _, cmd := range app.Commands {
		if e.mayRun(cmd) {
			prepare([]*cli.Command{cmd})
		}
	}
	return app
}

// mayRun reports whether the command line may run cmd, or show its flags:
// only such a command gets the global flags, so that a start-up builds the
// flags of one command, not of every command. The line names cmd or one of
// its aliases somewhere (a permuted line may put it after a global flag's
// value), or it shows every command's flags (completion, man, help), or
// there is no command line (a test walking the tree).
func (e *env) mayRun(cmd *cli.Command) bool {
	if len(e.args) < 2 {
		return len(e.args) == 0
	}
	for _, a := range e.args[1:] {
		switch a {
		case "completion", "man", "help", "h":
			return true
		}
		if a == cmd.Name || slices.Contains(cmd.Aliases, a) {
			return true
		}
	}
	return false
}

// addGlobals is the flags of cmd followed by the global ones, its own
// --format flag in the place of the global one: a command that groups
// others lists their formats, any other must declare its own.
func addGlobals(cmd *cli.Command) []cli.Flag {
	var own []cli.Flag
	var format *formatFlag
	for _, f := range cmd.Flags {
		if ff, ok := f.(*formatFlag); ok {
			format = ff
		} else {
			own = append(own, f)
		}
	}
	if format == nil {
		if len(cmd.Subcommands) == 0 {
			panic("command " + cmd.Name + " declares no formats")
		}
		format = groupFormats(formatsOf(cmd))
	}
	return append(own, withFormat(globalFlags(), format)...)
}

// withFormat is flags with f in the place of the --format flag.
func withFormat(flags []cli.Flag, f *formatFlag) []cli.Flag {
	out := make([]cli.Flag, len(flags))
	for i, g := range flags {
		if flagName(g) == "format" {
			g = f
		}
		out[i] = g
	}
	return out
}

// flagName is a flag's name. Every command's flags are compared with the
// global ones on every start; the library's Names splits and trims each
// name anew, a measurable part of every start-up.
func flagName(f cli.Flag) string {
	switch f := f.(type) {
	case *formatFlag:
		return f.Name
	case *cli.StringFlag:
		return f.Name
	case *cli.BoolFlag:
		return f.Name
	}
	return f.Names()[0]
}

// options resolves the global options for a command but the
// configuration: format (checked against the formats the command supports),
// colour and quiet.
func (e *env) options(c *cli.Context) error {
	e.format = lookup(c, "format")
	if e.format == "" {
		e.format = "text"
	}
	if fs := formatsOf(c.Command); !slices.Contains(fs, e.format) {
		return usageErr("unsupported --format %q (this command supports %s)", e.format, strings.Join(fs, ", "))
	}
	switch col := lookup(c, "color"); col {
	case "", "auto":
		e.color = isTTY(e.stdout) && os.Getenv("NO_COLOR") == ""
	case "always":
		e.color = true
	case "never":
		e.color = false
	default:
		return usageErr("unsupported --color %q (want auto, always or never)", col)
	}
	e.quiet = lookupBool(c, "quiet")
	return nil
}

// setup resolves the global options for a command (see options) and loads
// the configuration.
func (e *env) setup(c *cli.Context) error {
	if err := e.options(c); err != nil {
		return err
	}
	wd, _ := os.Getwd()
	cfg, err := config.LoadWith(config.Find(lookup(c, "config"), wd), ruleset.Registry().Binding())
	if err == nil {
		err = cfg.CheckRules(ruleset.MatchErr)
	}
	if err == nil && lookup(c, "archive") == "" {
		err = cfg.ArchiveErr()
	}
	if err != nil {
		return e.configErr(err)
	}
	e.cfg = cfg
	return nil
}

// configErr prints every problem of a configuration file on its own line
// and ends the run with exit code 2.
func (e *env) configErr(err error) error {
	var list config.Errors
	if !errors.As(err, &list) {
		return &exitError{code: exitUsage, err: err}
	}
	for _, line := range list.Lines() {
		fmt.Fprintf(e.stderr, "skillopt: %s\n", escape.Text(line))
	}
	return &exitError{code: exitUsage}
}

// writeJSON writes v, which must encode as a JSON object, as every
// command's JSON output is written (see jsonout.Encode).
func writeJSON(e *env, v any) error {
	b, err := jsonout.Encode(v, e.configPath())
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

// writeAs runs write on standard output, through writeJSON's "config"
// field and escapes when the format is JSON.
func (e *env) writeAs(write func(io.Writer) error) error {
	if e.format != "json" {
		return write(e.stdout)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	_, err := e.stdout.Write(jsonout.WithConfig(b.Bytes(), e.configPath()))
	return err
}

// configPath is the configuration file in use, "" for the built-in
// defaults.
func (e *env) configPath() string {
	if e.cfg == nil {
		return ""
	}
	return e.cfg.Path
}

// lookup returns a string flag set on the command or, failing that, before
// it, so global flags work in either position.
func lookup(c *cli.Context, name string) string {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.String(name)
		}
	}
	return c.String(name)
}

func lookupBool(c *cli.Context, name string) bool {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.Bool(name)
		}
	}
	return false
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// argvCommand is a command of the CLI library as argv.Permute sees it.
type argvCommand struct {
	flags []cli.Flag
	subs  []*cli.Command
	find  func(string) *cli.Command
}

func appCommand(app *cli.App) argvCommand {
	return argvCommand{app.Flags, app.Commands, app.Command}
}

func (c argvCommand) Flags() map[string]bool {
	m := map[string]bool{}
	for _, f := range c.flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			m[n] = !isBool
		}
	}
	return m
}

func (c argvCommand) Sub(name string) argv.Command {
	s := c.find(name)
	if s == nil {
		return nil
	}
	return argvCommand{s.Flags, s.Subcommands, s.Command}
}

func (c argvCommand) HasSubs() bool { return len(c.subs) > 0 }

// onePass reports a command whose memory is proportional to its input.
func onePass(c *cli.Context) bool {
	switch c.Command.Name {
	case "validate", "transform":
		return true
	case "measure":
		return c.String("rules") == "none"
	}
	return false
}

// skippedBeside reports, with a note, a file without requests (a host's
// prompt log, a provider's response) found in a directory beside the
// captures: not an input error. Named on its own, it is one.
func (e *env) skippedBeside(c *cli.Context, p string, err error) bool {
	if !errors.Is(err, capture.ErrNoRequests) || slices.Contains(c.Args().Slice(), p) {
		return false
	}
	fmt.Fprintf(e.stderr, "skillopt: note: %s (skipped)\n", escape.Text(err.Error()))
	return true
}

// noteSkipped says, unless quiet, how many entries of f were read past and
// why the first was.
func (e *env) noteSkipped(f *capture.File) {
	if n := len(f.Skipped); n > 0 && !e.quiet {
		fmt.Fprintf(e.stderr, "skillopt: %s: skipped %d of its entries (no JSON request for a provider); the first: %s\n",
			escape.Text(f.Name), n, escape.Text(f.Skipped[0]))
	}
}

// readCaptures reads every CAPTURE argument. Unreadable inputs are printed
// and remembered (exit 2); the rest are returned, so that a command reports
// on every input it could read.
func (e *env) readCaptures(c *cli.Context) ([]*capture.File, error) {
	paths, opts, err := e.captureArgs(c)
	if err != nil {
		return nil, err
	}
	var files []*capture.File
	total := 0
	for _, p := range paths {
		f, err := capture.ReadFile(p, e.stdin, opts)
		if e.skippedBeside(c, p, err) {
			continue
		}
		if err != nil {
			e.warnInput(err)
			continue
		}
		for _, fe := range f.Errs {
			e.warnInput(fe)
		}
		e.noteSkipped(f)
		// Every command validates (the rule engine's guard, validate,
		// check): the schemas compile while the rest is read.
		for _, capt := range f.Captures {
			schemas.Preload(string(capt.Provider))
		}
		files = append(files, f)
		total += len(f.Data)
	}
	// Commands that pass over the input once (validate, transform, measure
	// without rules) get a soft memory limit; measure with its pipeline
	// holds several versions of each request and would spend more time
	// collecting than it saves.
	gctune.ForInput(total, onePass(c))
	return files, nil
}

// captureArgs expands the CAPTURE arguments into paths (a directory's
// files walked, errors printed and remembered) and the reading options of
// --provider and --keep-header.
func (e *env) captureArgs(c *cli.Context) ([]string, capture.Options, error) {
	var opts capture.Options
	args := c.Args().Slice()
	if len(args) == 0 {
		return nil, opts, argErr(c, "no CAPTURE given (a file, a directory, or - for stdin)")
	}
	if p := c.String("provider"); p != "" {
		prov, err := capture.ParseProvider(p)
		if err != nil {
			return nil, opts, usageErr("--provider: %w", err)
		}
		opts.Provider = prov
	}
	if names := c.StringSlice("keep-header"); len(names) > 0 {
		keep, err := capture.NewKeep(names)
		if err != nil {
			return nil, opts, usageErr("--keep-header: %w", err)
		}
		opts.Keep = keep
	}
	paths, err := capture.Expand(args)
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range j.Unwrap() {
			e.warnInput(err)
		}
	} else if err != nil {
		e.warnInput(err)
	}
	return paths, opts, nil
}

func providerFlag() cli.Flag {
	return &cli.StringFlag{Name: "provider", Usage: "override provider detection: anthropic, openai-chat, openai-responses, gemini, mistral or pi-messages"}
}

func keepHeaderFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "keep-header", Usage: "keep the values of the envelope headers and URL or form parameters named `NAME` (repeatable; NAME* for a prefix) besides the built-in list; every other value is written as REDACTED"}
}

func tierFlag() cli.Flag {
	return &cli.StringFlag{Name: "tier", Usage: "overflow ceiling tier: cheap, balanced or frontier (default: output.tier of skillopt.toml)"}
}

func usageFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "usage", Usage: "execution trace or Pi session `PATH` (file or folder) SO103 ranks with as usage evidence (repeatable; default: catalog.usage of skillopt.toml)"}
}

func rulesFlag() cli.Flag {
	return &cli.StringFlag{Name: "rules", Usage: "rules to run, in order: IDs, ID prefixes (SO1) or names, comma-separated; \"none\" runs none (default: rules.pipeline of skillopt.toml)"}
}

// pipeline returns the transform pipeline: --rules if given, else the
// configuration's.
func (e *env) pipeline(c *cli.Context) ([]*rules.Rule, error) {
	if c.IsSet("archive") {
		e.cfg.Archive.Dir = c.String("archive")
	}
	if c.IsSet("tier") {
		if err := output.CheckTier(c.String("tier")); err != nil {
			return nil, usageErr("--tier: %w", err)
		}
		// The configured copy (setup always loads one), never the defaults.
		output.FromSet(e.cfg.Options).Tier = c.String("tier")
	}
	if c.IsSet("usage") {
		var paths []string
		for _, p := range c.StringSlice("usage") {
			if p == "-" {
				return nil, usageErr("--usage: standard input is not usage evidence")
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, usageErr("--usage: %v", err)
			}
			paths = append(paths, abs)
		}
		catalogrules.SetUsage(e.cfg.Options, paths)
	}
	refs := e.cfg.Rules.Pipeline
	if c.IsSet("rules") {
		refs = strings.Split(c.String("rules"), ",")
	}
	p, err := ruleset.Pipeline(refs, e.cfg.Rules.Disable, e.cfg.Rules.Severity)
	if err != nil {
		return nil, usageErr("%w", err)
	}
	return p, nil
}

// ruleEnv builds the engine environment from the configuration.
func (e *env) ruleEnv(pipeline []*rules.Rule) *rules.Env {
	return ruleset.Env(e.cfg, pipeline)
}

// ruleFailure turns a rule failure into an exit-2 error.
func ruleFailure(err error) error {
	var re *rules.RuleError
	if errors.As(err, &re) {
		return &exitError{code: exitUsage, err: err}
	}
	return err
}

// flagString is the library's rendering of a flag in help.
var flagString = cli.FlagStringer

func init() { cli.FlagStringer = flagHelp }

// flagHelp renders a flag in help without the library's "(default: …)"
// when the usage already says what the default is (it would print the
// flag's internal sentinel, such as -1) or the flag is a switch (false).
func flagHelp(f cli.Flag) string {
	s := flagString(f)
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return s
	}
	_, isBool := f.(*cli.BoolFlag)
	if isBool || strings.Contains(df.GetUsage(), "default") {
		if def := df.GetDefaultText(); def != "" {
			s = strings.Replace(s, " (default: "+def+")", "", 1)
		}
	}
	return s
}

// show writes v as JSON (see writeJSON) when the format is json, else
// runs text on standard output.
func (e *env) show(v any, text func(w io.Writer) error) error {
	if e.format == "json" {
		return writeJSON(e, v)
	}
	return text(e.stdout)
}
