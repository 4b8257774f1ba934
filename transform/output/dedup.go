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
	Name:     "history.dedup",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Later exact copies of a large successful tool result become a short recoverable reference. " +
		"The first copy in body order stays intact; every later result with exactly the same text is replaced by a reference that names the handle of the archived original. " +
		"Error results, results with images or other media, results below dedup_min_bytes, results with protected evidence (errors, frames, file:line, exit codes, summaries, expected/actual), " +
		"results that already carry a handle, nested Pi results and exempt tools never change. At most dedup_max_artifacts (128) distinct originals are referenced per capture, " +
		"counting references already present; at capacity, new duplicates stay unchanged instead of producing more references. Loaded skill files are never replaced; retrieve_output is declared as by SO301.",
	Options:  &dedupOptions{MinBytes: 1024, MaxArtifacts: 128},
	Reads:    []string{"output.exempt_tools"},
	Declares: []string{retrieveTool},
	Detail:   detail,
	Run:      runDedup,
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
	c := p.Capture
	opts := p.Options.(*dedupOptions)
	exemptTools := SettingsOf(p.Env).ExemptTools
	decl := declaration(p, archiving(p))
	if !decl.usable(p) {
		p.Idle("retrieve_output cannot be declared in this request")
		return nil
	}
	results := passResults(p)
	// Distinct originals already referenced count towards the capacity.
	artifacts := map[string]bool{}
	for _, r := range results {
		for _, t := range r.texts {
			if text := c.Doc.Str(t); reduce.IsDuplicateLabel(text) {
				for _, h := range archive.FindHandles(text) {
					artifacts[h] = true
				}
			}
		}
	}
	first := map[string]bool{}
	var edits []rules.Edit
	for _, r := range results {
		if r.isErr || r.media || len(r.texts) != 1 || r.protected(exemptTools) {
			continue
		}
		t := r.texts[0]
		text := c.Doc.Str(t)
		if len(text) < opts.MinBytes || hasHandle(text) || reduce.HasEvidence(text) {
			continue
		}
		h := handleOf(text)
		if !first[h] {
			first[h] = true
			continue
		}
		if !artifacts[h] && len(artifacts) >= opts.MaxArtifacts {
			continue
		}
		ptr := c.Doc.Pointer(t)
		if _, err := keep(p, text); err != nil {
			kept(p, ptr, "duplicate", err)
			continue
		}
		artifacts[h] = true
		edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(reduce.DuplicateLabel(len(text), h)), Message: "duplicate of an earlier result"})
	}
	p.Idle("no tool result of output.dedup_min_bytes (%d) repeats an earlier one", opts.MinBytes)
	emit(p, decl, edits)
	return nil
}
