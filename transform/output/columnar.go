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
	Title:    "Write uniform JSON arrays of objects in columns",
	Why:      "An array of objects repeats every key in every element; writing the keys once and the values in rows is lossless and often much shorter. The form is accepted only after it decodes back to exactly the original.",
	Since:    rules.FirstVersion,
	Name:     "output.columnar",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Doc: "A tool result that is a homogeneous JSON array of objects becomes a lossless columnar object. " +
		`The form is {"skillopt_columnar":1,"handle":…,"columns":[keys in order of first appearance],"rows":[[values in column order],…],"absent":[[row,column],…]}: ` +
		"absent lists the cells whose key an object did not have (they hold null in rows). Values are copied as their original tokens, so big integers, -0, exponent spellings, escapes, " +
		"nulls, Unicode and nested values survive; only whitespace is dropped. Reordered and missing keys are allowed; an array with a non-object element, fewer than two objects, " +
		"fewer than half of its cells present, a lone surrogate escape in any string, or protected evidence in a string value (an error message, a stack frame, a file:line) is left unchanged. " +
		"The conversion is accepted only after the form decodes back to exactly the original under JSON semantics, and when it clears the same size triggers and saving thresholds as SO301; " +
		"the exact original bytes are archived behind the handle. Exemptions, the retrieve_output declaration and the recovery gate are those of SO301.",
	Reads: []string{
		"output.trigger_bytes", "output.trigger_lines", "output.min_saved_bytes", "output.min_saved_ratio",
		"output.exempt_tools", "output.overflow_tools",
	},
	Detail: detail,
	Run:    runColumnar,
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
	return produce(p, "no tool result is a JSON array of records that a table shortens enough")
}

// planColumnar is SO302's planner.
func planColumnar(p *rules.Pass, _ rules.Options) planner {
	cfg := SettingsOf(p.Env)
	columnar := columnarMemo(p, cfg)
	return func(r *toolResult, text string) (replacement, bool) {
		if r.protected(cfg.ExemptTools) || toolIn(r.name, cfg.OverflowTools) || hasHandle(text) {
			return replacement{}, false
		}
		out, ok := columnar(text)
		if !ok {
			return replacement{}, false
		}
		return replacement{out: out, msg: fmt.Sprintf("columnar %d → %d bytes", len(text), len(out))}, true
	}
}
