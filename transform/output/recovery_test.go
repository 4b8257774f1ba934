package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// goTestLog is the output of a passing `go test -v` of n tests: SO301's
// go-test reducer keeps the verdicts and drops the rest.
func goTestLog(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "=== RUN   TestCase%04d\n--- PASS: TestCase%04d (0.00s)\n", i, i)
	}
	b.WriteString("PASS\nok  \texample.com/pkg\t0.120s\n")
	return b.String()
}

// conversation is a request of an Anthropic conversation: a system text of
// sys bytes, a bash tool, the user's question, then one tool call and its
// result per output. The last message carries a cache breakpoint when
// mark is set, as hosts mark the end of every request.
func conversation(t *testing.T, model string, sys int, outputs []string, mark bool) *capture.Capture {
	t.Helper()
	type m = map[string]any
	msgs := []any{m{"role": "user", "content": "Run the tests and tell me what failed."}}
	for i, out := range outputs {
		id := fmt.Sprintf("toolu_%02d", i)
		msgs = append(msgs,
			m{"role": "assistant", "content": []any{m{"type": "tool_use", "id": id, "name": "bash", "input": m{"command": fmt.Sprintf("go test ./pkg%d", i)}}}},
			m{"role": "user", "content": []any{m{"type": "tool_result", "tool_use_id": id, "content": out}}})
	}
	if mark && len(outputs) > 0 {
		last := msgs[len(msgs)-1].(m)["content"].([]any)[0].(m)
		last["cache_control"] = m{"type": "ephemeral"}
	}
	body := m{
		"model": model, "max_tokens": 1024,
		"system":   strings.Repeat("You are a careful coding agent. ", sys/32+1)[:sys],
		"tools":    []any{m{"name": "bash", "description": "Run a shell command.", "input_schema": m{"type": "object", "properties": m{"command": m{"type": "string"}}}}},
		"messages": msgs,
	}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return outParse(t, string(data))
}

var recoveryPipeline = []*rules.Rule{smart, columnar, dedup, overflow}

// TestRecoveryWaitsForItsBreakEven: a reduction that saves less than
// writing the previous request's cached prefix again costs leaves the
// request byte for byte as it was, and says why; the same request opens
// the gate when nothing was cached, when the model's cache is unknown, or
// when later turns may pay (output.break_even_turns).
func TestRecoveryWaitsForItsBreakEven(t *testing.T) {
	outputs := []string{"ok", goTestLog(100)}
	c := conversation(t, "claude-sonnet-4-5", 60000, outputs, true)
	env, _ := outEnv(t, nil)
	res := outRun(t, c, env, recoveryPipeline...)
	if res.Changed() {
		t.Fatal("reduced although re-writing the cached prefix costs more")
	}
	why := res.Steps[0].Idle
	if !strings.HasPrefix(why, "waits: saves ") || !strings.Contains(why, "claude-sonnet-4-5's $3.75 write and $0.3 read") || !strings.Contains(why, "it pays from ") {
		t.Fatalf("reason %q", why)
	}
	for _, s := range res.Steps {
		if s.Applied || s.Saved() != 0 {
			t.Fatalf("%s: %+v", s.Rule.ID, s)
		}
	}

	// A model without a price counts the whole cached prefix as lost.
	env, _ = outEnv(t, nil)
	res = outRun(t, conversation(t, "my-local-model", 60000, outputs, true), env, recoveryPipeline...)
	if res.Changed() || !strings.Contains(res.Steps[0].Idle, "no price for the model: counted as lost in full") {
		t.Fatalf("unpriced model: changed %v, %q", res.Changed(), res.Steps[0].Idle)
	}

	opens := map[string]*capture.Capture{
		"no breakpoint":       conversation(t, "claude-sonnet-4-5", 60000, outputs, false),
		"small cached prefix": conversation(t, "claude-sonnet-4-5", 2000, outputs, true),
	}
	for name, c := range opens {
		env, _ := outEnv(t, nil)
		res := outRun(t, c, env, recoveryPipeline...)
		if !res.Changed() || !res.Steps[0].Applied || res.Steps[0].Saved() <= 0 {
			t.Errorf("%s: not reduced: %+v", name, res.Steps[0])
		}
		if !declaresRetrieve(res.Final) {
			t.Errorf("%s: reduced without retrieve_output", name)
		}
	}
	env, _ = outEnv(t, func(c *testConfig) { c.BreakEvenTurns = 1000 })
	if res := outRun(t, c, env, recoveryPipeline...); !res.Changed() {
		t.Errorf("break_even_turns = 1000: not reduced: %s", res.Steps[0].Idle)
	}
}

// TestRecoveryOpensOnceAndStays: along a conversation whose cached prefix
// is large, the output rules wait while the saving on a request would not
// pay for writing that prefix again, open on the first request where it
// does (reducing the waiting results too, the one change of what an earlier
// request sent, with its reason), and stay open: every later request
// extends the one before it.
func TestRecoveryOpensOnceAndStays(t *testing.T) {
	outputs := []string{"ok", goTestLog(100), "ok", goTestLog(5000), "ok", goTestLog(200), "ok"}
	env, _ := outEnv(t, nil)
	var prev *rules.Result
	opened := -1
	for k := 1; k <= len(outputs); k++ {
		c := conversation(t, "claude-sonnet-4-5", 60000, outputs[:k], true)
		res := outRun(t, c, env, recoveryPipeline...)
		note := ""
		for _, s := range res.Steps {
			if s.Applied && s.PrefixChange != "" {
				note = s.PrefixChange
			}
		}
		switch {
		case opened < 0 && !res.Changed():
			if note != "" {
				t.Fatalf("turn %d: unchanged, with a note", k)
			}
		case opened < 0:
			opened = k
			if note == "" || !strings.Contains(note, "more than writing again the ") {
				t.Errorf("turn %d opens without its reason: %q", k, note)
			}
			if prev != nil && extends(t, prev.Final, res.Final) {
				t.Errorf("turn %d: opening changed nothing the turn before sent", k)
			}
		default:
			if !res.Changed() || !declaresRetrieve(res.Final) {
				t.Errorf("turn %d: the gate closed again", k)
			}
			if note != "" {
				t.Errorf("turn %d: a second prefix change: %s", k, note)
			}
			if !extends(t, prev.Final, res.Final) {
				t.Errorf("turn %d does not extend turn %d", k, k-1)
			}
		}
		prev = res
	}
	if opened != 4 {
		t.Fatalf("opened on turn %d, want 4 (the 5,000-test log pays for the prefix)", opened)
	}
}

// extends reports whether cur starts with everything prev sent: the same
// system text and tools, and prev's messages (cache_control aside).
func extends(t *testing.T, prev, cur *capture.Capture) bool {
	t.Helper()
	pd, cd := prev.Doc, cur.Doc
	for _, k := range []string{"system", "tools"} {
		if !bytes.Equal(pd.Raw(pd.Get(0, k)), cd.Raw(cd.Get(0, k))) {
			return false
		}
	}
	strip := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(`"cache_control":{"type":"ephemeral"},`), nil)
		return bytes.ReplaceAll(b, []byte(`,"cache_control":{"type":"ephemeral"}`), nil)
	}
	pm, cm := pd.Get(0, "messages"), cd.Get(0, "messages")
	if pd.Len(pm) > cd.Len(cm) {
		return false
	}
	for i := range pd.Len(pm) {
		if !bytes.Equal(strip(pd.Raw(pd.Elem(pm, i))), strip(cd.Raw(cd.Elem(cm, i)))) {
			return false
		}
	}
	return true
}

// TestRecoveryHandleInHistory: a history that already carries a handle
// (its host keeps reduced results) has the gate open: the new result is
// reduced whatever the cached prefix, and retrieve_output is declared.
func TestRecoveryHandleInHistory(t *testing.T) {
	first, _ := Reduce(goTestLog(300), nil)
	c := conversation(t, "claude-sonnet-4-5", 60000, []string{first.Text, "ok", goTestLog(100)}, true)
	env, _ := outEnv(t, nil)
	res := outRun(t, c, env, recoveryPipeline...)
	if !res.Changed() || !declaresRetrieve(res.Final) {
		t.Fatalf("not reduced: %s", res.Steps[0].Idle)
	}
	for _, s := range res.Steps {
		if s.PrefixChange != "" {
			t.Errorf("%s: %s", s.Rule.ID, s.PrefixChange)
		}
	}
}

// TestRecoveryDecidesOnce: the gate weighs the savings of every rule of
// the pipeline that leaves handles together, once per request: SO303's
// duplicates and SO301's reduction open it together where neither alone
// would.
func TestRecoveryDecidesOnce(t *testing.T) {
	dup := strings.Repeat("a line of output that is the same in every copy\n", 70) // under the 4,096-byte trigger
	outputs := []string{dup, dup, dup, dup, dup, dup, dup, dup, goTestLog(300)}
	c := conversation(t, "claude-sonnet-4-5", 10000, outputs, true)
	for _, tc := range []struct {
		pipeline []*rules.Rule
		open     bool
	}{
		{[]*rules.Rule{smart}, false},
		{[]*rules.Rule{dedup}, false},
		{[]*rules.Rule{smart, dedup}, true},
	} {
		env, _ := outEnv(t, nil)
		res := outRun(t, c, env, tc.pipeline...)
		if res.Changed() != tc.open {
			var ids []string
			for _, s := range res.Steps {
				ids = append(ids, s.Rule.ID+": "+s.Idle)
			}
			t.Errorf("%v: changed %v, want %v", ids, res.Changed(), tc.open)
		}
	}
}

// flakyKeeper refuses the first Put of each original, then keeps it, as
// an archive does while another process removes what it is writing.
type flakyKeeper struct {
	seen map[string]bool
	mem  *archive.Memory
}

func (k *flakyKeeper) Put(data []byte) (string, error) {
	if !k.seen[string(data)] {
		k.seen[string(data)] = true
		return "", errors.New("rename: no such file or directory")
	}
	return k.mem.Put(data)
}

func (k *flakyKeeper) Get(h string) ([]byte, error) { return k.mem.Get(h) }

// TestArchiveFailureIsReportedAsSuch: an original the archive refused once
// stays as it was for the whole run, with a warning that names the
// failed write; the engine's second pass does not reduce it behind the
// first one's back, so no step is dropped as "not idempotent".
func TestArchiveFailureIsReportedAsSuch(t *testing.T) {
	c := conversation(t, "claude-sonnet-4-5", 500, []string{goTestLog(100), goTestLog(200)}, true)
	env, _ := outEnv(t, nil)
	k := &flakyKeeper{seen: map[string]bool{}, mem: archive.NewMemory(nil)}
	k.seen[goTestLog(200)] = true // only the first output's write fails
	env.Archive = k
	res := outRun(t, c, env, recoveryPipeline...)
	s := res.Steps[0]
	if !s.Applied || s.Dropped != "" || len(s.Changes) != 2 {
		t.Fatalf("step %+v", s)
	}
	warned := false
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "not identity") {
			t.Errorf("%s: %s", d.Rule, d.Message)
		}
		warned = warned || d.Severity == rules.Warning && strings.Contains(d.Message, "original kept: rename: no such file or directory")
	}
	if !warned || !strings.Contains(string(res.Final.Body), "--- PASS: TestCase0099") {
		t.Fatalf("the refused original is not kept with a warning: %+v", res.Diagnostics)
	}
}
