// Package invariant holds the invariants of the rule engine itself
// (SO401–SO405): promises every pipeline keeps whatever its rules, checked
// by rules.Verify on one result and rules.VerifyBatch on a batch. Each
// transform family checks its own promises with its own invariants.
package invariant

import (
	"bytes"
	"crypto/sha256"
	"fmt"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Rules returns the invariants of the engine itself, in order.
func Rules() []*rules.Rule { return declared() }

// ShapePreserved is SO401.
var ShapePreserved = &rules.Rule{
	ID:       "SO401",
	Title:    "Transforms keep the envelope and provider shape",
	Why:      "A transform that changed the wire format or the envelope would produce a request the provider rejects or a file the host cannot read back.",
	Since:    rules.FirstVersion,
	Name:     "invariant.shape-preserved",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "The transformed capture keeps its envelope and provider shape. " +
		"After every transform the body must still be detected as the same provider, sit in the same envelope (bare body, request record, HAR entry, JSONL line), " +
		"and validate against that provider's schema whenever the original did. A transform that changes the wire format would send the provider something it rejects.",
	Run: func(p *rules.Pass) error {
		before, after := p.Result.Original, p.Result.Final
		if before.Envelope != after.Envelope {
			p.Reportf("", "envelope changed from %s to %s", before.Envelope, after.Envelope)
		}
		if before.Reason != "set by --provider" {
			if prov, _, err := capture.Detect(after); err != nil {
				p.Reportf("", "transformed body is no longer a recognisable request: %v", err)
			} else if prov != before.Provider {
				p.Reportf("", "provider changed from %s to %s", before.Provider, prov)
			}
		}
		if p.Env != nil && p.Env.Validate != nil {
			origErrs, err := p.Env.Validate(before)
			if err != nil {
				return err
			}
			if len(origErrs) == 0 {
				errs, err := p.Env.Validate(after)
				if err != nil {
					return err
				}
				for _, e := range errs {
					p.Reportf("", "transformed body fails the %s schema: %s", after.Provider, e)
				}
			}
		}
		return nil
	},
}

// NoGrowth is SO402.
var NoGrowth = &rules.Rule{
	ID:       "SO402",
	Title:    "Transforms never make a capture larger",
	Why:      "skillopt exists to make requests smaller; a step that grows the body, counting everything it adds, defeats the point.",
	Since:    rules.FirstVersion,
	Name:     "invariant.no-growth",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "A transformed capture is never larger than the original. " +
		"Every accepted transformation must make the body smaller, counting everything it adds (markers, recovery labels, tool declarations); when nothing can be saved the capture must be left byte-identical. " +
		"A rule that declares its own measure (native tool deferral keeps definitions on the wire but hides them from the model) must make that measure smaller instead.",
	Run: func(p *rules.Pass) error {
		before, after := len(p.Result.Original.Body), len(p.Result.Final.Body)
		ownMeasure := false
		for _, s := range p.Result.Steps {
			ownMeasure = ownMeasure || s.Applied && s.Rule.Engine.Size != nil
		}
		if after > before && !ownMeasure {
			p.Reportf("", "transformed body grew from %d to %d bytes", before, after)
		}
		for _, s := range p.Result.Steps {
			if s.Applied && !s.Rule.Engine.Additive && s.Rule.Engine.Size == nil && s.Saved() <= 0 {
				p.Reportf("", "rule %s was applied without a saving (%d → %d bytes)", s.Rule.ID, s.BytesBefore, s.BytesAfter)
			}
		}
		return nil
	},
}

// Idempotent is SO403.
var Idempotent = &rules.Rule{
	ID:       "SO403",
	Title:    "Transforming twice changes nothing",
	Why:      "Requests are transformed on every turn; if a second pass changed the bytes again, the request would drift and the provider's prompt cache would miss.",
	Since:    rules.FirstVersion,
	Name:     "invariant.idempotent",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Doc: "Transforming a transformed capture changes nothing. " +
		"Running the whole pipeline a second time over its own output must return the same bytes; otherwise requests drift from turn to turn and provider prompt caches miss.",
	Run: func(p *rules.Pass) error {
		if p.Env == nil || p.Env.Again == nil {
			return fmt.Errorf("no pipeline available to re-run")
		}
		again, err := p.Env.Again(p.Result.Final)
		if err != nil {
			return err
		}
		if !bytes.Equal(again.Final.Body, p.Result.Final.Body) {
			p.Reportf("", "a second pass changed the body (%d → %d bytes)", len(p.Result.Final.Body), len(again.Final.Body))
		}
		return nil
	},
}

// StablePrefix is SO404.
var StablePrefix = &rules.Rule{
	ID:       "SO404",
	Title:    "Captures that shared a prefix still share it",
	Why:      "Prompt caches hit only when the cached bytes repeat exactly; a catalog transform that made the system text depend on the conversation would turn cache reads into full-price input.",
	Since:    rules.FirstVersion,
	Name:     "invariant.stable-prefix",
	Kind:     rules.Invariant,
	Severity: rules.Error,
	Engine:   rules.Engine{Cross: true, Prepare: preparePrefix},
	Doc: "Captures that share a skill catalog and their system text still share them after transformation. " +
		"The compared bytes are the system and developer text with the skill catalog (tool declarations are left to the tool rules, whose selection may follow the conversation). " +
		"Provider prompt caches only hit when these bytes repeat exactly, so a catalog transform must not make them depend on the conversation. " +
		"Captures whose system text already differed before transformation are not compared.",
	Run: runStablePrefix,
}

// prefixGroup is what SO404 keeps of the first capture of one catalog.
type prefixGroup struct {
	first         string // its name
	before, after [32]byte
}

// prefixHashes is what SO404 makes of one result on its own: the hash of
// its catalog, and of its system prefix before and after transformation.
// Nil without a catalog.
type prefixHashes struct {
	key, before, after [32]byte
}

func preparePrefix(r *rules.Result) any {
	cat := r.Original.CatalogBytes()
	if len(cat) == 0 {
		return (*prefixHashes)(nil)
	}
	return &prefixHashes{sha256.Sum256(cat), sha256.Sum256(r.Original.SystemPrefix()), sha256.Sum256(r.Final.SystemPrefix())}
}

func runStablePrefix(p *rules.Pass) error {
	groups, _ := p.State.(map[[32]byte]*prefixGroup)
	if groups == nil {
		groups = map[[32]byte]*prefixGroup{}
		p.State = groups
	}
	r := p.Result
	h := p.Prepared.(*prefixHashes)
	if h == nil {
		return nil
	}
	g, ok := groups[h.key]
	if !ok {
		groups[h.key] = &prefixGroup{first: r.Original.Name, before: h.before, after: h.after}
		return nil
	}
	if h.before == g.before && h.after != g.after {
		p.Report(rules.Diagnostic{Capture: r.Original.Name, Message: fmt.Sprintf("stable prefix differs from %s after transformation although both had the same prefix before", g.first)})
	}
	return nil
}
