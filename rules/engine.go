package rules

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// Validator checks a body against its provider's schema and returns the
// error messages (empty when valid).
type Validator func(c *capture.Capture) ([]string, error)

// Keeper is where rules keep the originals of what they reduce: Put
// stores data and returns the handle that names it, Get returns the
// original a handle names, verified. The archive package provides it
// (a store on disk, one in memory, or none); the framework knows only
// this interface.
type Keeper interface {
	Put(data []byte) (string, error)
	Get(handle string) ([]byte, error)
}

// Env carries what rules and the engine need from outside. Every field is
// optional: a nil Env, or a zero field, means defaults and no services.
type Env struct {
	// Options are the configured settings of rules and families; a rule
	// finds its own in Pass.Options.
	Options *Set
	// Levels are the configured severities; nil keeps every rule's own.
	Levels *Levels
	// Validate re-validates transformed bodies; nil skips validation.
	Validate Validator
	// Archive keeps the originals of reduced content; nil means there is
	// none, and rules that need one leave content as it is.
	Archive Keeper
	// DryRun asks rules to change nothing outside the capture: measure
	// reports what would be saved.
	DryRun bool
	// Again re-runs the pipeline on a capture (the idempotence invariant).
	Again Retransform
	// BaseDir is the folder relative paths in options are resolved from:
	// the configuration file's, or the working directory's ("").
	BaseDir string
}

// levels returns the configured severities (nil: none configured).
func (e *Env) levels() *Levels {
	if e == nil {
		return nil
	}
	return e.Levels
}

// Resolve interprets a path from options: relative paths are relative to
// BaseDir.
func (e *Env) Resolve(p string) string {
	if e == nil || p == "" || e.BaseDir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.BaseDir, p)
}

// OptionsOf returns the configured copy of options declared as def (a
// family's settings, or another rule's options).
func (e *Env) OptionsOf(def Options) Options {
	if e == nil {
		return def
	}
	return e.Options.Of(def)
}

// options returns the configured options of r (nil when it has none).
func (e *Env) options(r *Rule) Options {
	if r.Options == nil {
		return nil
	}
	if e == nil {
		return r.Options
	}
	return e.Options.Of(r.Options)
}

// Retransform reruns the configured pipeline on a capture; invariants use it
// to check idempotence. The command layer sets it.
type Retransform func(c *capture.Capture) (*Result, error)

// RuleError reports a rule that failed or panicked; the capture is left
// unchanged and the run stops (exit code 2).
type RuleError struct {
	Rule    string
	Capture string
	Err     error
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%s: rule %s failed: %v", e.Capture, e.Rule, e.Err)
}

func (e *RuleError) Unwrap() error { return e.Err }

// Change is the byte effect of one applied edit. Pointer locates the value
// in the step's result: an appended array element by the index it got
// ("/tools/4"), an inserted member by its key.
type Change struct {
	Rule        string `json:"rule"`
	Pointer     string `json:"pointer"`
	BytesBefore int    `json:"bytes_before"`
	BytesAfter  int    `json:"bytes_after"`
}

// Step records what one transform rule did.
type Step struct {
	Rule        *Rule
	BytesBefore int
	BytesAfter  int
	Applied     bool
	// Dropped says why edits were rejected ("" when applied or when the
	// rule had nothing to do).
	Dropped string
	// Idle says why the rule proposed no edit, in the rule's words ("" when
	// it did, or when it gave no reason); see Pass.Idle.
	Idle string
	// PrefixChange says why the step's change of what an earlier request
	// sent is worth the cache it costs (see Pass.PrefixChange); "" for a
	// step that keeps every earlier request's prefix.
	PrefixChange string
	Changes      []Change
	// After is the capture after the step: the one before it when the step
	// was not applied.
	After *capture.Capture
}

// Saved is what the step saved (negative when it grew).
func (s *Step) Saved() int { return s.BytesBefore - s.BytesAfter }

// Result is a capture after the pipeline.
type Result struct {
	Original    *capture.Capture
	Final       *capture.Capture
	Steps       []Step
	Diagnostics []Diagnostic
}

// Changed reports whether any rule changed the body.
func (r *Result) Changed() bool { return !bytes.Equal(r.Original.Body, r.Final.Body) }

// Changes lists every applied edit in order.
func (r *Result) Changes() []Change {
	var out []Change
	for _, s := range r.Steps {
		out = append(out, s.Changes...)
	}
	return out
}

// Run executes the transform and check rules of pipeline, in order, over c.
// Each transform's edits are validated and spliced; a transform whose result
// is invalid, not smaller, or not idempotent is dropped with a diagnostic.
// A rule that errors or panics stops the run with a *RuleError.
func Run(c *capture.Capture, pipeline []*Rule, env *Env) (*Result, error) {
	res := &Result{Original: c, Final: c}
	run := &runState{pipeline: pipeline}
	var origErrs []string
	validated := false
	for _, r := range pipeline {
		switch r.Kind {
		case Check:
			p := &Pass{Rule: r, Options: env.options(r), Capture: res.Final, Original: c, Env: env, run: run}
			if err := Call(p); err != nil {
				return nil, err
			}
			res.Diagnostics = append(res.Diagnostics, p.diags...)
		case Transform:
			cur := res.Final
			p := &Pass{Rule: r, Options: env.options(r), Capture: cur, Original: c, Env: env, run: run}
			if err := Call(p); err != nil {
				return nil, err
			}
			res.Diagnostics = append(res.Diagnostics, p.diags...)
			step := Step{Rule: r, BytesBefore: len(cur.Body), BytesAfter: len(cur.Body), After: cur}
			if len(p.edits) == 0 {
				step.Idle = p.idle
				res.Steps = append(res.Steps, step)
				continue
			}
			next, changes, removed, err := apply(cur, p.edits)
			if err != nil {
				return nil, &RuleError{Rule: r.ID, Capture: c.Name, Err: err}
			}
			drop := func(reason string, sev Severity) {
				step.Dropped = reason
				res.Diagnostics = append(res.Diagnostics, Diagnostic{Rule: r.ID, Severity: sev, Capture: c.Name, Message: "transform dropped: " + reason})
			}
			// Everything a step adds counts against what it saves: a
			// declaration, a marker or a label is paid for by the request
			// it is added to.
			reason := ""
			switch {
			case bytes.Equal(next.Body, cur.Body):
				// Edits that rewrite a value to itself are no change.
				step.Idle = p.idle
				res.Steps = append(res.Steps, step)
				continue
			case r.Engine.Additive && len(next.Body) >= len(c.Body):
				reason = fmt.Sprintf("overlay would make the request larger than captured (%d → %d bytes)", len(c.Body), len(next.Body))
			case r.Engine.Size != nil && r.Engine.Size(next) >= r.Engine.Size(cur):
				reason = fmt.Sprintf("result is not smaller by its own measure (%d → %d)", r.Engine.Size(cur), r.Engine.Size(next))
			case !r.Engine.Additive && r.Engine.Size == nil && len(next.Body) >= len(cur.Body):
				reason = fmt.Sprintf("result is not smaller (%d → %d bytes)", len(cur.Body), len(next.Body))
			}
			if reason != "" {
				drop(reason, Info)
				res.Steps = append(res.Steps, step)
				continue
			}
			if !r.Engine.Lossy {
				reason = unkept(cur, next, removed, p.archived)
			}
			if reason == "" && env != nil && env.Validate != nil {
				errs, verr := env.Validate(next)
				if verr == nil && len(errs) > 0 && !validated {
					// Only a result with problems is compared with the
					// capture as read: one without has no new problem.
					origErrs, _ = env.Validate(c)
					validated = true
				}
				if verr != nil {
					reason = "result no longer validates: " + verr.Error()
				} else if bad := newProblem(origErrs, errs); bad != "" {
					reason = "the provider would reject the result: " + bad
				}
			}
			if reason == "" {
				var err error
				if reason, err = secondPass(r, next, c, env, run); err != nil {
					return nil, err
				}
			}
			if reason != "" {
				drop(reason, Error)
			} else {
				step.Applied = true
				step.BytesAfter = len(next.Body)
				step.PrefixChange = p.prefix
				step.Changes = changes
				step.After = next
				res.Final = next
			}
			res.Steps = append(res.Steps, step)
		}
	}
	return res, nil
}

// secondPass reruns r on its own result and reports why that is not
// identity ("" when it is).
func secondPass(r *Rule, next, orig *capture.Capture, env *Env, run *runState) (string, error) {
	p := &Pass{Rule: r, Options: env.options(r), Capture: next, Original: orig, Env: env, run: run, again: true}
	if err := Call(p); err != nil {
		return "", err
	}
	if len(p.edits) == 0 {
		return "", nil
	}
	again, _, err := Apply(next, p.edits)
	if err != nil {
		return "second pass produced invalid edits: " + err.Error(), nil
	}
	if !bytes.Equal(again.Body, next.Body) {
		return fmt.Sprintf("second pass is not identity (%d → %d bytes)", len(next.Body), len(again.Body)), nil
	}
	return "", nil
}

// Call runs p's rule on p, turning an error or a panic into a *RuleError
// that names the rule and the input (the capture, else p.Where). It is the
// one driver of a rule: the engine, the invariants, the request-validity
// checks and the lint engine all run rules through it.
func Call(p *Pass) (err error) {
	name := p.Where
	if p.Capture != nil {
		name = p.Capture.Name
	}
	defer func() {
		if v := recover(); v != nil {
			err = panicError(p.Rule, name, v)
		}
	}()
	if p.Rule.Run == nil {
		return &RuleError{Rule: p.Rule.ID, Capture: name, Err: errors.New("rule has no Run function")}
	}
	if e := p.Rule.Run(p); e != nil {
		return &RuleError{Rule: p.Rule.ID, Capture: name, Err: e}
	}
	return nil
}

// panicError is the error of rule r's panic with value v on capture name,
// with the first lines of the stack from the panic on.
func panicError(r *Rule, name string, v any) *RuleError {
	stack := string(debug.Stack())
	if i := strings.Index(stack, "panic("); i >= 0 {
		stack = stack[i:]
	}
	return &RuleError{Rule: r.ID, Capture: name, Err: fmt.Errorf("panic: %v\n%s", v, firstLines(stack, 12))}
}

// NewPass returns the pass of rule r over c (nil for rules that read no
// capture) with r's configured options.
func (e *Env) NewPass(r *Rule, c *capture.Capture) *Pass {
	return &Pass{Rule: r, Options: e.options(r), Capture: c, Original: c, Env: e}
}

// RunChecks runs check rules over c, skipping those env's levels turn off, and
// returns their findings. A rule that fails stops it with a *RuleError.
func RunChecks(c *capture.Capture, rs []*Rule, env *Env) ([]Diagnostic, error) {
	var out []Diagnostic
	// One pass, reset for each rule: the guard runs every check on every
	// step, and a pass per rule was most of what it allocated. A rule's
	// findings are copied out before the next rule runs.
	p := new(Pass)
	for _, r := range rs {
		if _, on := env.levels().Level(r); !on {
			continue
		}
		*p = Pass{Rule: r, Options: env.options(r), Capture: c, Original: c, Env: env, diags: p.diags[:0]}
		if err := Call(p); err != nil {
			return nil, err
		}
		out = append(out, p.diags...)
	}
	return out, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// Apply resolves each edit's pointer, rejects overlapping or nested edits
// and edits whose NewJSON is not exactly one JSON value, splices them into
// the body and returns the re-indexed capture.
func Apply(c *capture.Capture, edits []Edit) (*capture.Capture, []Change, error) {
	next, changes, _, err := apply(c, edits)
	return next, changes, err
}

// removal is a value an edit replaced: its node in the body before the
// edit, and the JSON text that took its place.
type removal struct {
	node capture.Node
	text []byte
}

// apply is Apply that also returns the values the edits replaced.
func apply(c *capture.Capture, edits []Edit) (*capture.Capture, []Change, []removal, error) {
	if next, changes, removed, ok := applyStrings(c, edits); ok {
		return next, changes, removed, nil
	}
	return applySplice(c, edits)
}

// applySplice is apply for any edits: the body spliced, and its index
// derived from the old one (capture.WithSplices), or parsed again.
func applySplice(c *capture.Capture, edits []Edit) (*capture.Capture, []Change, []removal, error) {
	spans, removed, err := resolveSplices(c.Doc, edits)
	if err != nil {
		return nil, nil, nil, err
	}
	// By position; an insertion goes before a replacement that starts at
	// the same byte (an element added before the element it replaces).
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].start == spans[i].end && spans[j].start != spans[j].end
	})
	if err := checkOverlaps(spans); err != nil {
		return nil, nil, nil, err
	}
	separateInsertions(spans)
	splices := make([]capture.Splice, len(spans))
	changes := make([]Change, len(spans))
	for i, s := range spans {
		splices[i] = capture.Splice{Start: s.start, End: s.end, Text: s.text, Node: s.node, Insert: s.insert}
		changes[i] = Change{Rule: s.e.Rule, Pointer: s.ptr, BytesBefore: s.end - s.start, BytesAfter: len(s.text)}
	}
	next, err := c.WithSplices(splices)
	if err != nil {
		// Name the edit whose new value is at fault, if one is.
		for i := range edits {
			if verr := capture.CheckValue(edits[i].NewJSON); verr != nil {
				return nil, nil, nil, fmt.Errorf("edit by %s at %q: new value is not one JSON value: %w", edits[i].Rule, edits[i].Pointer, verr)
			}
		}
		return nil, nil, nil, fmt.Errorf("spliced body does not parse: %w", err)
	}
	return next, changes, removed, nil
}

// splice is one edit resolved to bytes of the body: text takes the place
// of body[start:end], which is empty for an insertion.
type splice struct {
	start, end int
	text       []byte
	e          *Edit
	ptr        string // where the change is reported
	// node is the value text replaces, or with insert the array or
	// object text adds to.
	node   capture.Node
	insert bool
}

// resolveSplices resolves each edit to the span it replaces or the place it
// inserts at, in the order of the edits, and returns the values replaced.
// An edit whose pointer does not resolve or that does not fit its target
// is an error; one whose NewJSON is not one JSON value fails the splice.
func resolveSplices(d *capture.Doc, edits []Edit) ([]splice, []removal, error) {
	spans := make([]splice, 0, len(edits))
	appended := map[capture.Node]int{} // elements appended so far, by array node
	var removed []removal
	for i := range edits {
		e := &edits[i]
		n, err := d.Lookup(e.Pointer)
		if err != nil {
			return nil, nil, fmt.Errorf("edit by %s: %w", e.Rule, err)
		}
		var s splice
		switch {
		case e.Before:
			s, err = insertBefore(d, e, n, appended)
		case e.Append || e.Insert != "":
			s, err = insertInto(d, e, n, appended)
		default:
			node := &d.Nodes[n]
			s = splice{start: int(node.Start), end: int(node.End), text: e.NewJSON, e: e, ptr: e.Pointer, node: n}
			removed = append(removed, removal{n, e.NewJSON})
		}
		if err != nil {
			return nil, nil, err
		}
		spans = append(spans, s)
	}
	return spans, removed, nil
}

// insertBefore resolves an edit that inserts a new element before array
// element n. appended counts the elements added to each array so far.
func insertBefore(d *capture.Doc, e *Edit, n capture.Node, appended map[capture.Node]int) (splice, error) {
	parent := d.ParentOf(n)
	if parent == capture.NoNode || d.Kind(parent) != capture.Array {
		return splice{}, fmt.Errorf("edit by %s: %q is not an array element", e.Rule, e.Pointer)
	}
	text := append(append([]byte{}, e.NewJSON...), ',')
	// The new element takes the index of the one it goes before; later
	// appends to the array come one further.
	appended[parent]++
	start := int(d.Nodes[n].Start)
	return splice{start: start, end: start, text: text, e: e, ptr: e.Pointer, node: parent, insert: true}, nil
}

// insertInto resolves an edit that appends an element to array n or adds
// member e.Insert to object n, just before the container's closing
// bracket. appended counts the elements added to each array so far.
func insertInto(d *capture.Doc, e *Edit, n capture.Node, appended map[capture.Node]int) (splice, error) {
	node := &d.Nodes[n]
	want := capture.Array
	if e.Insert != "" {
		want = capture.Object
		if d.Get(n, e.Insert) != capture.NoNode {
			return splice{}, fmt.Errorf("edit by %s: %q already has a member %q", e.Rule, e.Pointer, e.Insert)
		}
	}
	if node.Kind != want {
		return splice{}, fmt.Errorf("edit by %s: %q is a %s, not an %s", e.Rule, e.Pointer, node.Kind, want)
	}
	var text []byte
	if d.Len(n) > 0 {
		text = append(text, ',')
	}
	if e.Insert != "" {
		text = capture.AppendQuote(text, e.Insert)
		text = append(text, ':')
	}
	text = append(text, e.NewJSON...)
	at := int(node.End) - 1
	// An appended element is reported at the index it gets, so two appends
	// to one array have pointers of their own.
	ptr := e.Pointer + "/" + pointerEscaper.Replace(e.Insert)
	if e.Append {
		ptr = e.Pointer + "/" + strconv.Itoa(d.Len(n)+appended[n])
		appended[n]++
	}
	return splice{start: at, end: at, text: text, e: e, ptr: ptr, node: n, insert: true}, nil
}

// checkOverlaps rejects sorted spans of which two overlap, or one lies
// inside another; insertions at one place are allowed and keep their order.
func checkOverlaps(spans []splice) error {
	for i := 1; i < len(spans); i++ {
		a, b := spans[i-1], spans[i]
		zeroA, zeroB := a.start == a.end, b.start == b.end
		switch {
		case zeroA && zeroB:
			// Two insertions at one place keep their order.
		case zeroB && b.start > a.start && b.start < a.end, zeroA && a.start > b.start && a.start < b.end:
			return fmt.Errorf("edits at %q and %q overlap or nest", a.e.Pointer, b.e.Pointer)
		case !zeroA && !zeroB && b.start < a.end:
			return fmt.Errorf("edits at %q and %q overlap or nest", a.e.Pointer, b.e.Pointer)
		}
	}
	return nil
}

// separateInsertions fixes up inserts into one empty container: each was
// resolved without a comma, as if it were alone, so the later ones get one.
func separateInsertions(spans []splice) {
	for i := 1; i < len(spans); i++ {
		if spans[i].start == spans[i-1].start && spans[i].start == spans[i].end && !spans[i].e.Before && spans[i].text[0] != ',' {
			spans[i].text = append([]byte{','}, spans[i].text...)
		}
	}
}

// applyStrings is apply for edits that each replace one string value by
// another (a rewritten prompt, a message with an overlay): the new body's
// index is derived from c's (capture.ReplaceStrings) rather than parsed.
// ok is false when an edit is of another kind or would be rejected; apply
// then does the general splice, which reports why.
func applyStrings(c *capture.Capture, edits []Edit) (*capture.Capture, []Change, []removal, bool) {
	d := c.Doc
	nodes := make([]capture.Node, len(edits))
	texts := make([][]byte, len(edits))
	for i := range edits {
		e := &edits[i]
		if e.Before || e.Append || e.Insert != "" || len(e.NewJSON) == 0 || e.NewJSON[0] != '"' {
			return nil, nil, nil, false
		}
		n, err := d.Lookup(e.Pointer)
		if err != nil || d.Kind(n) != capture.String {
			return nil, nil, nil, false
		}
		nodes[i], texts[i] = n, e.NewJSON
	}
	// Distinct string nodes neither overlap nor nest; ReplaceStrings
	// refuses one named twice and a text that is not one JSON string.
	next, ok := c.ReplaceStrings(nodes, texts)
	if !ok {
		return nil, nil, nil, false
	}
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return nodes[order[a]] < nodes[order[b]] })
	changes := make([]Change, 0, len(edits))
	for _, i := range order {
		node := d.Nodes[nodes[i]]
		changes = append(changes, Change{Rule: edits[i].Rule, Pointer: edits[i].Pointer, BytesBefore: int(node.End - node.Start), BytesAfter: len(texts[i])})
	}
	removed := make([]removal, len(edits))
	for i := range edits {
		removed[i] = removal{nodes[i], edits[i].NewJSON}
	}
	return next, changes, removed, true
}

// unkept returns why the edits that turned cur into next lost content
// ("" when they did not): a string the edits replaced is kept when the
// text that replaced it contains it, when next still holds it as a string
// (moved, or an earlier copy a reference points to), or when the rule
// archived a text that contains it (Pass.Archived). Structure, numbers and
// strings shorter than minContent bytes (type tags, roles, identifiers)
// are not content.
func unkept(cur, next *capture.Capture, removed []removal, archived []string) string {
	var inNext map[uint64]struct{}
	seed := maphash.MakeSeed()
	exact := make(map[string]struct{}, len(archived))
	for _, a := range archived {
		exact[a] = struct{}{}
	}
	d := cur.Doc
	for _, x := range removed {
		end := d.Nodes[x.node].Skip
		for i := x.node; i < end; i++ {
			if d.Nodes[i].Kind != capture.String {
				continue
			}
			raw := d.Raw(i)
			inner := raw[1 : len(raw)-1]
			if len(inner) < minContent || bytes.Contains(x.text, inner) {
				continue
			}
			text := d.Str(i)
			if _, ok := exact[text]; ok {
				continue
			}
			if inNext == nil {
				inNext = map[uint64]struct{}{}
				nd := next.Doc
				for k := range capture.Node(len(nd.Nodes)) {
					if nd.Nodes[k].Kind == capture.String {
						inNext[maphash.Bytes(seed, nd.Raw(k))] = struct{}{}
					}
				}
			}
			if _, ok := inNext[maphash.Bytes(seed, raw)]; ok {
				continue
			}
			// Last, a text archived as part of a larger one.
			if slices.ContainsFunc(archived, func(a string) bool { return len(a) > len(text) && strings.Contains(a, text) }) {
				continue
			}
			return fmt.Sprintf("removes %d bytes at %s that it neither archived nor kept (a rule that drops content is declared lossy)", len(raw), d.Pointer(i))
		}
	}
	return ""
}

// minContent is the length from which a removed string counts as content.
const minContent = 16

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// newProblem returns the first problem of after that before does not have
// (compared without their pointers, which edits move), or "".
func newProblem(before, after []string) string {
	count := map[string]int{}
	for _, e := range before {
		count[problemText(e)]++
	}
	for _, e := range after {
		k := problemText(e)
		if count[k] == 0 {
			return e
		}
		count[k]--
	}
	return ""
}

// problemText drops the "pointer: " prefix of a validation message.
func problemText(e string) string {
	if i := strings.Index(e, ": "); i >= 0 && (i == 0 || e[0] == '/' || strings.HasPrefix(e, "(root)")) {
		return e[i+2:]
	}
	return e
}

// Verify runs the invariant rules over one pipeline result.
func Verify(res *Result, invariants []*Rule, env *Env) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, r := range invariants {
		if r.Kind != Invariant || r.Engine.Cross {
			continue
		}
		p := &Pass{Rule: r, Options: env.options(r), Capture: res.Final, Original: res.Original, Env: env, Result: res}
		if err := Call(p); err != nil {
			return nil, err
		}
		out = append(out, p.diags...)
	}
	return out, nil
}

// VerifyBatch runs the cross-capture invariant rules over a batch; its
// findings come rule by rule, each rule's in the batch's order.
func VerifyBatch(batch []*Result, invariants []*Rule, env *Env) ([]Diagnostic, error) {
	v := NewBatchVerifier(invariants, env)
	byRule := make([][]Diagnostic, v.Rules())
	for _, r := range batch {
		raised, err := v.Add(r)
		if err != nil {
			return nil, err
		}
		for k, ds := range raised {
			byRule[k] = append(byRule[k], ds...)
		}
	}
	var out []Diagnostic
	for _, ds := range byRule {
		out = append(out, ds...)
	}
	return out, nil
}

// BatchVerifier runs the cross-capture invariant rules over results given
// one at a time, in order, keeping only each rule's state between them.
type BatchVerifier struct {
	passes []*Pass
}

// NewBatchVerifier prepares the cross-capture invariants among invariants.
func NewBatchVerifier(invariants []*Rule, env *Env) *BatchVerifier {
	v := &BatchVerifier{}
	for _, r := range invariants {
		if r.Kind != Invariant || !r.Engine.Cross {
			continue
		}
		v.passes = append(v.passes, &Pass{Rule: r, Options: env.options(r), Env: env})
	}
	return v
}

// Add verifies the next result of the batch and returns the findings it
// raised, rule by rule in the order of NewBatchVerifier's rules, for a
// caller that places them while the result's file is at hand.
func (v *BatchVerifier) Add(res *Result) ([][]Diagnostic, error) {
	return v.AddPrepared(res, nil)
}

// Prepared is what the rules of a BatchVerifier prepared of one result.
type Prepared []any

// Prepare runs the Engine.Prepare of each rule on res. It keeps no state,
// so results may be prepared at once, in any order, on other goroutines;
// AddPrepared then takes them in the batch's order.
func (v *BatchVerifier) Prepare(res *Result) (prep Prepared, err error) {
	prep = make(Prepared, len(v.passes))
	for k, p := range v.passes {
		if f := p.Rule.Engine.Prepare; f != nil {
			func() {
				defer func() {
					if e := recover(); e != nil {
						err = panicError(p.Rule, res.Original.Name, e)
					}
				}()
				prep[k] = f(res)
			}()
			if err != nil {
				return nil, err
			}
		}
	}
	return prep, nil
}

// AddPrepared is Add for a result whose rules' work was prepared (nil:
// not yet, and it is prepared here).
func (v *BatchVerifier) AddPrepared(res *Result, prep Prepared) ([][]Diagnostic, error) {
	if prep == nil {
		var err error
		if prep, err = v.Prepare(res); err != nil {
			return nil, err
		}
	}
	raised := make([][]Diagnostic, len(v.passes))
	for k, p := range v.passes {
		p.Result = res
		p.Prepared = prep[k]
		p.diags = nil
		if err := Call(p); err != nil {
			return nil, err
		}
		raised[k] = p.diags
		p.Result, p.Prepared = nil, nil
	}
	return raised, nil
}

// Rules returns how many cross-capture invariants the verifier runs.
func (v *BatchVerifier) Rules() int { return len(v.passes) }
