package output

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/rules"
)

// binding declares the family's settings and the rules' own options, as
// internal/ruleset does for every family.
var binding = func() *rules.Binding {
	reg, err := rules.NewRegistry(Rules(), []rules.Settings{Family})
	if err != nil {
		panic(err)
	}
	return reg.Binding()
}()

// testConfig is what a test may change before its environment is built:
// the configured copies of the family's settings and of the rules' own
// options, and the archive folder.
type testConfig struct {
	*Settings
	dedup      *dedupOptions
	overflow   *overflowOptions
	headTail   *headTailOptions
	archiveDir string
}

// configOf returns the configured copies held by set.
func configOf(set *rules.Set) *testConfig {
	return &testConfig{
		Settings: FromSet(set),
		dedup:    rules.Get(set, dedup.Options).(*dedupOptions),
		overflow: rules.Get(set, overflow.Options).(*overflowOptions),
		headTail: rules.Get(set, headTail.Options).(*headTailOptions),
	}
}

// outEnv returns an environment with the default configuration changed by
// mutate, archiving to a fresh folder.
func outEnv(t *testing.T, mutate func(*testConfig)) (*rules.Env, *testConfig) {
	t.Helper()
	set, errs := binding.Set(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	cfg := configOf(set)
	cfg.archiveDir = filepath.Join(t.TempDir(), "archive")
	if mutate != nil {
		mutate(cfg)
	}
	return &rules.Env{Options: set, Archive: archive.Open(cfg.archiveDir)}, cfg
}

func outCase(t *testing.T, rule, name string) *capture.Capture {
	t.Helper()
	f, err := capture.ReadFile(filepath.Join("..", "..", "testdata", "rules", rule, name, "input.json"), nil, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

func outParse(t *testing.T, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("test.json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

func outRun(t *testing.T, c *capture.Capture, env *rules.Env, rs ...*rules.Rule) *rules.Result {
	t.Helper()
	res, err := rules.Run(c, rs, env)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func noisyOutput(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "-rw-r--r-- 1 root root %6d Jan  1 12:00 file%04d.txt\n", i*13, i)
	}
	return b.String()
}

func TestToolResultsPerProvider(t *testing.T) {
	cases := []struct {
		rule, name string
		want       []string // "name/err/media/nested/texts"
	}{
		{"SO301", "anthropic-go-test-error", []string{"bash/true/false/false/1"}},
		{"SO301", "openai-chat-log", []string{"bash/false/false/false/1"}},
		{"SO301", "responses-tap", []string{"bash/false/false/false/1"}},
		{"SO301", "gemini-listing", []string{"bash/false/false/false/1"}},
		{"SO301", "mistral-packages", []string{"bash/false/false/false/1"}},
		{"SO301", "pi-bash-and-nested", []string{"bash/true/false/false/1", "bash/true/false/false/1", "bash/false/false/true/1"}},
		{"SO301", "anthropic-text-and-image", []string{"bash/false/true/false/1"}},
		{"SO301", "exempt-and-small", []string{"skill_search/false/false/false/1", "bash/false/false/false/1"}},
	}
	for _, tc := range cases {
		c := outCase(t, tc.rule, tc.name)
		var got []string
		for _, r := range toolResults(c) {
			got = append(got, fmt.Sprintf("%s/%v/%v/%v/%d", r.name, r.isErr, r.media, r.nested, len(r.texts)))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSmartArchivesExactOriginal(t *testing.T) {
	env, cfg := outEnv(t, nil)
	c := outCase(t, "SO301", "crlf")
	res := outRun(t, c, env, smart)
	if !res.Steps[0].Applied {
		t.Fatalf("not applied: %+v", res.Steps[0])
	}
	ls := labels(res.Final)
	if len(ls) != 1 || ls[0].kind != kindSmart {
		t.Fatalf("labels %+v", ls)
	}
	got, err := archive.Open(cfg.archiveDir).Get(ls[0].handle)
	if err != nil {
		t.Fatal(err)
	}
	r := toolResults(c)[0]
	if orig := c.Doc.Str(r.texts[0]); !bytes.Equal(got, []byte(orig)) || !strings.Contains(orig, "\r\n") {
		t.Fatal("archived original differs from the tool result (CRLF must stay CRLF)")
	}
	// The declaration was added once, and a second run is identity.
	if n := strings.Count(string(res.Final.Body), `"name":"retrieve_output"`); n != 1 {
		t.Fatalf("%d retrieve_output declarations", n)
	}
	again := outRun(t, res.Final, env, smart, columnar, dedup, overflow)
	if !bytes.Equal(again.Final.Body, res.Final.Body) {
		t.Fatal("second pass changed the body")
	}
	// The handle is in the text, the archive location is not.
	if bytes.Contains(res.Final.Body, []byte(cfg.archiveDir)) || bytes.Contains(res.Final.Body, []byte("sha256/")) {
		t.Fatal("archive location leaked")
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	env, cfg := outEnv(t, nil)
	env.DryRun = true
	c := outCase(t, "SO301", "anthropic-go-test-error")
	dryRes := outRun(t, c, env, smart)
	if _, err := os.Stat(cfg.archiveDir); !os.IsNotExist(err) {
		t.Fatalf("dry run touched the archive: %v", err)
	}
	env2, _ := outEnv(t, nil)
	wetRes := outRun(t, c, env2, smart)
	if !bytes.Equal(dryRes.Final.Body, wetRes.Final.Body) {
		t.Fatal("dry and real runs differ")
	}
}

// reduced reports whether the pipeline changed anything.
func reduced(res *rules.Result) bool {
	for _, s := range res.Steps {
		if s.Applied {
			return true
		}
	}
	return false
}

func TestArchiveFailureKeepsOriginal(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, []byte("x"), 0o600)
	env, _ := outEnv(t, func(c *testConfig) { c.archiveDir = filepath.Join(blocker, "archive") })
	c := outCase(t, "SO301", "anthropic-go-test-error")
	res := outRun(t, c, env, smart, columnar, dedup)
	if reduced(res) {
		t.Fatal("reduced although the original could not be archived")
	}
	found := false
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "original kept") {
			found = true
			if d.Severity != rules.Warning {
				t.Errorf("failed archive write reported as %s, want warning", d.Severity)
			}
		}
	}
	if !found {
		t.Fatalf("no diagnostic: %+v", res.Diagnostics)
	}
}

// TestMemoryArchive: with an in-memory archive the rules reduce exactly as
// with the store, the invariants read the originals back from memory, and
// nothing is written.
func TestMemoryArchive(t *testing.T) {
	env, cfg := outEnv(t, nil)
	mem := archive.NewMemory(archive.Open(cfg.archiveDir))
	env.Archive = mem
	c := outCase(t, "SO301", "anthropic-go-test-error")
	res := outRun(t, c, env, smart)
	if !res.Changed() {
		t.Fatal("nothing reduced")
	}
	if _, err := os.Stat(cfg.archiveDir); !os.IsNotExist(err) {
		t.Fatalf("in-memory run touched the archive: %v", err)
	}
	diags, err := rules.Verify(res, []*rules.Rule{handlesResolve, evidenceKept}, env)
	if err != nil || len(diags) != 0 {
		t.Fatalf("invariants over the memory archive: %v %v", diags, err)
	}
	env2, _ := outEnv(t, nil)
	if wet := outRun(t, c, env2, smart); !bytes.Equal(wet.Final.Body, res.Final.Body) {
		t.Fatal("memory and disk runs differ")
	}
	if len(mem.Handles()) != 1 {
		t.Fatalf("memory holds %v", mem.Handles())
	}
}

// TestArchiveOff: with archiving off the rules that need it leave every
// original in place, silently; SO306 still cuts history but names no
// handle.
func TestArchiveOff(t *testing.T) {
	env, cfg := outEnv(t, nil)
	env.Archive = archive.Off
	c := outCase(t, "SO301", "anthropic-go-test-error")
	res := outRun(t, c, env, smart, columnar, dedup, overflow)
	if res.Changed() {
		t.Fatal("reduced with archiving off")
	}
	if len(res.Diagnostics) != 0 {
		t.Fatalf("diagnostics with archiving off: %+v", res.Diagnostics)
	}
	if _, err := os.Stat(cfg.archiveDir); !os.IsNotExist(err) {
		t.Fatalf("archive touched: %v", err)
	}
	hcfg, err := config.LoadWith(filepath.Join("..", "..", "testdata", "rules", "SO306", "anthropic-marker", "skillopt.toml"), binding)
	if err != nil {
		t.Fatal(err)
	}
	henv := &rules.Env{Options: hcfg.Options, Archive: archive.Off}
	res = outRun(t, outCase(t, "SO306", "anthropic-marker"), henv, headTail)
	if !res.Changed() || len(res.Diagnostics) != 0 {
		t.Fatalf("head-tail with archiving off: changed %v, %+v", res.Changed(), res.Diagnostics)
	}
	if hs := archive.FindHandles(string(res.Final.Body)); len(hs) != 0 || !bytes.Contains(res.Final.Body, []byte(middlePrefix)) {
		t.Fatalf("marker names handles %v with nothing archived", hs)
	}
}

func TestExemptAndNested(t *testing.T) {
	env, _ := outEnv(t, func(c *testConfig) { c.ExemptTools = []string{"bash"} })
	res := outRun(t, outCase(t, "SO301", "anthropic-go-test-error"), env, smart)
	if reduced(res) {
		t.Fatal("exempt tool reduced")
	}
	env, _ = outEnv(t, nil)
	c := outCase(t, "SO301", "pi-bash-and-nested")
	res = outRun(t, c, env, smart)
	nested := toolResults(res.Final)[2]
	if hasHandle(res.Final.Doc.Str(nested.texts[0])) {
		t.Fatal("nested result reduced")
	}
	for _, name := range []string{"retrieve_output", "mcp__x__skill_search", "server/optimizer_tool_search", "SKILL_SEARCH"} {
		if !exempt(name, nil) {
			t.Errorf("%s not exempt", name)
		}
	}
	if exempt("my_skill_search_tool", nil) || !toolIs("auggie/codebase-retrieval", "codebase-retrieval") {
		t.Error("tool name matching")
	}
}

func TestErrorResultsReduced(t *testing.T) {
	env, _ := outEnv(t, nil)
	c := outCase(t, "SO301", "anthropic-go-test-error")
	if !toolResults(c)[0].isErr {
		t.Fatal("case is not an error result")
	}
	res := outRun(t, c, env, smart)
	text := res.Final.Doc.Str(toolResults(res.Final)[0].texts[0])
	for _, want := range []string{`--- FAIL: TestParseErrors`, `want "-2.50"`, "FAIL\texample.test/ledger/ledger"} {
		if !strings.Contains(text, want) {
			t.Errorf("evidence %q lost", want)
		}
	}
}

func TestColumnarBeforeSmart(t *testing.T) {
	env, _ := outEnv(t, nil)
	c := outCase(t, "SO302", "pretty-array")
	res := outRun(t, c, env, smart)
	if reduced(res) {
		t.Fatal("SO301 took a JSON array that SO302 converts")
	}
	res = outRun(t, c, env, columnar, smart)
	text := res.Final.Doc.Str(toolResults(res.Final)[0].texts[0])
	if !reduce.IsColumnar(text) {
		t.Fatalf("not columnar: %.200s", text)
	}
}

func TestDedupCapacityAndErrors(t *testing.T) {
	big := noisyOutput(60)
	mk := func(texts ...string) string {
		var msgs []string
		for i, tx := range texts {
			isErr := strings.HasPrefix(tx, "ERR:")
			tx = strings.TrimPrefix(tx, "ERR:")
			msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"bash","input":{}}]}`, i),
				fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","is_error":%v,"content":%s}]}`, i, isErr, capture.Quote(tx)))
		}
		return `{"model":"m","max_tokens":5,"tools":[{"name":"bash","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"go"},` + strings.Join(msgs, ",") + `]}`
	}
	env, _ := outEnv(t, nil)
	res := outRun(t, outParse(t, mk(big, "ERR:"+big, big, big)), env, dedup)
	var refs []bool
	for _, r := range toolResults(res.Final) {
		refs = append(refs, reduce.IsDuplicateLabel(res.Final.Doc.Str(r.texts[0])))
	}
	if fmt.Sprint(refs) != "[false false true true]" {
		t.Fatalf("references %v", refs)
	}
	// Capacity 1: the second distinct duplicate stays.
	other := noisyOutput(70)
	env, _ = outEnv(t, func(c *testConfig) { c.dedup.MaxArtifacts = 1 })
	res = outRun(t, outParse(t, mk(big, other, big, other)), env, dedup)
	refs = nil
	for _, r := range toolResults(res.Final) {
		refs = append(refs, reduce.IsDuplicateLabel(res.Final.Doc.Str(r.texts[0])))
	}
	if fmt.Sprint(refs) != "[false false true false]" {
		t.Fatalf("capacity: references %v", refs)
	}
	// At capacity a second pass adds nothing.
	if again := outRun(t, res.Final, env, dedup); again.Changed() {
		t.Fatal("second pass at capacity changed the capture")
	}
}

func TestOverflowTiers(t *testing.T) {
	c := outCase(t, "SO304", "memory-preview")
	for _, tc := range []struct {
		tier    string
		changed bool
	}{{"", true}, {"cheap", true}, {"balanced", true}, {"frontier", false}} {
		env, _ := outEnv(t, func(c *testConfig) { c.Tier = tc.tier })
		if res := outRun(t, c, env, overflow); res.Changed() != tc.changed {
			t.Errorf("tier %q: changed %v", tc.tier, res.Changed())
		}
	}
	env, cfg := outEnv(t, func(c *testConfig) { c.overflow.ContextMemory = false })
	res := outRun(t, c, env, overflow)
	text := res.Final.Doc.Str(toolResults(res.Final)[0].texts[0])
	if !strings.Contains(text, "Refine the auggie/codebase-retrieval query") || hasHandle(text) {
		t.Fatalf("refine text: %s", text)
	}
	if _, err := os.Stat(cfg.archiveDir); !os.IsNotExist(err) {
		t.Fatal("refine mode archived the original")
	}
	if got := overflow.Options.(*overflowOptions).ceiling(Defaults.Tier); got != 25000 {
		t.Fatal("default ceiling")
	}
}

func TestSanitizeRule(t *testing.T) {
	env, _ := outEnv(t, nil)
	res := outRun(t, outCase(t, "SO305", "anthropic-traces"), env, sanitize)
	text := res.Final.Doc.Str(res.Final.Doc.Get(res.Final.Doc.Elem(res.Final.Doc.Get(res.Final.Doc.Elem(res.Final.Doc.Get(0, "messages"), 1), "content"), 0), "text"))
	if strings.Contains(text, "tool_use") || strings.Contains(text, "jsonrpc") || !strings.Contains(text, "```go") || !strings.Contains(text, `{"type": "note"`) {
		t.Fatalf("sanitized text:\n%s", text)
	}
	// Human and tool text is never touched.
	c := outParse(t, "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"```tool_use\\nx\\n```\"}]}")
	if res := outRun(t, c, env, sanitize); res.Changed() {
		t.Fatal("human text sanitized")
	}
}

func TestHeadTailKeepsCallsWithResults(t *testing.T) {
	env, _ := outEnv(t, func(c *testConfig) {
		c.headTail.Strategy = "head-tail"
		c.headTail.HeadMessages = 2
		c.headTail.TailMessages = 3
	})
	c := outCase(t, "SO306", "anthropic-marker")
	res := outRun(t, c, env, headTail)
	d := res.Final.Doc
	msgs := d.Get(0, "messages")
	// Every tool_result's tool_use is still there.
	ids := map[string]bool{}
	for m := range d.Children(msgs) {
		for b := range d.Children(d.Get(m, "content")) {
			switch d.GetStr(b, "type") {
			case "tool_use":
				ids[d.GetStr(b, "id")] = true
			case "tool_result":
				if !ids[d.GetStr(b, "tool_use_id")] {
					t.Fatalf("tool_result %s without its call", d.GetStr(b, "tool_use_id"))
				}
			}
		}
	}
	if !strings.Contains(string(res.Final.Body), middlePrefix) {
		t.Fatal("no marker")
	}
	if again := outRun(t, res.Final, env, headTail); again.Changed() {
		t.Fatalf("second pass changed the history:\n%s", again.Final.Body)
	}
	// The marker's handle names the history as read.
	ls := labels(res.Final)
	if len(ls) != 1 || ls[0].kind != kindHistory {
		t.Fatalf("labels %+v", ls)
	}
	got, err := storeOf(&rules.Pass{Env: env}).Get(ls[0].handle)
	if err != nil || !bytes.Equal(got, c.Doc.Raw(c.Doc.Get(0, "messages"))) {
		t.Fatalf("archived history differs: %v", err)
	}
}

func TestHeadTailEvictionOrder(t *testing.T) {
	var msgs []string
	for i := 0; i < 10; i++ {
		msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"m%d %s"}`, i, strings.Repeat("w", 96)))
	}
	body := `{"model":"m","max_tokens":5,"messages":[` + strings.Join(msgs, ",") + `]}`
	env, _ := outEnv(t, func(c *testConfig) {
		c.headTail.Strategy = "head-tail"
		c.headTail.HeadMessages = 1
		c.headTail.TailMessages = 6
		c.headTail.MaxTotalChars = 450
		c.headTail.MaxCharsPerMessage = 0
	})
	res := outRun(t, outParse(t, body), env, headTail)
	var got []string
	d := res.Final.Doc
	for m := range d.Children(d.Get(0, "messages")) {
		got = append(got, strings.Fields(d.GetStr(m, "content"))[0])
	}
	// Head m0, tail m4..m9; the marker goes first, then interior messages
	// from the middle outwards until 450 characters fit: m0 m4 m8 m9.
	if fmt.Sprint(got) != "[m0 m4 m8 m9]" {
		t.Fatalf("kept %v", got)
	}
	// A cap the anchors alone exceed truncates the last anchor.
	env, _ = outEnv(t, func(c *testConfig) {
		c.headTail.Strategy = "head-tail"
		c.headTail.MaxTotalChars = 150
		c.headTail.MaxCharsPerMessage = 0
	})
	res = outRun(t, outParse(t, body), env, headTail)
	d = res.Final.Doc
	arr := d.Get(0, "messages")
	last := d.GetStr(d.Elem(arr, d.Len(arr)-1), "content")
	if d.Len(arr) != 2 || !isTruncated(last) {
		t.Fatalf("%d messages, last %q", d.Len(arr), last)
	}
}
