package measure_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

// byteCounter is the stand-in tokenizer of these tests, so counts do not
// depend on a vocabulary.
type byteCounter = convtest.Quarters

func exampleReport(t *testing.T) *measure.Report {
	t.Helper()
	f, err := capture.ReadFile(filepath.Join("..", "testdata", "examples", "anthropic-catalog.json"), nil, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Captures[0].Name = "anthropic-catalog.json"
	res, err := rules.Run(f.Captures[0], []*rules.Rule{catalogrules.CompactIndex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cr := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}, Replay: 8})
	return measure.Summarize([]*measure.CaptureReport{cr}, []string{measure.CatalogKey(f.Captures[0])})
}

func TestSectionsAddUp(t *testing.T) {
	rep := exampleReport(t)
	c := rep.Captures[0]
	sum, tok := 0, 0
	for _, s := range c.Sections {
		sum += s.Bytes
		tok += s.Tokens
	}
	if sum != c.Bytes || tok != c.Tokens.Count {
		t.Fatalf("sections sum to %d bytes / %d tokens, capture has %d / %d", sum, tok, c.Bytes, c.Tokens.Count)
	}
	if c.Skills.Count != 8 || c.Tools.Count != 2 || c.ToolResults.Count != 1 {
		t.Fatalf("skills %d tools %d results %d", c.Skills.Count, c.Tools.Count, c.ToolResults.Count)
	}
}

func TestSummarizeNotesDifferentPrefixes(t *testing.T) {
	a := &measure.CaptureReport{Name: "a", PrefixSHA256: "1"}
	b := &measure.CaptureReport{Name: "b", PrefixSHA256: "2"}
	c := &measure.CaptureReport{Name: "c", PrefixSHA256: "1"}
	rep := measure.Summarize([]*measure.CaptureReport{a, b, c}, []string{"k", "k", "k"})
	if len(rep.Notes) != 1 {
		t.Fatalf("notes %v", rep.Notes)
	}
	rep = measure.Summarize([]*measure.CaptureReport{a, c}, []string{"k", "k"})
	if len(rep.Notes) != 0 {
		t.Fatalf("same prefixes noted: %v", rep.Notes)
	}
}

func TestChars(t *testing.T) {
	for _, s := range []string{"", "a", "héllo wörld, ünïcödé", "日本語のテキストです。", "😀😃😄 mixed ascii and emoji 😁", strings.Repeat("é", 33)} {
		if got, want := measure.Chars([]byte(s)), utf8.RuneCountInString(s); got != want {
			t.Errorf("Chars(%q) = %d, want %d", s, got, want)
		}
	}
}

// Rules' sections sit where the family sections always were: after the
// capture's own figures, in pipeline order, before the diagnostics.
func TestDetailsBeforeDiagnostics(t *testing.T) {
	r := &measure.CaptureReport{
		Name:        "c",
		Diagnostics: []rules.Diagnostic{{Rule: "SO201", Message: "m"}},
		Details: []rules.Detail{
			{Key: "catalog", Data: rawSection(`{"skills":1}`)},
			{Key: "tool_deferral", Data: rawSection(`{"tools":2}`)},
			{Key: "output", Data: rawSection(`{}`)},
		},
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	order := []string{`"replay":`, `"catalog":{"skills":1}`, `"tool_deferral":{"tools":2}`, `"output":`, `"diagnostics":`}
	last := -1
	for _, k := range order {
		i := strings.Index(s, k)
		if i <= last {
			t.Fatalf("%s out of order in %s", k, s)
		}
		last = i
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	// Without details, the plain encoding.
	r.Details = nil
	if data, err := json.Marshal(r); err != nil || strings.Contains(string(data), "catalog") || !strings.HasSuffix(string(data), `"message":"m"}]}`) {
		t.Errorf("%s %v", data, err)
	}
}

// rawSection is a rule's section given as its JSON.
type rawSection string

func (s rawSection) MarshalJSON() ([]byte, error) { return []byte(s), nil }
func (s rawSection) Text() string                 { return string(s) + "\n" }
func (s rawSection) Markdown() string             { return "" }
