package output

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform"
)

// retrieveTool is the tool that resolves handles.
const retrieveTool = "retrieve_output"

// retrieveSpec declares retrieve_output; its bytes count against every
// saving that needs it.
var retrieveSpec = capture.ToolSpec{
	Name:        retrieveTool,
	Description: "Return a tool output that skillopt shortened, exactly as it was, by its handle (sko:…); lines \"A:B\" returns that 1-based range.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"handle":{"type":"string"},"lines":{"type":"string"}},"required":["handle"]}`),
}

// storeOf returns the archive a pass keeps originals in and reads them
// from: archive.Off when the environment has none.
func storeOf(p *rules.Pass) archive.Keeper {
	if p.Env == nil || p.Env.Archive == nil {
		return archive.Off
	}
	return p.Env.Archive
}

// archiving reports whether originals can be kept at all; with archiving
// off, rules that need the archive leave their content alone.
func archiving(p *rules.Pass) bool { return storeOf(p) != archive.Off }

// keep archives an original and returns its handle. Under a dry run
// nothing is written: the handle is the digest, known without writing.
//
// An original that could not be archived stays unkept for the rest of the
// run over the capture, even if the archive would take it on a second try
// (another process may be cleaning the archive): the engine's second pass
// must not reduce what the first one left, or it would drop the rule's
// whole step as not idempotent and hide the real cause, the failed write.
func keep(p *rules.Pass, original string) (string, error) {
	if p.Env != nil && p.Env.DryRun {
		p.Archived(original)
		return archive.HandleOfString(original), nil
	}
	failed := p.Shared(failedKey{}, func() any { return map[string]error{} }).(map[string]error)
	if err, ok := failed[original]; ok {
		return "", err
	}
	h, err := storeOf(p).Put([]byte(original))
	if err != nil {
		failed[original] = err
		return h, err
	}
	p.Archived(original)
	return h, nil
}

// failedKey keys the originals the archive refused during a run.
type failedKey struct{}

// kept reports an original left in place because it could not be
// archived. It is a warning whatever the rule's severity: the reduction
// the user asked for did not happen. With archiving off nothing is said.
func kept(p *rules.Pass, pointer, what string, err error) {
	if errors.Is(err, archive.ErrOff) {
		return
	}
	p.Report(rules.Diagnostic{Severity: rules.Warning, Pointer: pointer, Message: fmt.Sprintf("%s kept: %v", what, err)})
}

// isRetrieveDesc reports whether a retrieve_output description is
// skillopt's own (a tool of the host may carry the same name).
func isRetrieveDesc(desc string) bool { return desc == retrieveSpec.Description }

// declaresRetrieve reports whether c already declares skillopt's
// retrieve_output.
func declaresRetrieve(c *capture.Capture) bool {
	return transform.DeclaredAs(c, retrieveTool, isRetrieveDesc) == transform.Ours
}

// retrieveDecl is how one pass of an output rule declares retrieve_output.
type retrieveDecl struct {
	// ok says handles may be left in the capture: retrieve_output is
	// declared, can be, or (a bare Pi message list) is the host's business.
	ok bool
	// edit is the declaration still to add; nil when there is none to add.
	edit *rules.Edit
	// foreign says the host has a tool of that name that is not skillopt's.
	foreign bool
}

// declaration decides how a pass declares retrieve_output: it is there
// already, the edit that adds it, or (a bare Pi message list, which
// declares no tools) the host's business. The declaration comes with the
// first handle a request carries and counts against what that request
// saves; when it is added in the middle of a conversation is the recovery
// gate's decision (recovery.go). A tool of the host named retrieve_output
// stops the rule: its recovery labels would point the model at that tool.
func declaration(p *rules.Pass) retrieveDecl {
	c := p.Capture
	switch transform.DeclaredAs(c, retrieveTool, isRetrieveDesc) {
	case transform.Ours:
		return retrieveDecl{ok: true}
	case transform.Foreign:
		return retrieveDecl{foreign: true}
	}
	e, err := transform.Declare(c, retrieveSpec)
	if err != nil {
		return retrieveDecl{ok: c.Provider == capture.PiMessages}
	}
	return retrieveDecl{ok: true, edit: &e}
}

// usable reports whether handles may be left in the capture, saying why
// not when a tool of the host stands in the way.
func (d retrieveDecl) usable(p *rules.Pass) bool {
	if d.foreign {
		p.Reportf("", "not applied: the request already has a tool named %s that skillopt did not declare", retrieveTool)
	}
	return d.ok
}

// emit records edits that leave handles in the capture, together with the
// retrieve_output declaration they need. Nothing is recorded when there
// are no edits or handles may not be left.
func emit(p *rules.Pass, decl retrieveDecl, edits []rules.Edit) {
	if !decl.ok || len(edits) == 0 {
		return
	}
	for _, e := range edits {
		p.Edit(e)
	}
	if decl.edit != nil {
		p.Edit(*decl.edit)
	}
}

func reduceOptions(o *Settings) reduce.Options {
	return reduce.Options{HeadLines: o.HeadLines, TailLines: o.TailLines, ContextLines: o.ContextLines, MaxLineBytes: o.MaxLineBytes}
}

func thresholds(o *Settings) reduce.Thresholds {
	return reduce.Thresholds{MinSavedBytes: o.MinSavedBytes, MinSavedRatio: o.MinSavedRatio}
}

// triggered reports whether text is large enough to reduce: at least
// trigger_bytes UTF-8 bytes or trigger_lines lines.
func triggered(text string, o *Settings) bool {
	if o.TriggerBytes > 0 && len(text) >= o.TriggerBytes {
		return true
	}
	return o.TriggerLines > 0 && archive.CountLines([]byte(text)) >= o.TriggerLines
}

// hasHandle reports whether text already carries a handle: it is a
// reduction, a reference or an overflow replacement, and is never reduced
// again (no handle of a handle).
func hasHandle(text string) bool { return len(archive.FindHandles(text)) > 0 }

func quote(s string) []byte { return capture.Quote(s) }

func handleOf(s string) string { return archive.HandleOfString(s) }
