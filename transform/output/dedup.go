package transform

import (
	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// HistoryDedup is SO303.
var HistoryDedup = &rules.Rule{
	ID:       "SO303",
	Name:     "history.dedup",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "Later exact copies of a large successful tool result become a short recoverable reference. " +
		"The first copy in body order stays intact; every later result with exactly the same text is replaced by a reference that names the handle of the archived original. " +
		"Error results, results with images or other media, results below dedup_min_bytes, results with protected evidence (errors, frames, file:line, exit codes, summaries, expected/actual), " +
		"results that already carry a handle, nested Pi results and exempt tools never change. At most dedup_max_artifacts (128) distinct originals are referenced per capture, " +
		"counting references already present; at capacity, new duplicates stay unchanged instead of producing more references.",
	OptionDocs: []rules.OptionDoc{
		{Name: "output.dedup_min_bytes", Default: "1024", Doc: "smaller results are never deduplicated"},
		{Name: "output.dedup_max_artifacts", Default: "128", Doc: "distinct originals referenced per capture (at most 128)"},
	},
	Run: runDedup,
}

func runDedup(p *rules.Pass) error {
	c := p.Capture
	cfg := cfgOf(p).Output
	if !canDeclare(c) {
		return nil
	}
	results := toolResults(c)
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
		if r.isErr || r.media || r.nested || len(r.texts) != 1 || exempt(r.name, cfg.ExemptTools) {
			continue
		}
		t := r.texts[0]
		text := c.Doc.Str(t)
		if len(text) < cfg.DedupMinBytes || hasHandle(text) || reduce.HasEvidence(text) {
			continue
		}
		h := handleOf(text)
		if !first[h] {
			first[h] = true
			continue
		}
		if !artifacts[h] && len(artifacts) >= cfg.DedupMaxArtifacts {
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
	emit(p, edits)
	return nil
}
