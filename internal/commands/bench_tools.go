package commands

import (
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/toolbench"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/tools"
)

func benchToolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "tool-deferral benchmark on a labelled set of tools and first prompts",
		Description: "Builds, for every labelled first prompt of the set and every provider shape, the first\n" +
			"request of a session declaring the whole catalog, runs the tool rule on it, and reports\n" +
			"per provider: prompts deferred confidently and failed open; tool recall on each (a\n" +
			"labelled tool counts when the transformed request declares it, which a core tool always\n" +
			"is, or when one optimizer_tool_search call with the prompt as query returns it on its\n" +
			"first page; failing open keeps every tool, so only recall on confident prompts tests the\n" +
			"ranking); tool declaration bytes as captured, in the initial request and activated by\n" +
			"that search; search calls, activation failures, prompts whose request grew, and the\n" +
			"median time to plan a request (reading it not included). Then the time to plan one\n" +
			"request over --scale tools: cold builds the index, warm finds it cached.\n\n" +
			"The held-out prompts were written and labelled without running them through the\n" +
			"ranking; the tuned prompts are the ones it was tuned on. Each gets its own table.\n\n" +
			"The set is built into skillopt; --set DIR reads another: DIR/catalog.json (tool\n" +
			"declarations [{name, description, parameters}]) and DIR/heldout.json and/or\n" +
			"DIR/prompts.json (prompts [{id, prompt, needs}], needs naming catalog tools).\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt bench tools\n" +
			"  skillopt bench tools --providers anthropic,gemini --cases\n" +
			"  skillopt bench tools --set my-tools --format json",
		Flags: []cli.Flag{
			formats("", "text", "json"),
			&cli.StringFlag{Name: "set", Usage: "labelled set `DIR` (default: the built-in set)"},
			&cli.StringFlag{Name: "providers", Value: "all", Usage: "comma-separated provider shapes, or all"},
			&cli.StringFlag{Name: "rule", Value: "SO201", Usage: "tool rule to run: SO201 or SO202"},
			&cli.IntFlag{Name: "scale", Value: 200, Usage: "catalog size for the ranking time"},
			&cli.BoolFlag{Name: "cases", Usage: "also list every prompt (text format)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c); err != nil {
				return err
			}
			var set *toolbench.Set
			var err error
			if c.IsSet("set") {
				set, err = toolbench.Load(c.String("set"))
			} else {
				set, err = toolbench.Default()
			}
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			var provs []capture.Provider
			for _, p := range strings.Split(c.String("providers"), ",") {
				p = strings.TrimSpace(p)
				if p == "all" {
					provs = append(provs, capture.Providers...)
					continue
				}
				prov, err := capture.ParseProvider(p)
				if err != nil {
					return usageErr("--providers: %w", err)
				}
				provs = append(provs, prov)
			}
			rule := ruleset.ByID(c.String("rule"))
			if rule == nil || (rule.ID != tools.Defer.ID && rule.ID != tools.NativeDefer.ID) {
				return usageErr("--rule %q is not SO201 or SO202", c.String("rule"))
			}
			if c.Int("scale") < 1 || c.Int("scale") > 100000 {
				return usageErr("--scale %d is outside 1..100000", c.Int("scale"))
			}
			pipeline := []*rules.Rule{rule}
			renv := e.ruleEnv(pipeline)
			opts := toolbench.Options{Providers: provs, Config: e.cfg, Run: func(capt *capture.Capture) (*rules.Result, error) {
				return rules.Run(capt, pipeline, renv)
			}}
			rep, err := toolbench.Bench(set, rule, opts, c.Int("scale"))
			if err != nil {
				return ruleFailure(err)
			}
			return e.finish(e.show(rep, func(w io.Writer) error { return toolbench.WriteText(w, rep, c.Bool("cases")) }))
		},
	}
}
