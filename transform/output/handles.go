package output

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
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
func keep(p *rules.Pass, original string) (string, error) {
	if p.Env != nil && p.Env.DryRun {
		return archive.HandleOf([]byte(original)), nil
	}
	return storeOf(p).Put([]byte(original))
}

// kept reports an original left in place because it could not be
// archived. It is a warning whatever the rule's severity: the reduction
// the user asked for did not happen. With archiving off nothing is said.
func kept(p *rules.Pass, pointer, what string, err error) {
	if errors.Is(err, archive.ErrOff) {
		return
	}
	p.Report(rules.Diagnostic{Severity: rules.Warning, Pointer: pointer, Message: fmt.Sprintf("%s kept: %v", what, err)})
}

// declaresRetrieve reports whether c already declares retrieve_output.
func declaresRetrieve(c *capture.Capture) bool {
	for _, n := range c.ToolNames() {
		if n == retrieveTool {
			return true
		}
	}
	return false
}

// retrieveEdit returns the edit that declares retrieve_output in c, or
// nil when c declares it already. ok is false when c has no place for a
// declaration; a bare Pi message list is still ok, because the host, not
// the list, declares its tools.
func retrieveEdit(c *capture.Capture) (*rules.Edit, bool) {
	if declaresRetrieve(c) {
		return nil, true
	}
	ins, err := c.ToolInsertion(retrieveSpec)
	if err != nil {
		return nil, c.Provider == capture.PiMessages
	}
	return &rules.Edit{Pointer: ins.Pointer, Append: ins.Append, Insert: ins.Insert, NewJSON: ins.JSON, Message: "declare " + retrieveTool}, true
}

// emit records edits that leave handles in the capture, together with the
// retrieve_output declaration they need. Nothing is recorded when the
// capture cannot declare it.
func emit(p *rules.Pass, edits []rules.Edit) {
	if len(edits) == 0 {
		return
	}
	decl, ok := retrieveEdit(p.Capture)
	if !ok {
		return
	}
	for _, e := range edits {
		p.Edit(e)
	}
	if decl != nil {
		p.Edit(*decl)
	}
}

// canDeclare reports whether handles may be left in c.
func canDeclare(c *capture.Capture) bool {
	_, ok := retrieveEdit(c)
	return ok
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

func handleOf(s string) string { return archive.HandleOf([]byte(s)) }
