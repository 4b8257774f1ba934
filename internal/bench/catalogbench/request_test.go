package catalogbench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// TestMain is also the child of the fresh-process tests: with
// CATALOGBENCH_FIRST set it times one first request (the last two
// arguments are the file and the provider) instead of running the tests.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOGBENCH_FIRST") == "1" {
		n := len(os.Args)
		if err := FirstInProcess(os.Args[n-2], capture.Provider(os.Args[n-1]), os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testFresh runs the fresh-process child in this test binary.
func testFresh() func(string, capture.Provider) (float64, error) {
	return ChildCommand(os.Args[0], os.Args[0], append(os.Environ(), "CATALOGBENCH_FIRST=1"), "-test.run=^$", "--")
}

// TestTransformerGuards: the transformer runs the guards transform runs.
// A step the provider would reject (max_tokens a string), a step that is
// not idempotent (it shortens the text again on its own result) and one
// that drops text it did not keep are dropped; without the validation
// guard the first would be applied.
func TestTransformerGuards(t *testing.T) {
	in, err := NewInput(40, 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rule *rules.Rule
		want string
	}{
		{"schema", &rules.Rule{ID: "SO199", Name: "test.bad-max-tokens", Kind: rules.Transform, Run: func(p *rules.Pass) error {
			p.Edit(rules.Edit{Pointer: "/max_tokens", NewJSON: []byte(`"x"`)})
			return nil
		}}, "the provider would reject the result"},
		{"second pass", &rules.Rule{ID: "SO198", Name: "test.shorten", Kind: rules.Transform, Engine: rules.Engine{Lossy: true}, Run: shorten}, "second pass is not identity"},
		{"loss", &rules.Rule{ID: "SO197", Name: "test.shorten-unkept", Kind: rules.Transform, Run: shorten}, "neither archived nor kept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := NewTransformer([]string{"none"}, in.Provider)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Env.Validate == nil || tr.Env.Again == nil {
				t.Fatal("the environment has no guard")
			}
			tr.Pipeline = []*rules.Rule{tt.rule}
			out, res, err := tr.Transform(in.Name, in.Body)
			if err != nil {
				t.Fatal(err)
			}
			st := res[0].Steps[0]
			if st.Applied || !strings.Contains(st.Dropped, tt.want) {
				t.Errorf("applied %v, dropped %q; want dropped for %q", st.Applied, st.Dropped, tt.want)
			}
			if !bytes.Equal(out, in.Body) {
				t.Error("a dropped step changed the output")
			}
			// The same rule without the guards is applied.
			bare, err := rules.Run(mustRead(t, in), []*rules.Rule{tt.rule}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "schema" && !bare.Steps[0].Applied {
				t.Errorf("without validation the step is dropped too: %s", bare.Steps[0].Dropped)
			}
		})
	}
}

// shorten drops the first character of the latest human text, again on
// every pass.
func shorten(p *rules.Pass) error {
	d := p.Capture.Doc
	n := latestHuman(p.Capture)
	p.Edit(rules.Edit{Pointer: d.Pointer(n), NewJSON: capture.Quote(d.Str(n)[1:])})
	return nil
}

func mustRead(t *testing.T, in *Input) *capture.Capture {
	t.Helper()
	f, err := capture.Read(in.Name, in.Body, capture.Options{Provider: in.Provider})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

// TestRealisticInput: the synthetic request carries a system prompt of
// 20 to 26 KB besides the catalog, Pi's four tools and earlier exchanges.
func TestRealisticInput(t *testing.T) {
	in, err := NewInput(355, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := mustRead(t, in)
	sec := map[capture.Section]int{}
	for _, s := range c.Segments() {
		sec[s.Kind] += s.End - s.Start
	}
	if n := sec[capture.SecSystem]; n < 20<<10 || n > 26<<10 {
		t.Errorf("system prompt outside the catalog %d bytes, want 20 to 26 KiB", n)
	}
	if sec[capture.SecCatalog] == 0 || sec[capture.SecTools] == 0 || sec[capture.SecToolResults] == 0 || sec[capture.SecAssistant] == 0 {
		t.Errorf("sections %v", sec)
	}
	if n := c.Doc.Len(c.Doc.Get(0, "tools")); n != 4 {
		t.Errorf("%d tools, want 4", n)
	}
	if n := c.Doc.Len(c.Doc.Get(0, "messages")); n != 1+3*(HistoryTurns-1) {
		t.Errorf("%d messages, want %d", n, 1+3*(HistoryTurns-1))
	}
	again, err := NewInput(355, 1)
	if err != nil || !bytes.Equal(again.Body, in.Body) {
		t.Error("the input is not deterministic")
	}
}

// TestVariants: every request differs from the others in its latest human
// text only, which is a distinct request drawn from the catalog; the same
// seed draws the same texts.
func TestVariants(t *testing.T) {
	in, err := NewInput(200, 1)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVariants(in.Name, in.Body, in.Provider, in.Skills, 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	orig := mustRead(t, in)
	origText := orig.Doc.Str(latestHuman(orig))
	seen := map[string]bool{}
	for i := range v.Len() {
		body := v.Next()
		c := mustRead(t, &Input{Name: in.Name, Body: body, Provider: in.Provider})
		text := c.Doc.Str(latestHuman(c))
		if seen[text] || text == origText {
			t.Fatalf("request %d repeats %q", i, text)
		}
		seen[text] = true
		if !bytes.HasPrefix(body, v.head) || !bytes.HasSuffix(body, v.tail) {
			t.Fatalf("request %d differs outside the latest human text", i)
		}
	}
	same := Queries(in.Skills, 50, 7)
	if strings.Join(same, "\n") != strings.Join(v.queries, "\n") {
		t.Error("the same seed draws other texts")
	}
	if other := Queries(in.Skills, 50, 8); strings.Join(other, "\n") == strings.Join(same, "\n") {
		t.Error("another seed draws the same texts")
	}
}

// TestRunVaries: every timed request of a run got a prefetch overlay, and
// the fresh process measured its first request.
func TestRunVaries(t *testing.T) {
	row, err := RunWith(355, Options{Seed: 1, Replay: 8, Fresh: testFresh()})
	if err != nil {
		t.Fatal(err)
	}
	if row.WarmRequests < warmRounds || row.PrefetchedRequests != row.WarmRequests {
		t.Errorf("%d of %d requests prefetched", row.PrefetchedRequests, row.WarmRequests)
	}
	if row.FreshProcessFirstMS == nil || *row.FreshProcessFirstMS <= 0 {
		t.Errorf("fresh process first %v", row.FreshProcessFirstMS)
	}
	if row.RequestAllocBytes <= row.PrefetchAllocBytes || row.RequestAllocs <= 0 {
		t.Errorf("request %d B in %d allocations, SO103 alone %d B", row.RequestAllocBytes, row.RequestAllocs, row.PrefetchAllocBytes)
	}
	if row.SystemBytes <= row.NativeBytes || row.SystemSHA256MS <= 0 || row.WarmToSHA256 <= 0 {
		t.Errorf("system %d B (catalog %d), SHA-256 %.3f ms, ratio %.1f", row.SystemBytes, row.NativeBytes, row.SystemSHA256MS, row.WarmToSHA256)
	}
}

// TestFreshRefusesNoOverlay: a child whose first request added no
// overlay is an error, not a figure.
func TestFreshRefusesNoOverlay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(path, []byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := testFresh()(path, capture.Anthropic); err == nil || !strings.Contains(err.Error(), "no prefetch overlay") {
		t.Errorf("err %v", err)
	}
}

// TestInputsFrom: a folder of captures gives a row per request with a
// catalog; a request without one is named and skipped.
func TestInputsFrom(t *testing.T) {
	dir := t.TempDir()
	in, err := NewInput(30, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.json"), in.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	inputs, errs := InputsFrom([]string{dir})
	if len(inputs) != 1 || len(inputs[0].Skills) != 30 || inputs[0].Source != filepath.Join(dir, "a.json") || !bytes.Equal(inputs[0].Body, in.Body) {
		t.Fatalf("inputs %v", inputs)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrNoCatalog) || !strings.Contains(errs[0].Error(), "b.json") {
		t.Fatalf("errors %v", errs)
	}
	row, err := RunInput(inputs[0], Options{Seed: 1, Replay: 8})
	if err != nil {
		t.Fatal(err)
	}
	if row.Source != inputs[0].Source || row.Skills != 30 || row.PrefetchedRequests == 0 || row.FreshProcessFirstMS != nil {
		t.Errorf("%+v", row)
	}
}

// TestInputsFromCorpus: the real Pi captures make rows in every provider
// shape.
func TestInputsFromCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not available: ", err)
	}
	inputs, errs := InputsFrom([]string{dir})
	for _, err := range errs {
		t.Errorf("%v", err)
	}
	if len(inputs) < 18 {
		t.Fatalf("%d inputs", len(inputs))
	}
	for _, in := range inputs[:2] {
		row, err := RunInput(in, Options{Seed: 1, Replay: 8})
		if err != nil {
			t.Fatalf("%s: %v", in.Source, err)
		}
		if row.Skills != 13 || row.PrefetchedRequests == 0 {
			t.Errorf("%s: %d skills, %d prefetched", in.Source, row.Skills, row.PrefetchedRequests)
		}
	}
}
