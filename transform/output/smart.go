package output

import (
	"fmt"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// smart is SO301.
var smart = &rules.Rule{
	ID:       "SO301",
	Title:    "Reduce large tool results to their evidence",
	Why:      "Long command output fills the context with lines the model does not need, while the errors, failing tests and file positions are what it acts on. The rule keeps those verbatim and archives the exact original behind a handle the model can retrieve.",
	Since:    rules.FirstVersion,
	Name:     "output.smart",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Large tool results are reduced to their protected evidence, with the exact original archived behind a handle. " +
		"A tool result of at least trigger_bytes UTF-8 bytes or trigger_lines lines (triggers, not caps) goes to the first format-aware reducer that recognises it " +
		"(go test, pytest and unittest, node/TAP/jest, cargo and rustc, compiler diagnostics, git log and diff stat, ls -l listings, package lists, logs), else to the generic one. " +
		"Error and failure lines, stack frames, file:line references, exit codes, failing test names, test summaries and expected/actual lines are kept verbatim with context; " +
		"the rest is replaced by markers that count the elided lines and name their line numbers, and a recovery label naming the handle and retrieve_output is appended. " +
		"The reduction is returned only if the complete text, label included, saves at least min_saved_bytes and min_saved_ratio; the thresholds are checked before the archive write, and when the write fails the original stays. " +
		"Error results (is_error, isError, a non-zero exit code) are reduced too: their evidence is kept, their noise is not. " +
		"Loaded skill files (a read of a SKILL.md or of a file inside a catalogued skill's folder), content a provider's server produced (Anthropic server and MCP tool results in assistant turns), " +
		"results of skill_search, optimizer_tool_search, retrieve_output, exempt_tools and overflow_tools, nested Pi results, results that already carry a handle, " +
		"and JSON arrays that SO302 converts are left alone. retrieve_output is declared with the first handle (in front of Anthropic's last tool cache breakpoint) and counts against the saving; " +
		"a request with nothing to reduce comes back unchanged. Declaring it in the middle of a conversation makes the provider write the cached prefix again, so the output rules wait, together, " +
		"for the first request whose own saving pays for that at the model's cache write and read prices (the recovery gate; output.break_even_turns counts later turns too), " +
		"and go on from there on every later turn. A tool of the host named retrieve_output stops the rule. " +
		"With extract_dir set, a candidate extraction of a result is read from the file of that folder named by the result's content hash (the 43 characters of its handle after sko:, then .txt) " +
		"and returned in its place, with a recovery label naming the extract reducer, only when it passes every guard: its lines are an ordered verbatim subsequence of the result's, it keeps every protected evidence string " +
		"the smart reduction would keep, it clears both saving thresholds, and the original is archived; otherwise the result is reduced as above, or left as it is.",
	Reads: []string{
		"output.trigger_bytes", "output.trigger_lines", "output.min_saved_bytes", "output.min_saved_ratio",
		"output.head_lines", "output.tail_lines", "output.context_lines", "output.max_line_bytes",
		"output.exempt_tools", "output.overflow_tools",
	},
	Options: &smartOptions{},
	Detail:  detail,
	Run:     runSmart,
}

// smartOptions are SO301's own keys of the [output] table.
type smartOptions struct {
	ExtractDir string `toml:"extract_dir" doc:"folder of candidate extractions, one file per tool result named by its content hash (HANDLE-WITHOUT-sko:.txt); a candidate replaces the result only when every extraction guard accepts it (\"\": none)"`
}

func (*smartOptions) Section() string { return "output" }

func runSmart(p *rules.Pass) error {
	cfg := SettingsOf(p.Env)
	return produce(p, fmt.Sprintf("no tool result of output.trigger_bytes (%d) or trigger_lines (%d) that a reducer shortens enough", cfg.TriggerBytes, cfg.TriggerLines))
}

// planSmart is SO301's planner: large results a reducer shortens enough,
// except those SO302 and SO304 take.
func planSmart(p *rules.Pass, o rules.Options) planner {
	cfg := SettingsOf(p.Env)
	opts, th := reduceOptions(cfg), thresholds(cfg)
	columnar := columnarMemo(p, cfg)
	dir := ""
	if so, ok := o.(*smartOptions); ok {
		dir = p.Env.Resolve(so.ExtractDir)
	}
	return func(r *toolResult, text string) (replacement, bool) {
		if r.protected(cfg.ExemptTools) || toolIn(r.name, cfg.OverflowTools) {
			return replacement{}, false
		}
		if !triggered(text, cfg) || hasHandle(text) {
			return replacement{}, false
		}
		if _, ok := columnar(text); ok {
			return replacement{}, false
		}
		why := ""
		if dir != "" {
			x, found, err := extraction(p, dir, text, cfg)
			switch {
			case err != nil:
				why = fmt.Sprintf("extraction unreadable (%v); ", err)
			case found && x.Accepted:
				return replacement{out: x.Text, msg: fmt.Sprintf("extraction accepted %d → %d bytes", len(text), len(x.Text))}, true
			case found:
				why = fmt.Sprintf("extraction refused by the %s guard (%s); ", x.Refused, x.Why())
			}
		}
		out, res, ok := reduce.Smart(text, opts, th, handleOf(text))
		if !ok {
			return replacement{}, false
		}
		return replacement{out: out, msg: fmt.Sprintf("%s%s reduced %d → %d bytes", why, res.Reducer, len(text), len(out))}, true
	}
}

// columnarMemo returns columnarOf for the texts of one run: SO301 asks it
// to leave SO302's arrays alone, SO302 to convert them, and a large array
// is converted once.
func columnarMemo(p *rules.Pass, cfg *Settings) func(text string) (string, bool) {
	type result struct {
		out string
		ok  bool
	}
	memo := p.Shared(columnarKey{}, func() any { return map[string]result{} }).(map[string]result)
	return func(text string) (string, bool) {
		if r, seen := memo[text]; seen {
			return r.out, r.ok
		}
		out, ok := columnarOf(text, handleOf(text), cfg)
		memo[text] = result{out, ok}
		return out, ok
	}
}

type columnarKey struct{}

// extraction reads and guards the candidate extraction of text in dir.
// The archive guard asks only whether originals can be kept: the rule
// archives the original with its other replacements, and one it cannot
// keep stays as it is.
func extraction(p *rules.Pass, dir, text string, cfg *Settings) (Extraction, bool, error) {
	cand, found, err := readCandidate(dir, text)
	if err != nil || !found {
		return Extraction{}, found, err
	}
	keepable := func(string) error {
		if !archiving(p) {
			return archive.ErrOff
		}
		return nil
	}
	return CheckExtract(text, cand, cfg, keepable), true, nil
}
