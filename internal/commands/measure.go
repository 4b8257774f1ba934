package commands

import (
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/measure"
	mrender "github.com/skillopt/skillopt/measure/render"
	"github.com/skillopt/skillopt/rules"
)

func measureCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "measure",
		Usage:     "show where the bytes and tokens of captured requests go, and what the rules save",
		ArgsUsage: "CAPTURE...",
		Description: "Reads each capture and reports bytes, characters and exact tokens per section\n" +
			"(system, skill-catalog, tools, human, assistant, thinking, tool-calls, tool-results,\n" +
			"media, other) with a share bar, the skill catalog, tools and tool results, the\n" +
			"stable-prefix hash, and what each configured transform rule saves in bytes and tokens\n" +
			"(and input cost when the model's price is known), with the rule's reason when it saves\n" +
			"nothing. Warnings and next steps follow: what the result lost (intents the compact\n" +
			"index dropped) and the actions with the largest saving measured on the capture.\n" +
			"Section bytes add up to the body size.\n\n" +
			"Several captures print one row each (provider, bytes, tokens, catalog share, after,\n" +
			"saved) and the total; --details adds each capture's report; -q prints only the total.\n\n" +
			"Formats: text, json, markdown, jsonl (one object per capture, written as each is\n" +
			"done). Many captures are measured in parallel (--jobs); the output is the same for\n" +
			"any number.\n\n" +
			"With --conversation the captures are successive requests of conversations (files\n" +
			"in the order given, directories in natural name order, JSONL lines, HAR entries, and\n" +
			"every assistant turn of a Pi session): per turn and in total, the input tokens a\n" +
			"provider's prompt cache reads, writes and bills in full, the cost from the price\n" +
			"table (skillopt.toml [prices] overrides it), where each request stops extending the\n" +
			"previous one and the rule that caused it, and the provider's own usage when the\n" +
			"capture has it. Formats: text, json, markdown, html, jsonl (one object per turn).\n" +
			"See docs/measure.md.\n\n" +
			"The conversations are found among the captures: a Pi session file is one, the\n" +
			"requests with one session_id header are one, and any other request joins the\n" +
			"conversation whose latest request it extends (same body shape, vendor and model, same\n" +
			"system text and tool declarations, or more declarations, and messages that start with\n" +
			"all of that request's, cache_control aside), else starts one. Several conversations\n" +
			"are reported one after the other, with a summary table and the grand total;\n" +
			"--no-split reads every capture as a request of one conversation.\n\n" +
			"Examples:\n" +
			"  skillopt measure testdata/examples/anthropic-catalog.json\n" +
			"  skillopt measure --format json --encoding none captures/\n" +
			"  skillopt measure --details captures/\n" +
			"  skillopt measure --rules SO1 --format markdown capture.json\n" +
			"  skillopt measure --conversation turn-1.json turn-2.json turn-3.json\n" +
			"  skillopt measure --conversation captures/        # every conversation in it\n" +
			"  skillopt measure --conversation --format html session.jsonl > report.html",
		Flags: []cli.Flag{
			formats("html with --conversation", append(slices.Clone(mrender.ConversationFormats), jsonl)...),
			jobsFlag(),
			rulesFlag(),
			providerFlag(),
			archiveFlag(),
			tierFlag(), usageFlag(),
			&cli.IntFlag{Name: "replay", Value: -1, Usage: "follow-up requests in the cumulative replay (default: measure.replay of skillopt.toml, 8)"},
			&cli.StringFlag{Name: "encoding", Usage: "tokenizer: o200k_base, cl100k_base or none (default: measure.encoding of skillopt.toml, o200k_base)"},
			&cli.BoolFlag{Name: "details", Usage: "with several captures, print each capture's own report before the table"},
			&cli.BoolFlag{Name: "conversation", Usage: "treat the captures as successive requests of conversations and account for prompt caching and cost"},
			&cli.BoolFlag{Name: "no-split", Usage: "with --conversation, read every capture as a request of one conversation, in the order given, instead of finding the conversations among them"},
		},
		Action: func(c *cli.Context) error { return e.runMeasure(c) },
	}
}

// runMeasure measures each capture, or the conversations with --conversation
// (see measureCommand).
func (e *env) runMeasure(c *cli.Context) error {
	if c.Bool("conversation") {
		return measureConversation(e, c)
	}
	if c.Bool("no-split") {
		return usageErr("--no-split goes with --conversation")
	}
	if err := e.setup(c); err != nil {
		return err
	}
	if fs := append(slices.Clone(mrender.Formats), jsonl); !slices.Contains(fs, e.format) {
		return usageErr("unsupported --format %q (without --conversation this command supports %s)", e.format, strings.Join(fs, ", "))
	}
	enc, counter, err := e.counter(c)
	if err != nil {
		return err
	}
	opts := measure.Options{Encoding: enc, Replay: e.cfg.Measure.Replay}
	if counter != nil {
		opts.Counter = counter
	}
	prices := e.prices()
	opts.Price = func(model string) (float64, bool) {
		if p := prices.Lookup(model); p != nil {
			return p.Input, true
		}
		return 0, false
	}
	if c.Int("replay") >= 0 {
		opts.Replay = c.Int("replay")
	}
	pipeline, err := e.pipeline(c)
	if err != nil {
		return err
	}
	renv := e.ruleEnv(pipeline)
	ruleset.SetArchive(renv, renv.Archive, true)
	opts.Env = renv
	type measured struct {
		rep  *measure.CaptureReport
		key  string
		line []byte // the JSON line of rep, with --format jsonl
	}
	var reps []*measure.CaptureReport
	var keys []string
	err = eachFile(e, c, func(f *capture.File, log *inputLog) ([]measured, error) {
		var out []measured
		for _, capt := range f.Captures {
			rep, err := measure.Run(capt, func() (*rules.Result, error) { return rules.Run(capt, pipeline, renv) }, opts)
			if err != nil {
				if log.ruleFailed(err) {
					continue
				}
				return nil, err
			}
			key := measure.CatalogKey(capt)
			if key != "" {
				key = string(capt.Provider) + ":" + key
			}
			m := measured{rep: rep, key: key}
			if e.format == jsonl {
				if m.line, err = encodeLine(rep); err != nil {
					return nil, err
				}
			}
			out = append(out, m)
		}
		return out, nil
	}, func(_ *capture.File, ms []measured) error {
		for _, m := range ms {
			if e.format == jsonl {
				if _, err := e.stdout.Write(m.line); err != nil {
					return err
				}
				continue
			}
			reps = append(reps, m.rep)
			keys = append(keys, m.key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(reps) == 0 {
		return e.finish(nil)
	}
	rep := measure.Summarize(reps, keys)
	o := mrender.TextOptions{Details: c.Bool("details"), Quiet: e.quiet, Width: e.width(e.stdout)}
	err = e.writeAs(func(w io.Writer) error { return mrender.Write(w, rep, e.format, o) })
	if err != nil {
		return err
	}
	return e.finish(nil)
}

// counter returns the token encoding of --encoding or measure.encoding and
// its counter (nil for "none"), the vocabulary loading in the background
// while the captures are read.
func (e *env) counter(c *cli.Context) (string, *tokens.Counter, error) {
	enc := e.cfg.Measure.Encoding
	if c.IsSet("encoding") {
		enc = c.String("encoding")
	}
	if enc == "none" {
		return enc, nil, nil
	}
	counter, err := tokens.New(enc)
	if err != nil {
		return "", nil, usageErr("--encoding: unknown encoding %q (want o200k_base, cl100k_base or none)", enc)
	}
	counter.Preload()
	return enc, counter, nil
}
