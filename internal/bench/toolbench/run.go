package toolbench

import (
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/tools"
)

// Case is the outcome of one labelled prompt.
type Case struct {
	ID string `json:"id"`
	// NativeBytes and InitialBytes are the tool declaration bytes of the
	// request before and after the rule; ActivatedBytes those of the tools
	// the simulated search loaded.
	NativeBytes    int  `json:"native_tool_schema_bytes"`
	InitialBytes   int  `json:"initial_tool_schema_bytes"`
	ActivatedBytes int  `json:"activated_tool_schema_bytes"`
	BodyBefore     int  `json:"body_bytes_before"`
	BodyAfter      int  `json:"body_bytes_after"`
	SearchCalls    int  `json:"optimizer_tool_search_calls"`
	FailOpen       bool `json:"fail_open"`
	Deferred       int  `json:"deferred"`
	// Needed counts labelled tools; Kept those declared in the initial
	// request, Found those the first search page activated; Missing the
	// rest.
	Needed  int      `json:"needed"`
	Kept    int      `json:"kept"`
	Found   int      `json:"found"`
	Missing []string `json:"missing,omitempty"`
}

// Confident reports whether the rule deferred tools for this prompt.
func (c *Case) Confident() bool { return c.Deferred > 0 }

// Recall counts labelled tools and those the model could call: declared in
// the transformed request or returned by the first search page.
type Recall struct {
	Needed   int `json:"needed"`
	Recalled int `json:"recalled"`
	// Share is Recalled / Needed; null when nothing was needed.
	Share *float64 `json:"share"`
}

func (r *Recall) add(c *Case) {
	r.Needed += c.Needed
	r.Recalled += c.Kept + c.Found
	if r.Needed > 0 {
		s := float64(r.Recalled) / float64(r.Needed)
		r.Share = &s
	}
}

// Row sums one provider shape over a list of labelled prompts.
type Row struct {
	Provider string `json:"provider"`
	Prompts  int    `json:"prompts"`
	// Confident counts prompts whose tools were deferred; FailOpen those
	// where weak, empty or unrelated signal kept every tool.
	Confident    int     `json:"confident"`
	ConfidentPct float64 `json:"confident_pct"`
	FailOpen     int     `json:"fail_open"`
	// Recall is over every prompt. A fail-open prompt keeps every tool, so
	// its labels are all recalled: ConfidentRecall, over the prompts that
	// deferred, is the figure that tests the ranking. Labelled core tools
	// always stay declared and count as recalled.
	Recall          Recall `json:"recall"`
	ConfidentRecall Recall `json:"confident_recall"`
	FailOpenRecall  Recall `json:"fail_open_recall"`
	NativeBytes     int    `json:"native_tool_schema_bytes"`
	InitialBytes    int    `json:"initial_tool_schema_bytes"`
	ActivatedBytes  int    `json:"activated_tool_schema_bytes"`
	SearchCalls     int    `json:"optimizer_tool_search_calls"`
	// ActivationFailures counts labelled tools neither declared nor found.
	ActivationFailures int `json:"activation_failures"`
	// Larger counts prompts whose transformed body is larger than the
	// native one (must be 0).
	Larger int `json:"larger_than_native"`
	// PlanMicros is the median time to plan one request of this shape
	// (query extraction, ranking, decision; the index cached) in
	// microseconds. Reading the request is not timed.
	PlanMicros float64 `json:"plan_us"`
	Cases      []Case  `json:"cases"`
}

// Options says what a run measures.
type Options struct {
	Providers []capture.Provider
	Config    *config.Config
	// Run applies the tool rule pipeline to a capture.
	Run func(*capture.Capture) (*rules.Result, error)
}

// Run builds, for every prompt and provider shape, the first request of a
// session declaring tools, and applies opts.Run to it. When a labelled tool
// is not declared in the transformed request, it simulates one
// optimizer_tool_search call with the prompt as query and counts the first
// page's tools as activated. It returns one row per provider, or none for
// no prompts.
func Run(tools []capture.ToolSpec, prompts []Prompt, opts Options) ([]Row, error) {
	if len(prompts) == 0 {
		return nil, nil
	}
	var rows []Row
	for _, prov := range opts.Providers {
		row := Row{Provider: string(prov), Cases: []Case{}}
		var sample *capture.Capture
		for _, lp := range prompts {
			c, err := Capture(prov, tools, lp.Prompt)
			if err != nil {
				return nil, err
			}
			sample = c
			res, err := opts.Run(c)
			if err != nil {
				return nil, err
			}
			bc := caseOf(c, res, opts.Config, lp)
			row.Cases = append(row.Cases, bc)
			row.Prompts++
			row.Recall.add(&bc)
			switch {
			case bc.Confident():
				row.Confident++
				row.ConfidentRecall.add(&bc)
			case bc.FailOpen:
				row.FailOpen++
				row.FailOpenRecall.add(&bc)
			}
			if bc.BodyAfter > bc.BodyBefore {
				row.Larger++
			}
			row.NativeBytes += bc.NativeBytes
			row.InitialBytes += bc.InitialBytes
			row.ActivatedBytes += bc.ActivatedBytes
			row.SearchCalls += bc.SearchCalls
			row.ActivationFailures += len(bc.Missing)
		}
		row.ConfidentPct = 100 * float64(row.Confident) / float64(row.Prompts)
		row.PlanMicros = timePlan(sample, opts.Config)
		rows = append(rows, row)
	}
	return rows, nil
}

func caseOf(c *capture.Capture, res *rules.Result, cfg *config.Config, lp Prompt) Case {
	bc := Case{ID: lp.ID, Needed: len(lp.Needs), BodyBefore: len(res.Original.Body), BodyAfter: len(res.Final.Body)}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Message, tools.FailOpenPrefix) {
			bc.FailOpen = true
		}
	}
	declared := map[string]bool{}
	for _, t := range tools.DeclaredTools(res.Final) {
		bc.InitialBytes += t.Bytes
		if !t.Deferred {
			declared[t.Name] = true
		}
	}
	sizes := map[string]int{}
	var removed []string
	for _, t := range tools.DeclaredTools(res.Original) {
		bc.NativeBytes += t.Bytes
		sizes[t.Name] = t.Bytes
		if !declared[t.Name] {
			bc.Deferred++
			removed = append(removed, t.Name)
		}
	}
	var missing []string
	for _, n := range lp.Needs {
		if declared[n] {
			bc.Kept++
		} else {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return bc
	}
	// The search the model would make, over what the rule deferred.
	plan := tools.Decide(c, tools.FromSet(cfg.Options))
	plan.Deferred = removed
	bc.SearchCalls = 1
	found := map[string]bool{}
	if page, err := plan.Search(lp.Prompt, ""); err == nil {
		for _, n := range page.Activated {
			found[n] = true
			bc.ActivatedBytes += sizes[n]
		}
	}
	for _, n := range missing {
		if found[n] {
			bc.Found++
		} else {
			bc.Missing = append(bc.Missing, n)
		}
	}
	slices.Sort(bc.Missing)
	return bc
}

// timePlan returns the median time of tools.Decide on c in
// microseconds, the tool index cached (a first call fills the cache). Each
// call gets a freshly read copy of the request, read outside the timed
// region, so nothing the plan computes is reused.
func timePlan(c *capture.Capture, cfg *config.Config) float64 {
	if c == nil {
		return 0
	}
	tools.Decide(c, tools.FromSet(cfg.Options))
	var next *capture.Capture
	return bench.MedianMicros(101, func() { tools.Decide(next, tools.FromSet(cfg.Options)) }, func() {
		next, _ = c.WithBody(c.Body)
	})
}

// Bench runs the set's held-out and tuned prompts with opts (rule is the
// tool rule opts.Run applies) and times the ranking over a catalog of
// scale tools, with the first prompt as query.
func Bench(set *Set, rule *rules.Rule, opts Options, scale int) (*Report, error) {
	rep := &Report{Rule: rule.ID, RuleName: rule.Name, Set: set.Where, Tools: len(set.Tools)}
	first := ""
	for _, list := range []struct {
		name    string
		prompts []Prompt
	}{{HeldOut, set.HeldOut}, {Tuned, set.Tuned}} {
		if len(list.prompts) == 0 {
			continue
		}
		if first == "" {
			first = list.prompts[0].Prompt
		}
		rows, err := Run(set.Tools, list.prompts, opts)
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, SetResult{Name: list.name, Prompts: len(list.prompts), Rows: rows})
	}
	var err error
	if rep.Ranking, err = TimeRanking(set.Tools, scale, first, opts.Config); err != nil {
		return nil, err
	}
	return rep, nil
}
