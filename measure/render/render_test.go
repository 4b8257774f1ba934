package render_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/internal/convtest"
	"github.com/skillopt/skillopt/measure/render"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/transform/catalogrules"
)

// byteCounter is the stand-in tokenizer of the goldens, so they do not
// depend on a vocabulary.
type byteCounter = convtest.Quarters

var (
	readCapture = convtest.ReadCapture
	shorten     = convtest.Shorten
)

const twoTexts = convtest.TwoTexts

func exampleReport(t *testing.T) *measure.Report {
	t.Helper()
	f, err := capture.ReadFile(filepath.Join("..", "..", "testdata", "examples", "anthropic-catalog.json"), nil, capture.Options{})
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

// TestGoldens renders one report in every format and compares it with the
// golden files (go test ./measure/render -update rewrites them).
func TestGoldens(t *testing.T) {
	rep := exampleReport(t)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"measure.txt":  func(b *bytes.Buffer) error { return render.WriteText(b, rep, render.TextOptions{}) },
		"measure.json": func(b *bytes.Buffer) error { return render.WriteJSON(b, rep) },
		"measure.md":   func(b *bytes.Buffer) error { return render.WriteMarkdown(b, rep, render.TextOptions{}) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name+".golden"), b.Bytes())
	}
}

// TestCostText: with the model's price the text shows the saving's cost;
// without it, no cost at all (never 0).
func TestCostText(t *testing.T) {
	price := func(model string) (float64, bool) { return 3, model == "m-1" }
	for _, tc := range []struct {
		model  string
		priced bool
	}{{"m-1", true}, {"m-2", false}} {
		c := readCapture(t, "c.json", strings.Replace(twoTexts, `"m-1"`, `"`+tc.model+`"`, 1))
		res, err := rules.Run(c, []*rules.Rule{shorten("T1", "/system", "short")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}, Price: price})
		if (r.After.SavedUSD != nil) != tc.priced {
			t.Fatalf("%s: saved cost %v", tc.model, r.After.SavedUSD)
		}
		var b bytes.Buffer
		render.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), render.TextOptions{})
		if tc.priced && (!strings.Contains(b.String(), "cost saved") || !strings.Contains(b.String(), "<$0.0001")) {
			t.Fatalf("text without cost:\n%s", b.String())
		}
		if !tc.priced && (strings.Contains(b.String(), "cost") || strings.Contains(b.String(), "$")) {
			t.Fatalf("cost shown without a price:\n%s", b.String())
		}
	}
}

// TestNoStablePrefixText: the text says a body without system text,
// catalog or tools has no stable prefix, and shows no hash of nothing.
func TestNoStablePrefixText(t *testing.T) {
	c := readCapture(t, "pi.json", `[{"role":"user","content":"hello","timestamp":1}]`)
	res, _ := rules.Run(c, nil, nil)
	r := measure.Measure(res, measure.Options{Encoding: "none"})
	var b bytes.Buffer
	render.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), render.TextOptions{})
	if !strings.Contains(b.String(), "stable prefix: none (") || strings.Contains(b.String(), "e3b0c442") {
		t.Fatalf("text:\n%s", b.String())
	}
}

// TestNextStepsText: the rules' suggestions are numbered after the
// warnings, in text and Markdown.
func TestNextStepsText(t *testing.T) {
	c := readCapture(t, "c.json", twoTexts)
	suggest := &rules.Rule{ID: "T9", Name: "test.suggest", Kind: rules.Transform, Doc: "Test rule.", Run: func(*rules.Pass) error { return nil },
		Detail: func(rules.DetailInput) (*rules.Detail, error) {
			return &rules.Detail{Key: "suggest", Data: rawSection(`{}`), Warnings: []string{"something was dropped"}, Next: []rules.Suggestion{
				{Rule: "T1", Action: "do a", Effect: "small", SavedBytes: 10},
				{Rule: "T2", Action: "do b", Effect: "large", SavedBytes: 1000, SavedTokens: 250},
				{Rule: "T3", Action: "do c", Effect: "middle", SavedBytes: 100},
			}}, nil
		}}
	res, _ := rules.Run(c, []*rules.Rule{suggest}, nil)
	r := measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}})
	var b bytes.Buffer
	render.WriteText(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), render.TextOptions{})
	want := "  warning: something was dropped\n  next steps:\n    1. do b (T2): large; saves 1,000 bytes, 250 tokens\n    2. do c (T3): middle; saves 100 bytes\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("text:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	render.WriteMarkdown(&b, measure.Summarize([]*measure.CaptureReport{r}, nil), render.TextOptions{})
	if !strings.Contains(b.String(), "**Next steps**\n\n1. do b (T2): large; saves 1,000 bytes, 250 tokens\n") || !strings.Contains(b.String(), "- **warning:** something was dropped\n") {
		t.Fatalf("markdown:\n%s", b.String())
	}
}

// TestManyCaptures: several captures are one row each and a total line;
// Details adds their blocks; Quiet leaves only the total.
func TestManyCaptures(t *testing.T) {
	rep := exampleReport(t)
	c := readCapture(t, "pi.json", `[{"role":"user","content":"hello","timestamp":1}]`)
	res, _ := rules.Run(c, []*rules.Rule{catalogrules.CompactIndex}, nil)
	two := measure.Summarize([]*measure.CaptureReport{rep.Captures[0], measure.Measure(res, measure.Options{Encoding: "test-quarter-bytes", Counter: byteCounter{}})}, nil)
	var b bytes.Buffer
	render.WriteText(&b, two, render.TextOptions{})
	want := "" +
		"capture                 provider     bytes  tokens  catalog  after  saved\n" +
		"anthropic-catalog.json  anthropic    5,045   1,175   53.5 %  3,575  1,470  29.1 %\n" +
		"pi.json                 pi-messages     49       3        -     49      0   0.0 %\n" +
		"total: 2 captures                    5,094   1,178           3,624  1,470  28.9 %\n" +
		"tokens (test-quarter-bytes): 1,178 → 816 (362 saved)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	render.WriteText(&b, two, render.TextOptions{Details: true})
	if strings.Count(b.String(), "  section ") != 2 || !strings.Contains(b.String(), "\ntotal: 2 captures ") {
		t.Fatalf("details:\n%s", b.String())
	}
	b.Reset()
	render.WriteText(&b, two, render.TextOptions{Quiet: true})
	if b.String() != "total: 2 captures, 5,094 → 3,624 bytes (1,470 saved, 28.9 %), 1,178 → 816 tokens (362 saved)\n" {
		t.Fatalf("quiet: %q", b.String())
	}
	b.Reset()
	render.WriteMarkdown(&b, two, render.TextOptions{})
	if !strings.Contains(b.String(), "| `pi.json` | pi-messages | 49 | 3 | - | 49 | 0 (0.0 %) |\n") || strings.Contains(b.String(), "### ") {
		t.Fatalf("markdown:\n%s", b.String())
	}
}

func TestShareBar(t *testing.T) {
	var b bytes.Buffer
	render.WriteText(&b, exampleReport(t), render.TextOptions{})
	lines := strings.Split(b.String(), "\n")
	// The bars start in one column, and a full bar is 20 characters.
	col := -1
	for _, l := range lines[2:10] {
		i := strings.IndexAny(l, "█▏▎▍▌▋▊▉")
		if i < 0 {
			t.Fatalf("no bar: %q", l)
		}
		if n := len([]rune(l[:i])); col >= 0 && n != col {
			t.Fatalf("bar at column %d, not %d: %q", n, col, l)
		} else {
			col = n
		}
	}
	if !strings.HasSuffix(lines[3], "53.5 %  ██████████▊") {
		t.Fatalf("catalog bar: %q", lines[3])
	}
}

// rawSection is a rule's section given as its JSON.
type rawSection string

func (s rawSection) MarshalJSON() ([]byte, error) { return []byte(s), nil }
func (s rawSection) Text() string                 { return string(s) + "\n" }
func (s rawSection) Markdown() string             { return "" }
