package output

import (
	"fmt"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// dedup is SO303.
var dedup = &rules.Rule{
	ID:       "SO303",
	Title:    "Replace repeated tool results with a reference",
	Why:      "Agents often read the same file or run the same command more than once, and each copy is paid for again on every later request. Later copies become a reference to the archived original, so nothing is lost.",
	Since:    rules.FirstVersion,
	Name:     "history.dedup",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Later exact copies of a large successful tool result become a short recoverable reference. " +
		"The first copy in body order stays intact; every later result with exactly the same text is replaced by a reference that names the handle of the archived original. " +
		"Error results, results with images or other media, results below dedup_min_bytes, results with protected evidence (errors, frames, file:line, exit codes, summaries, expected/actual), " +
		"results that already carry a handle, nested Pi results and exempt tools never change. At most dedup_max_artifacts (128) distinct originals are referenced per capture, " +
		"counting references already present; at capacity, new duplicates stay unchanged instead of producing more references. Loaded skill files are never replaced; retrieve_output is declared, and waits for the recovery gate, as with SO301.",
	Options: &dedupOptions{MinBytes: 1024, MaxArtifacts: 128},
	Reads:   []string{"output.exempt_tools"},
	Detail:  detail,
	Run:     runDedup,
}

// dedupOptions are SO303's keys of the [output] table.
type dedupOptions struct {
	MinBytes     int `toml:"dedup_min_bytes" doc:"results smaller than this many bytes are never deduplicated"`
	MaxArtifacts int `toml:"dedup_max_artifacts" doc:"distinct originals referenced per capture, references already present included (0..128)"`
}

func (*dedupOptions) Section() string { return "output" }

func (o *dedupOptions) Check() []rules.OptionError {
	var errs []rules.OptionError
	if o.MinBytes < 0 {
		errs = append(errs, rules.OptionError{Key: "dedup_min_bytes", Msg: fmt.Sprintf("%d must not be negative", o.MinBytes)})
	}
	if o.MaxArtifacts < 0 || o.MaxArtifacts > 128 {
		errs = append(errs, rules.OptionError{Key: "dedup_max_artifacts", Msg: fmt.Sprintf("%d is outside 0..128", o.MaxArtifacts)})
	}
	return errs
}

func runDedup(p *rules.Pass) error {
	opts := p.Options.(*dedupOptions)
	return produce(p, fmt.Sprintf("no tool result of output.dedup_min_bytes (%d) repeats an earlier one", opts.MinBytes))
}

// planDedup is SO303's planner: it sees the results of one capture in body
// order, so that the first copy of each stays.
func planDedup(p *rules.Pass, o rules.Options) planner {
	opts := o.(*dedupOptions)
	exemptTools := SettingsOf(p.Env).ExemptTools
	c := p.Capture
	// Distinct originals already referenced count towards the capacity.
	artifacts := map[string]bool{}
	for _, r := range passResults(p) {
		for _, t := range r.texts {
			if text := c.Doc.Str(t); reduce.IsDuplicateLabel(text) {
				for _, h := range archive.FindHandles(text) {
					artifacts[h] = true
				}
			}
		}
	}
	first := map[string]bool{}
	return func(r *toolResult, text string) (replacement, bool) {
		if r.isErr || r.media || len(r.texts) != 1 || r.protected(exemptTools) {
			return replacement{}, false
		}
		if len(text) < opts.MinBytes || hasHandle(text) || reduce.HasEvidence(text) {
			return replacement{}, false
		}
		h := handleOf(text)
		if !first[h] {
			first[h] = true
			return replacement{}, false
		}
		if !artifacts[h] && len(artifacts) >= opts.MaxArtifacts {
			return replacement{}, false
		}
		artifacts[h] = true
		return replacement{out: reduce.DuplicateLabel(len(text), h), msg: "duplicate of an earlier result"}, true
	}
}
