package output

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// columnar is SO302.
var columnar = &rules.Rule{
	ID:       "SO302",
	Name:     "output.columnar",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "A tool result that is a homogeneous JSON array of objects becomes a lossless columnar object. " +
		`The form is {"skillopt_columnar":1,"handle":…,"columns":[keys in order of first appearance],"rows":[[values in column order],…],"absent":[[row,column],…]}: ` +
		"absent lists the cells whose key an object did not have (they hold null in rows). Values are copied as their original tokens, so big integers, -0, exponent spellings, escapes, " +
		"nulls, Unicode and nested values survive; only whitespace is dropped. Reordered and missing keys are allowed; an array with a non-object element, fewer than two objects, " +
		"fewer than half of its cells present, or a lone surrogate escape in any string is left unchanged. The conversion is accepted only after the form decodes back to exactly the original " +
		"under JSON semantics, every protected evidence string (an error message in a value, say) is found verbatim in it, and it clears the same size triggers and saving thresholds as SO301; " +
		"the exact original bytes are archived behind the handle. Exemptions, and the retrieve_output declaration, are those of SO301.",
	Reads: []string{
		"output.trigger_bytes", "output.trigger_lines", "output.min_saved_bytes", "output.min_saved_ratio",
		"output.exempt_tools", "output.overflow_tools",
	},
	Declares: []string{retrieveTool},
	Detail:   detail,
	Run:      runColumnar,
}

// columnarOf returns the columnar form of text carrying handle, when it
// clears the size triggers and saving thresholds.
func columnarOf(text, handle string, cfg *Settings) (string, bool) {
	t := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(t, "[") || !triggered(text, cfg) {
		return "", false
	}
	out, ok := reduce.Columnar(text, handle)
	if !ok || !thresholds(cfg).Clears(len(text), len(out)) {
		return "", false
	}
	return out, true
}

func runColumnar(p *rules.Pass) error {
	c := p.Capture
	cfg := SettingsOf(p.Env)
	decl := declaration(p, archiving(p))
	if !decl.usable(p) {
		p.Idle("retrieve_output cannot be declared in this request")
		return nil
	}
	var edits []rules.Edit
	for _, r := range passResults(p) {
		if r.protected(cfg.ExemptTools) || toolIn(r.name, cfg.OverflowTools) {
			continue
		}
		for _, t := range r.texts {
			text := c.Doc.Str(t)
			if hasHandle(text) {
				continue
			}
			out, ok := columnarOf(text, handleOf(text), cfg)
			if !ok {
				continue
			}
			ptr := c.Doc.Pointer(t)
			if _, err := keep(p, text); err != nil {
				kept(p, ptr, "original", err)
				continue
			}
			edits = append(edits, rules.Edit{Pointer: ptr, NewJSON: quote(out), Message: fmt.Sprintf("columnar %d → %d bytes", len(text), len(out))})
		}
	}
	p.Idle("no tool result is a JSON array of records that a table shortens enough")
	emit(p, decl, edits)
	return nil
}
