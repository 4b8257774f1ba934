package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// validation is a validate report over the given captures: name → valid.
func validation(valid map[string]bool, diags ...Diagnostic) *Report {
	r := New("validate", "1.2.3")
	invalid := 0
	for _, name := range []string{"a.json", "b.json", "c.json"} {
		v, ok := valid[name]
		if !ok {
			continue
		}
		r.Inputs = append(r.Inputs, Input{Name: name, File: name, Provider: "anthropic", Reason: "body shape", Valid: &v})
		if !v {
			invalid++
		}
	}
	r.Diagnostics = diags
	r.Summary.Captures = Count(len(r.Inputs))
	r.Summary.Invalid = Count(invalid)
	r.Finish()
	return r
}

// TestValidateManyPrintsProblems: validating several captures lists the
// invalid ones and warnings, and counts the rest in the summary line; one
// capture still gets its verdict and its notes.
func TestValidateManyPrintsProblems(t *testing.T) {
	note := Diagnostic{Rule: "schema", Severity: rules.Info, Message: "unknown property \"thinking\" (an extension)", File: "a.json", Capture: "a.json", Pointer: "/thinking"}
	bad := Diagnostic{Rule: "schema", Severity: rules.Error, Message: "missing property \"model\"", File: "b.json", Capture: "b.json"}
	var b bytes.Buffer
	if err := Write(&b, validation(map[string]bool{"a.json": true, "b.json": false, "c.json": true}, note, bad), "text", Options{}); err != nil {
		t.Fatal(err)
	}
	want := "b.json: invalid anthropic (body shape), 1 error(s)\n" +
		"  b.json: schema error: missing property \"model\"\n" +
		"3 capture(s) validated: 2 valid, 1 invalid; 1 info note not shown (validate one capture, or --format json, to see them)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Write(&b, validation(map[string]bool{"a.json": true}, note), "text", Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "a.json: valid anthropic (body shape)\n") || !strings.Contains(b.String(), "schema info: unknown property") ||
		!strings.HasSuffix(b.String(), "1 capture(s) validated: 1 valid, 0 invalid\n") {
		t.Fatalf("one capture:\n%s", b.String())
	}
}
