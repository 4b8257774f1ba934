package commands

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/internal/gctune"
	"github.com/skillopt/skillopt/internal/jsonout"
	"github.com/skillopt/skillopt/internal/reviewdiff"
	"github.com/skillopt/skillopt/internal/ruleset"
)

func diffCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "show what the pipeline changes in a capture, or how two captures differ",
		ArgsUsage: "CAPTURE | A B",
		Description: "With one CAPTURE, diffs it against its transform; with two, diffs A against B.\n\n" +
			"The text diff is a unified diff of the bodies indented as pretty JSON (keys, numbers\n" +
			"and short strings as captured). A string that holds a line break or does not fit a\n" +
			"line is shown as a block of its decoded lines under `\"key\": |`, lines too long\n" +
			"for " + strconv.Itoa(reviewdiff.Width) + " columns continuing on lines that start with " + strings.TrimSpace(reviewdiff.WrapMark) + ", so a rewritten prompt\n" +
			"or tool result diffs line by line. Each hunk header names the JSON Pointers it changes\n" +
			"and the rule that changed each; a summary line per change follows the diff:\n" +
			"  SO101 catalog.compact-index: /system/0/text −6,330 B (9,768 → 3,438 B)\n" +
			"An element a rule appends is named by the index it gets (/tools/4). With --color\n" +
			"(auto on a terminal, or always) the words that differ between a removed line and the\n" +
			"added line facing it are highlighted.\n\n" +
			"Arrays and the lines of strings are aligned in time and memory linear in their\n" +
			"length: elements and lines are matched across insertions and removals, elements\n" +
			"changed where they stand are paired. Two long arrays, objects or texts with less\n" +
			"than half in common are too different to align: the hunk says so on a line that\n" +
			"starts with \\ and shows them replaced; such an array or object is one change,\n" +
			"marked \"too different to align, compared whole\" (\"unaligned\": true in JSON).\n\n" +
			"--word-diff writes each changed line and the line facing it as one line, the words that\n" +
			"differ as [-removed-]{+added+} and no sign column, as git diff --word-diff=plain does:\n" +
			"for prose such as a rewritten system prompt (text format).\n\n" +
			"--stat prints only the changes per pointer and per rule. --exit-code exits 1 when the\n" +
			"bodies differ, as git diff --exit-code does; -q (--quiet) prints nothing but errors and\n" +
			"implies --exit-code, as git diff --quiet does.\n\n" +
			"Formats: text, markdown, json ({\"changes\":[…],\"unified\":\"…\"}, where unified is\n" +
			"the diff of the pretty-printed bodies, escapes as captured, for patch and scripts).\n\n" +
			"Examples:\n" +
			"  skillopt diff --rules SO101 capture.json\n" +
			"  skillopt diff --stat captures/turn-3.json\n" +
			"  skillopt diff --exit-code turn1.json turn2.json\n" +
			"  skillopt diff --word-diff --rules SO101 capture.json\n" +
			"  skillopt diff -q turn1.json turn2.json && echo same",
		Flags: []cli.Flag{formats("", "text", "json", "markdown"), rulesFlag(), providerFlag(), archiveFlag(), tierFlag(), usageFlag(),
			&cli.IntFlag{Name: "context", Aliases: []string{"U"}, Value: 3, Usage: "lines of context in the unified diff"},
			&cli.BoolFlag{Name: "stat", Usage: "print only the changes per JSON Pointer and per rule"},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when the bodies differ"},
			&cli.BoolFlag{Name: "word-diff", Usage: "merge each changed line with the line facing it: [-removed-]{+added+} (text format)"},
		},
		Action: func(c *cli.Context) error { return e.runDiff(c) },
	}
}

// runDiff compares one capture with its transform, or two captures (see
// diffCommand).
func (e *env) runDiff(c *cli.Context) error {
	if err := e.setup(c); err != nil {
		return err
	}
	if c.NArg() < 1 || c.NArg() > 2 {
		return argErr(c, "want CAPTURE or A B, got %d arguments", c.NArg())
	}
	if c.Bool("word-diff") && (e.format != "text" || c.Bool("stat")) {
		return usageErr("--word-diff applies to the text diff, not to --format %s or --stat", e.format)
	}
	pipeline, err := e.pipeline(c)
	if err != nil {
		return err
	}
	files, err := e.readCaptures(c)
	if err != nil {
		return err
	}
	total := 0
	for _, f := range files {
		total += len(f.Data)
	}
	gctune.Hold(total)
	if len(files) != c.NArg() {
		if !e.errored {
			// A folder argument: diff takes files.
			return argErr(c, "want CAPTURE or A B as files, got %d files from %d arguments", len(files), c.NArg())
		}
		return e.finish(nil)
	}
	var pairs []reviewdiff.Pair
	if c.NArg() == 1 {
		results, err := e.transformFile(files[0], pipeline, e.readOnlyEnv(pipeline))
		if err != nil {
			return err
		}
		pairs = reviewdiff.Transformed(results)
	} else if pairs, err = reviewdiff.Between(files[0], files[1]); err != nil {
		return usageErr("%w", err)
	}
	differ := reviewdiff.Differ(pairs)
	opts := reviewdiff.Options{Format: e.format, Context: max(c.Int("context"), 0), Stat: c.Bool("stat"), Color: e.color,
		Label: ruleLabel, JSONTail: jsonout.ConfigField(e.configPath()), Quiet: e.quiet, WordDiff: c.Bool("word-diff")}
	if err := reviewdiff.Write(e.stdout, pairs, opts); err != nil {
		return err
	}
	if differ && (c.Bool("exit-code") || e.quiet) {
		return e.finish(findings)
	}
	return e.finish(nil)
}

// ruleLabel is a rule's ID and name, "SO101 catalog.compact-index".
func ruleLabel(id string) string {
	if r := ruleset.Registry().Lookup(id); r != nil {
		return r.ID + " " + r.Name
	}
	return id
}
