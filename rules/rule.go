// Package rules defines what a skillopt rule is, what it sees (a Pass), what
// it returns (Diagnostics and Edits), and the engine that runs an ordered
// pipeline of rules over a capture while enforcing the guarantees every
// transform makes: edits never overlap, the result still validates, it is
// smaller, and a second pass changes nothing.
package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// Kind says what a rule does.
type Kind int

// The rule kinds.
const (
	Check     Kind = iota // reports diagnostics only
	Transform             // returns edits to the capture
	Invariant             // verifies a promise of the transforms on their result
	Lint                  // checks a skill, an agent definition or a repository (run by catalog/lint)
)

func (k Kind) String() string {
	switch k {
	case Check:
		return "check"
	case Transform:
		return "transform"
	case Invariant:
		return "invariant"
	case Lint:
		return "lint"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Severity of a diagnostic. The zero value is Unset, never a severity a
// diagnostic leaves the Pass with: a report without one takes the
// configured severity, else the rule's default.
type Severity int

// The severities, least severe first, after Unset.
const (
	Unset Severity = iota
	Info
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Unset:
		return "unset"
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity parses "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return Unset, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// MarshalText renders the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// FirstVersion is the version of the first release of skillopt, the Since
// of every rule it already had.
const FirstVersion = "0.1.0"

// Rule is a value: an identity, documentation, and a Run function. IDs are
// stable and never reused: SO1xx catalog, SO2xx tools, SO3xx output and
// history, SO4xx invariants, SO5xx request validity, SK skill lint, AG
// agent definitions.
type Rule struct {
	ID   string
	Name string
	Kind Kind
	// Severity is the rule's default; a configured severity wins over it.
	Severity Severity
	// Title is the rule's headline in its documentation: what it finds
	// or does, in a few words, without a trailing period.
	Title string
	// Doc is one paragraph saying what the rule checks or does; its first
	// sentence is the summary shown by `skillopt rules`.
	Doc string
	// Why is one or two sentences on why the rule exists: what goes wrong
	// without it, or what it saves.
	Why string
	// Since is the version of skillopt that introduced the rule:
	// FirstVersion for the rules of the first release, the version being
	// prepared for a rule added later.
	Since string
	// Options are the rule's own settings (nil when it has none): a
	// pointer to a struct holding the defaults; see Options.
	Options Options
	// Reads names the keys of family settings the rule reads
	// ("catalog.budget_chars"), for its documentation; the registry checks
	// that they exist.
	Reads []string
	// Requires are the rules this one builds on. The registry refuses a
	// requirement it does not hold and a cycle; selecting the rule selects
	// them, before it; the rule reads what they produced with ResultOf.
	Requires []*Rule
	Run      func(*Pass) error
	// Engine holds what only the engine and the selection read: how a
	// transform is judged, whether an invariant spans a batch, whether the
	// rule is opt-in.
	Engine Engine
	// Detail, when set, adds the rule's own section to measure's report
	// of a capture whose pipeline ran the rule; nil for no section.
	Detail func(DetailInput) (*Detail, error)
}

// Engine are the properties of a rule that change how the engine runs and
// judges it. The zero value suits most rules.
type Engine struct {
	// Cross marks invariants that compare several captures; their Pass
	// carries the whole batch.
	Cross bool
	// Prepare, for a cross-capture invariant, does the part of its work
	// on one result that the results before it do not change (digests,
	// extracts): a driver may run it beside the other results' on the
	// worker that made the result, and BatchVerifier runs it otherwise;
	// Run finds its value in Pass.Prepared. It must not keep state.
	Prepare func(*Result) any
	// Opt marks an opt-in rule: an ID prefix, a family or the default
	// pipeline does not select it; only its ID or name does.
	Opt bool
	// Size, when set, is what "smaller" means for this transform, in place
	// of the body's bytes: a rule whose change keeps bytes on the wire but
	// hides them from the model (native tool deferral) is judged by the
	// bytes the model sees.
	Size func(c *capture.Capture) int
	// Additive marks a transform that adds content (an overlay): its own
	// step may grow the body as long as the result stays smaller than the
	// capture as read.
	Additive bool
	// Lossy marks a transform that may remove content without keeping it:
	// what it drops is neither archived nor still in the request. The
	// engine drops the step of a rule that is not lossy and removes bytes
	// it neither archived nor kept.
	Lossy bool
}

// Summary returns the first sentence of the rule's doc.
func (r *Rule) Summary() string {
	doc := strings.TrimSpace(r.Doc)
	if i := strings.Index(doc, ". "); i >= 0 {
		return doc[:i]
	}
	return strings.TrimSuffix(doc, ".")
}

// RequiredIDs returns the IDs of the rules r requires, in order (nil when
// none).
func (r *Rule) RequiredIDs() []string {
	var out []string
	for _, q := range r.Requires {
		out = append(out, q.ID)
	}
	return out
}

// Diagnostic is one finding. Captures are located by JSON Pointer, files by
// line and column (1-based, derived from byte offsets only when rendering).
type Diagnostic struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Capture  string   `json:"capture,omitempty"`
	Pointer  string   `json:"pointer,omitempty"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
}

// Edit changes one place of a capture's body. By default it replaces the
// value at Pointer with NewJSON, which must be one JSON value. With Append
// set, NewJSON is added as the last element of the array at Pointer; with
// Before set, it is added as a new element just before the array element at
// Pointer; with Insert set, it is added as member Insert at the end of the
// object at Pointer. Appends, befores and inserts touch no existing bytes, so
// they combine with edits of the container's other members.
type Edit struct {
	Pointer string
	NewJSON []byte
	Append  bool
	Before  bool
	Insert  string
	Rule    string
	Message string
}

// Pass is a rule's only door in and out: what it may read, and where it
// reports diagnostics and edits.
type Pass struct {
	Rule *Rule
	// Capture is the capture as the rule sees it: for transform and check
	// rules the result of the rules before it; for invariants the
	// transformed capture.
	Capture *capture.Capture
	// Original is the capture as read, before any rule.
	Original *capture.Capture
	// Options are the rule's configured options (nil when it declares
	// none); a rule asserts its own type: p.Options.(*MyOptions).
	Options Options
	// Env gives access to configuration and engine services.
	Env *Env
	// Result is the pipeline result being verified (invariants only).
	Result *Result
	// State is a cross-capture invariant's own state: the driver calls it
	// once per result of a batch, in order, with Result set and State kept
	// from the call before (nil on the first). A rule keeps in it what it
	// needs of the results before, not the results, so that a batch of any
	// size costs the memory of its state only.
	State any
	// Prepared is what the rule's Engine.Prepare made of Result (nil
	// without one).
	Prepared any
	// Unit is what a rule that reads no capture checks (lint rules: a
	// skill file, an agent definition, the repository); its driver sets it
	// and the rule's family knows its type.
	Unit any
	// Where names the input in the error of a failing rule that reads no
	// capture (the skill file being checked); "" for capture rules.
	Where string

	diags  []Diagnostic
	edits  []Edit
	idle   string
	prefix string
	run    *runState
	// archived are the texts the rule kept in the archive.
	archived []string
	// again marks the engine's second pass of a transform, whose result
	// is not handed over.
	again bool
}

// runState is what the passes of one pipeline run over one capture share.
type runState struct {
	pipeline []*Rule
	memo     map[any]any
	results  map[*Rule]any
}

// Pipeline returns the rules of the run the pass belongs to, in order: the
// rules that decide together look up which of them are in it. It is nil
// for a pass run outside the engine.
func (p *Pass) Pipeline() []*Rule {
	if p.run == nil {
		return nil
	}
	return p.run.pipeline
}

// Shared returns the value of key for the whole run over this capture,
// computed by f on its first use: rules that decide together (the output
// rules share one decision on retrieve_output) decide once, on the capture
// the first of them sees. Outside the engine f runs every time.
func (p *Pass) Shared(key any, f func() any) any {
	if p.run == nil {
		return f()
	}
	if v, ok := p.run.memo[key]; ok {
		return v
	}
	if p.run.memo == nil {
		p.run.memo = map[any]any{}
	}
	v := f()
	p.run.memo[key] = v
	return v
}

// Archived records that the rule kept text in the archive (or, under a
// dry run, would have): content it removes from the capture is not lost
// when an archived text contains it. The engine drops the step of a rule
// that is not lossy and removes content it neither archived nor kept.
func (p *Pass) Archived(text string) {
	p.archived = append(p.archived, text)
}

// Export hands v to the rules that require this one: they read it with
// ResultOf, as the result of this rule on the capture of this run. Only
// the rule's first pass over a capture exports; outside the engine Export
// does nothing.
func (p *Pass) Export(v any) {
	if p.run == nil || p.again {
		return
	}
	if p.run.results == nil {
		p.run.results = map[*Rule]any{}
	}
	p.run.results[p.Rule] = v
}

// ResultOf returns what rule req exported on this run, as a T. req must be
// one of the pass's rule's Requires (it panics otherwise: a rule reads only
// what it declared). ok is false when req exported nothing, exported
// another type, or the pass runs outside the engine.
func ResultOf[T any](p *Pass, req *Rule) (v T, ok bool) {
	if !slices.Contains(p.Rule.Requires, req) {
		panic(fmt.Sprintf("rule %s reads the result of %s, which it does not require", p.Rule.ID, req.ID))
	}
	if p.run == nil {
		return v, false
	}
	v, ok = p.run.results[req].(T)
	return v, ok
}

// Report records a diagnostic. Rule and capture default to the pass's
// rule and capture. Its severity is resolved once, by Levels.Resolve: a
// configured severity of the rule wins, then the one the diagnostic
// carries, then the rule's default.
func (p *Pass) Report(d Diagnostic) {
	if d.Rule == "" {
		d.Rule = p.Rule.ID
	}
	if d.Rule == p.Rule.ID {
		d.Severity = p.Env.levels().Resolve(p.Rule, d.Severity)
	} else if d.Severity == Unset {
		// On behalf of another rule, without a severity: the reporting
		// rule's default, never Unset.
		d.Severity = p.Rule.Severity
	}
	if d.Capture == "" && p.Capture != nil {
		d.Capture = p.Capture.Name
	}
	p.diags = append(p.diags, d)
}

// Reportf records a diagnostic at pointer.
func (p *Pass) Reportf(pointer, format string, args ...any) {
	p.Report(Diagnostic{Pointer: pointer, Message: fmt.Sprintf(format, args...)})
}

// Edit records an edit; only transform rules may edit.
func (p *Pass) Edit(e Edit) {
	if e.Rule == "" {
		e.Rule = p.Rule.ID
	}
	p.edits = append(p.edits, e)
}

// Idle records why the rule leaves this capture as it is, in a few words
// that read after "no saving:" ("no card profile: set catalog.profile",
// "no deferrable tools"). It is kept only when the rule proposes no edit;
// measure shows it beside the rule's zero saving. The last call wins.
func (p *Pass) Idle(format string, args ...any) {
	p.idle = fmt.Sprintf(format, args...)
}

// PrefixChange records that the rule's edits deliberately change what an
// earlier request of the conversation sent, so that the provider's cached
// prefix is written again once, and why that costs less than it saves.
// It is kept only when the rule's edits are applied (Step.PrefixChange);
// the conversation invariant and measure show it.
func (p *Pass) PrefixChange(format string, args ...any) {
	p.prefix = fmt.Sprintf(format, args...)
}

// Diagnostics returns what the pass has reported so far (for drivers that
// run a rule outside the engine).
func (p *Pass) Diagnostics() []Diagnostic { return p.diags }
