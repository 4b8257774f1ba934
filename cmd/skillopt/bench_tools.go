package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/tools"
)

func benchToolsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "tool-deferral benchmark on a labelled set of tools and first prompts",
		Description: "Builds, for every labelled first prompt of the set (catalog.json: tool declarations;\n" +
			"prompts.json: prompts with the tools a person doing the task needs) and every provider\n" +
			"shape, the first request of a session declaring the whole catalog, runs the tool rule on\n" +
			"it, and reports: tool recall (a labelled tool counts when the transformed request declares\n" +
			"it or when one optimizer_tool_search call with the prompt as query returns it on its\n" +
			"first page), prompts deferred confidently vs failed open, tool declaration bytes as\n" +
			"captured, in the initial request and activated by that search, search calls, activation\n" +
			"failures, prompts whose request grew, and the time to plan a request (median; cold builds\n" +
			"the index, warm finds it cached) for the set and for --scale tools.\n\n" +
			"Formats: text, json.\n\n" +
			"Examples:\n" +
			"  skillopt bench tools\n" +
			"  skillopt bench tools --set testdata/tools --providers anthropic,gemini --format json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "set", Value: "testdata/tools", Usage: "labelled set `DIR` (catalog.json, prompts.json)"},
			&cli.StringFlag{Name: "providers", Value: "all", Usage: "comma-separated provider shapes, or all"},
			&cli.StringFlag{Name: "rule", Value: "SO201", Usage: "tool rule to run: SO201 or SO202"},
			&cli.IntFlag{Name: "scale", Value: 200, Usage: "catalog size for the ranking time"},
			&cli.BoolFlag{Name: "cases", Usage: "also list every prompt (text format)"},
		},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json"); err != nil {
				return err
			}
			set, err := tools.LoadToolSet(c.String("set"))
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
					return usageErr("bench tools: --providers: %v", err)
				}
				provs = append(provs, prov)
			}
			rule := ruleset.ByID(c.String("rule"))
			if rule == nil || (rule.ID != tools.Defer.ID && rule.ID != tools.NativeDefer.ID) {
				return usageErr("bench tools: --rule %q is not SO201 or SO202", c.String("rule"))
			}
			if c.Int("scale") < 1 || c.Int("scale") > 100000 {
				return usageErr("bench tools: --scale %d is outside 1..100000", c.Int("scale"))
			}
			pipeline := []*rules.Rule{rule}
			renv := e.ruleEnv(pipeline)
			rows, err := tools.BenchTools(set, provs, tools.FromSet(e.cfg.Options), func(capt *capture.Capture) (*rules.Result, error) {
				return rules.Run(capt, pipeline, renv)
			})
			if err != nil {
				return ruleFailure(err)
			}
			timing, err := tools.TimeToolRanking(set, c.Int("scale"), set.Prompts[0].Prompt, tools.FromSet(e.cfg.Options))
			if err != nil {
				return err
			}
			if e.format == "json" {
				return e.finish(writeJSON(e, struct {
					Rule    string               `json:"rule"`
					Tools   int                  `json:"tools"`
					Prompts int                  `json:"prompts"`
					Rows    []tools.ToolBenchRow `json:"rows"`
					Ranking tools.ToolRankTiming `json:"ranking"`
				}{rule.ID, len(set.Tools), len(set.Prompts), rows, timing}))
			}
			w := e.stdout
			fmt.Fprintf(w, "tool deferral (%s %s): %d tools, %d labelled first prompts\n", rule.ID, rule.Name, len(set.Tools), len(set.Prompts))
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "provider\trecall\tconfident\tfail-open\tnative\tinitial\tsaved\tactivated\tsearches\tfailures\tlarger\tplan µs\t\n")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%.1f %%\t%d (%.0f %%)\t%d\t%s\t%s\t%.1f %%\t%s\t%d\t%d\t%d\t%.0f\t\n", r.Provider, 100*r.ToolRecall, r.Confident, r.ConfidentPct, r.FailOpen,
					measure.Size(r.NativeBytes), measure.Size(r.InitialBytes), savedPct(r.NativeBytes, r.InitialBytes), measure.Size(r.ActivatedBytes),
					r.SearchCalls, r.ActivationFailures, r.Larger, r.RankMicros)
			}
			tw.Flush()
			fmt.Fprintf(w, "planning one request over %d tools: %.0f µs cold (index built), %.0f µs warm (index cached)\n", timing.Tools, timing.ColdMicros, timing.WarmMicros)
			if c.Bool("cases") {
				for _, r := range rows {
					fmt.Fprintf(w, "\n%s:\n", r.Provider)
					for _, k := range r.Cases {
						state := fmt.Sprintf("deferred %d", k.Deferred)
						if k.FailOpen {
							state = "fail open"
						}
						fmt.Fprintf(w, "  %-18s %-12s tools %6d → %6d bytes  needed %d: kept %d, found %d", k.ID, state, k.NativeBytes, k.InitialBytes, k.Needed, k.Kept, k.Found)
						if len(k.Missing) > 0 {
							fmt.Fprintf(w, ", missing %s", strings.Join(k.Missing, ", "))
						}
						fmt.Fprintln(w)
					}
				}
			}
			return e.finish(nil)
		},
	}
}

func savedPct(before, after int) float64 {
	if before == 0 {
		return 0
	}
	return 100 * float64(before-after) / float64(before)
}
