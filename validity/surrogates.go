package validity

import (
	"strconv"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// LoneSurrogates checks the \u escapes of every string of the body.
var LoneSurrogates = &rules.Rule{
	ID:       "SO508",
	Title:    "No lone UTF-16 surrogate escapes",
	Why:      "Strict JSON parsers, Anthropic's among them, refuse a string with half a surrogate pair, and lenient ones may change the text the model reads; cutting text in the middle of an emoji produces it.",
	Since:    rules.FirstVersion,
	Name:     "request.lone-surrogate",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "Strings hold no lone UTF-16 surrogate escape. " +
		"A \\u escape of a surrogate (D800–DFFF) that is not half of a high/low pair names no character: JSON allows the spelling, but strict parsers refuse it. " +
		"Anthropic's API answers HTTP 400 (\"The request body is not valid JSON: no low surrogate in string\", \"invalid high surrogate in string\") and DeepSeek's too " +
		"(\"lone leading surrogate in hex escape\"); for those endpoints it is an error. Other servers parse it differently (some replace it with U+FFFD, so the model reads another text): " +
		"there it is a warning. Truncated text is the usual cause: a host that cuts a string between the two halves of an emoji's surrogate pair.",
	Run: runLoneSurrogates,
}

func runLoneSurrogates(p *rules.Pass) error {
	c := p.Capture
	d := c.Doc
	// Where the provider refuses the body it is the rule's (configured)
	// severity, elsewhere a warning.
	strict := false
	if vendor, _ := capture.VendorOf(c); c.Provider == capture.Anthropic || vendor == "anthropic" || vendor == "deepseek" {
		strict = true
	}
	report := func(pointer, msg string) {
		if strict {
			p.Reportf(pointer, "%s", msg)
			return
		}
		// Naming the rule keeps Report from raising the severity.
		p.Report(rules.Diagnostic{Rule: p.Rule.ID, Severity: rules.Warning, Pointer: pointer, Message: msg})
	}
	// The index knows whether any surrogate escape is there at all.
	if !d.HasSurrogateEscapes() {
		return nil
	}
	reported := 0
	for i := range capture.Node(len(d.Nodes)) {
		where, what := capture.NoNode, "a string"
		if d.IsMember(i) && capture.LoneSurrogate(d.RawKey(i)) >= 0 {
			where, what = i, "a member name"
		}
		if where == capture.NoNode && d.Nodes[i].Kind == capture.String && capture.LoneSurrogate(d.Raw(i)) >= 0 {
			where = i
		}
		if where == capture.NoNode {
			continue
		}
		if reported++; reported > maxSurrogateReports {
			continue
		}
		report(d.Pointer(where), what+" holds a lone UTF-16 surrogate escape (half of a pair, or a low one on its own)")
	}
	if reported > maxSurrogateReports {
		report("", "and "+strconv.Itoa(reported-maxSurrogateReports)+" more strings with a lone surrogate escape")
	}
	return nil
}

// maxSurrogateReports bounds the findings of one body: a truncating host
// may leave thousands, and the first ones say what to fix.
const maxSurrogateReports = 20
