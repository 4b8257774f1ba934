package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/synth"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// ToolSet is a labelled tool-deferral benchmark: a catalog of tool
// declarations and first prompts, each labelled with the tools it needs.
type ToolSet struct {
	Tools   []capture.ToolSpec
	Prompts []LabelledPrompt
}

// LabelledPrompt is a first human message and the tools a person doing the
// task would need.
type LabelledPrompt struct {
	ID     string   `json:"id"`
	Prompt string   `json:"prompt"`
	Needs  []string `json:"needs"`
}

// LoadToolSet reads catalog.json (an array of {name, description,
// parameters}) and prompts.json (an array of {id, prompt, needs}) from dir
// and checks that every label names a catalog tool.
func LoadToolSet(dir string) (*ToolSet, error) {
	var raw []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	set := &ToolSet{}
	if err := toolReadJSON(filepath.Join(dir, "catalog.json"), &raw); err != nil {
		return nil, err
	}
	if err := toolReadJSON(filepath.Join(dir, "prompts.json"), &set.Prompts); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for i, t := range raw {
		if t.Name == "" || names[t.Name] {
			return nil, fmt.Errorf("%s: tool %d: empty or duplicate name %q", filepath.Join(dir, "catalog.json"), i+1, t.Name)
		}
		names[t.Name] = true
		params := append(json.RawMessage{}, t.Parameters...)
		if len(params) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, params); err != nil {
				return nil, fmt.Errorf("%s: tool %q: %w", filepath.Join(dir, "catalog.json"), t.Name, err)
			}
			params = b.Bytes()
		}
		set.Tools = append(set.Tools, capture.ToolSpec{Name: t.Name, Description: t.Description, Parameters: params})
	}
	ids := map[string]bool{}
	for _, p := range set.Prompts {
		if p.ID == "" || ids[p.ID] {
			return nil, fmt.Errorf("%s: empty or duplicate prompt id %q", filepath.Join(dir, "prompts.json"), p.ID)
		}
		ids[p.ID] = true
		for _, n := range p.Needs {
			if !names[n] {
				return nil, fmt.Errorf("%s: prompt %q needs %q, which the catalog does not declare", filepath.Join(dir, "prompts.json"), p.ID, n)
			}
		}
	}
	if len(set.Tools) == 0 || len(set.Prompts) == 0 {
		return nil, fmt.Errorf("%s: no tools or no prompts", dir)
	}
	return set, nil
}

// maxToolBenchFile bounds a benchmark fixture file (catalog.json,
// prompts.json).
const maxToolBenchFile = 64 << 20

func toolReadJSON(path string, v any) error {
	data, err := untrusted.ReadFile(path, maxToolBenchFile)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// toolBenchSystem is the system prompt of benchmark captures.
const toolBenchSystem = "You are a coding agent. Use the tools to act in the user's workspace and services."

// ToolCapture builds a request of provider p declaring tools, with a system
// prompt and one user message: the first request of a session.
func ToolCapture(p capture.Provider, tools []capture.ToolSpec, prompt string) (*capture.Capture, error) {
	var decls [][]byte
	for _, t := range tools {
		decls = append(decls, capture.RenderTool(p, t))
	}
	list := "[" + string(toolJoinBytes(decls, ',')) + "]"
	sys, msg := string(capture.Quote(toolBenchSystem)), string(capture.Quote(prompt))
	var body string
	switch p {
	case capture.Anthropic:
		body = `{"model":"claude-sonnet-4-5","max_tokens":4096,"system":[{"type":"text","text":` + sys + `}],"tools":` + list +
			`,"messages":[{"role":"user","content":[{"type":"text","text":` + msg + `}]}]}`
	case capture.OpenAIChat:
		body = `{"model":"gpt-4.1","messages":[{"role":"system","content":` + sys + `},{"role":"user","content":` + msg + `}],"tools":` + list + `}`
	case capture.OpenAIResponses:
		body = `{"model":"gpt-5.4","instructions":` + sys + `,"input":[{"role":"user","content":[{"type":"input_text","text":` + msg + `}]}],"tools":` + list + `}`
	case capture.Gemini:
		body = `{"systemInstruction":{"parts":[{"text":` + sys + `}]},"contents":[{"role":"user","parts":[{"text":` + msg + `}]}],"tools":[{"functionDeclarations":` + list + `}]}`
	case capture.Mistral:
		body = `{"model":"mistral-large-latest","messages":[{"role":"system","content":` + sys + `},{"role":"user","content":` + msg + `}],"tools":` + list + `}`
	case capture.PiMessages:
		body = `{"systemPrompt":` + sys + `,"tools":` + list + `,"messages":[{"role":"user","content":` + msg + `,"timestamp":1767225600000}]}`
	default:
		return nil, fmt.Errorf("unknown provider %q", p)
	}
	f, err := capture.Read(string(p)+".json", []byte(body), capture.Options{})
	if err != nil {
		return nil, err
	}
	if len(f.Captures) != 1 || f.Captures[0].Provider != p {
		return nil, fmt.Errorf("built %s capture is detected as something else", p)
	}
	return f.Captures[0], nil
}

func toolJoinBytes(parts [][]byte, sep byte) []byte {
	var out []byte
	for i, p := range parts {
		if i > 0 {
			out = append(out, sep)
		}
		out = append(out, p...)
	}
	return out
}

// ToolBenchCase is the outcome of one labelled prompt.
type ToolBenchCase struct {
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

// ToolBenchRow sums one provider shape over the labelled set.
type ToolBenchRow struct {
	Provider string `json:"provider"`
	Prompts  int    `json:"prompts"`
	// ToolRecall is the share of labelled tools that were declared in the
	// initial request or returned by the first search page.
	ToolRecall float64 `json:"tool_recall"`
	// Confident counts prompts that deferred tools (no fail-open).
	Confident          int     `json:"confident"`
	ConfidentPct       float64 `json:"confident_pct"`
	FailOpen           int     `json:"fail_open"`
	NativeBytes        int     `json:"native_tool_schema_bytes"`
	InitialBytes       int     `json:"initial_tool_schema_bytes"`
	ActivatedBytes     int     `json:"activated_tool_schema_bytes"`
	SearchCalls        int     `json:"optimizer_tool_search_calls"`
	ActivationFailures int     `json:"activation_failures"`
	// Larger counts prompts whose transformed body is larger than the
	// native one (must be 0).
	Larger int `json:"larger_than_native"`
	// RankMicros is the median time to plan one request (query extraction,
	// ranking, decision) over this catalog, in microseconds.
	RankMicros float64         `json:"rank_us"`
	Cases      []ToolBenchCase `json:"cases"`
}

// BenchTools runs run (the configured tool rule pipeline) over a capture of
// every labelled prompt in each provider shape. When a labelled tool is not
// declared in the transformed request, it simulates one optimizer_tool_search
// call with the prompt as query and counts the first page's tools as
// activated.
func BenchTools(set *ToolSet, providers []capture.Provider, cfg *Settings, run func(*capture.Capture) (*rules.Result, error)) ([]ToolBenchRow, error) {
	var rows []ToolBenchRow
	for _, prov := range providers {
		row := ToolBenchRow{Provider: string(prov), Cases: []ToolBenchCase{}}
		needed, recalled := 0, 0
		var sample *capture.Capture
		for _, lp := range set.Prompts {
			c, err := ToolCapture(prov, set.Tools, lp.Prompt)
			if err != nil {
				return nil, err
			}
			sample = c
			res, err := run(c)
			if err != nil {
				return nil, err
			}
			bc := toolBenchCaseOf(c, res, cfg, lp)
			row.Cases = append(row.Cases, bc)
			row.Prompts++
			needed += bc.Needed
			recalled += bc.Kept + bc.Found
			if bc.FailOpen {
				row.FailOpen++
			}
			if bc.Deferred > 0 {
				row.Confident++
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
		row.ToolRecall = 1
		if needed > 0 {
			row.ToolRecall = float64(recalled) / float64(needed)
		}
		row.ConfidentPct = 100 * float64(row.Confident) / float64(max(row.Prompts, 1))
		row.RankMicros = toolTimePlan(sample, cfg)
		rows = append(rows, row)
	}
	return rows, nil
}

func toolBenchCaseOf(c *capture.Capture, res *rules.Result, cfg *Settings, lp LabelledPrompt) ToolBenchCase {
	bc := ToolBenchCase{ID: lp.ID, Needed: len(lp.Needs), BodyBefore: len(res.Original.Body), BodyAfter: len(res.Final.Body)}
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Message, FailOpenPrefix) {
			bc.FailOpen = true
		}
	}
	od, fd := transform.ToolDecls(res.Original), transform.ToolDecls(res.Final)
	declared := map[string]bool{}
	for i := range fd {
		bc.InitialBytes += fd[i].Bytes(res.Final.Doc)
		if !fd[i].Deferred {
			declared[fd[i].Name] = true
		}
	}
	sizes := map[string]int{}
	for i := range od {
		bc.NativeBytes += od[i].Bytes(res.Original.Doc)
		sizes[od[i].Name] = od[i].Bytes(res.Original.Doc)
		if !declared[od[i].Name] {
			bc.Deferred++
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
	plan := Decide(c, cfg)
	var removed []string
	for _, t := range od {
		if !declared[t.Name] {
			removed = append(removed, t.Name)
		}
	}
	plan.Deferred = removed
	bc.SearchCalls = 1
	page, err := plan.Search(lp.Prompt, "")
	found := map[string]bool{}
	if err == nil {
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
	sort.Strings(bc.Missing)
	return bc
}

// toolTimePlan returns the median wall time of Decide on c in
// microseconds, after one warm-up call, so a cached index is what is
// measured.
func toolTimePlan(c *capture.Capture, cfg *Settings) float64 {
	if c == nil {
		return 0
	}
	Decide(c, cfg)
	return toolMedian(101, func() {
		if fresh, err := c.WithBody(c.Body); err == nil {
			Decide(fresh, cfg)
		}
	}, nil)
}

// toolMedian times fn n times (before runs untimed ahead of each call) and
// returns the median in microseconds.
func toolMedian(n int, fn, before func()) float64 {
	ts := make([]time.Duration, n)
	for i := range ts {
		if before != nil {
			before()
		}
		start := time.Now()
		fn()
		ts[i] = time.Since(start)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return float64(ts[n/2].Nanoseconds()) / 1000
}

// ScaledTools returns n tool declarations made from a catalog, for ranking
// at sizes the labelled set does not reach: the catalog first, then copies
// whose server part carries a number ("mcp__github2__create_issue") and
// whose description gains a distinct synthetic sentence, so the vocabulary
// keeps growing with the catalog as a real one does.
func ScaledTools(tools []capture.ToolSpec, n int) []capture.ToolSpec {
	extra := synth.Skills(n, 1)
	out := make([]capture.ToolSpec, 0, n)
	for copyNo := 1; len(out) < n && len(tools) > 0; copyNo++ {
		for _, t := range tools {
			if len(out) == n {
				break
			}
			if copyNo > 1 {
				prefix := toolServerPrefix(t.Name)
				switch {
				case prefix != "":
					base := strings.TrimRight(prefix, "_.")
					t.Name = base + fmt.Sprint(copyNo) + prefix[len(base):] + t.Name[len(prefix):]
				default:
					t.Name = fmt.Sprintf("%s_%d", t.Name, copyNo)
				}
				t.Description += " " + extra[len(out)].Description
			}
			out = append(out, t)
		}
	}
	return out
}

// ToolRankTiming is the time to plan one request (human text, history,
// ranking, decision) over a catalog of Tools declarations.
type ToolRankTiming struct {
	Tools int `json:"tools"`
	// ColdMicros builds the index from the request's declarations;
	// WarmMicros finds it cached (consecutive requests of one session).
	ColdMicros float64 `json:"cold_us"`
	WarmMicros float64 `json:"warm_us"`
}

// TimeToolRanking measures planning an Anthropic request of n tools made
// from set with prompt.
func TimeToolRanking(set *ToolSet, n int, prompt string, cfg *Settings) (ToolRankTiming, error) {
	c, err := ToolCapture(capture.Anthropic, ScaledTools(set.Tools, n), prompt)
	if err != nil {
		return ToolRankTiming{}, err
	}
	t := ToolRankTiming{Tools: n}
	fresh := func() *capture.Capture {
		f, _ := c.WithBody(c.Body)
		return f
	}
	var next *capture.Capture
	t.ColdMicros = toolMedian(51, func() { Decide(next, cfg) }, func() {
		toolClearIndexCache()
		next = fresh()
	})
	Decide(c, cfg)
	t.WarmMicros = toolMedian(51, func() { Decide(next, cfg) }, func() { next = fresh() })
	return t, nil
}
