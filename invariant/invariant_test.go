package invariant

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

const (
	body     = `{"model":"m","max_tokens":100,"system":"You are helpful.   Padding padding padding.","messages":[{"role":"user","content":"hi"}]}`
	toolBody = `{"model":"m","max_tokens":1,"system":"a long system text","tools":[{"name":"a","input_schema":{}}],"messages":[{"role":"user","content":"hi"}]}`
)

func read(t *testing.T, data string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("t.json", []byte(data), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}

func mustWith(t *testing.T, c *capture.Capture, b string) *capture.Capture {
	t.Helper()
	n, err := c.WithBody([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// shrinkSystem shortens the system text to "S".
var shrinkSystem = &rules.Rule{ID: "T7", Kind: rules.Transform, Doc: "Test.", Engine: rules.Engine{Lossy: true}, Run: func(p *rules.Pass) error {
	if p.Capture.Doc.GetStr(0, "system") != "S" {
		p.Edit(rules.Edit{Pointer: "/system", NewJSON: []byte(`"S"`)})
	}
	return nil
}}

// TestNoGrowthCountsDeclarations: SO402 accepts an applied step that
// saved, and reports growth and a step applied without a saving.
func TestNoGrowthCountsDeclarations(t *testing.T) {
	c := read(t, toolBody)
	long := mustWith(t, c, strings.Replace(toolBody, "a long system text", strings.Repeat("a long system text ", 10), 1))
	res, err := rules.Run(long, []*rules.Rule{shrinkSystem}, nil)
	if err != nil || !res.Steps[0].Applied {
		t.Fatalf("%v %+v", err, res)
	}
	if diags, _ := rules.Verify(res, []*rules.Rule{NoGrowth}, nil); len(diags) != 0 {
		t.Fatalf("SO402: %+v", diags)
	}
	grown := &rules.Result{Original: c, Final: mustWith(t, c, strings.Replace(toolBody, `"hi"`, `"hi there"`, 1)),
		Steps: []rules.Step{{Rule: shrinkSystem, Applied: true, BytesBefore: 1, BytesAfter: 4, Changes: []rules.Change{{BytesAfter: 3}}}}}
	if diags, _ := rules.Verify(grown, []*rules.Rule{NoGrowth}, nil); len(diags) != 2 {
		t.Fatalf("growth: %+v", diags)
	}
}

func TestInvariants(t *testing.T) {
	c := read(t, body)
	grow := &rules.Result{Original: c, Final: mustWith(t, c, strings.Replace(body, `"m"`, `"mm"`, 1))}
	shrink := &rules.Result{Original: c, Final: mustWith(t, c, strings.Replace(body, `"hi"`, `"h"`, 1))}
	reshaped := &rules.Result{Original: c, Final: mustWith(t, c, `{"model":"m","input":"hi"}`)}
	drift := func(x *capture.Capture) (*rules.Result, error) {
		return &rules.Result{Original: x, Final: mustWith(t, x, strings.Replace(string(x.Body), `"h"`, `""`, 1))}, nil
	}
	stable := func(x *capture.Capture) (*rules.Result, error) { return &rules.Result{Original: x, Final: x}, nil }
	cases := []struct {
		name string
		rule *rules.Rule
		res  *rules.Result
		re   rules.Retransform
		want int
	}{
		{"growth", NoGrowth, grow, stable, 1},
		{"shrink", NoGrowth, shrink, stable, 0},
		{"reshaped", ShapePreserved, reshaped, stable, 1},
		{"same shape", ShapePreserved, shrink, stable, 0},
		{"drift", Idempotent, shrink, drift, 1},
		{"stable", Idempotent, shrink, stable, 0},
	}
	for _, tc := range cases {
		env := &rules.Env{Again: tc.re}
		diags, err := rules.Verify(tc.res, []*rules.Rule{tc.rule}, env)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(diags) != tc.want {
			t.Errorf("%s: %d diagnostics %+v, want %d", tc.name, len(diags), diags, tc.want)
		}
	}
}

func TestStablePrefix(t *testing.T) {
	catalog := `<available_skills>\n<skill><name>a</name><description>d</description></skill>\n</available_skills>`
	b1 := `{"model":"m","max_tokens":1,"system":"S ` + catalog + `","messages":[{"role":"user","content":"one"}]}`
	b2 := `{"model":"m","max_tokens":1,"system":"S ` + catalog + `","messages":[{"role":"user","content":"two"}]}`
	c1, c2 := read(t, b1), read(t, b2)
	same := []*rules.Result{{Original: c1, Final: c1}, {Original: c2, Final: c2}}
	diverged := []*rules.Result{{Original: c1, Final: c1}, {Original: c2, Final: mustWith(t, c2, strings.Replace(b2, `"S `, `"T `, 1))}}
	for name, tc := range map[string]struct {
		batch []*rules.Result
		want  int
	}{"same": {same, 0}, "diverged": {diverged, 1}} {
		diags := bothWays(t, tc.batch, StablePrefix)
		if len(diags) != tc.want {
			t.Errorf("%s: %d diagnostics %+v, want %d", name, len(diags), diags, tc.want)
		}
	}
}

func anthropicTurn(tools, msgs string) string {
	return `{"model":"m","max_tokens":1,"system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}],"tools":[` + tools + `],"messages":[` + msgs + `]}`
}

const (
	userMsg   = `{"role":"user","content":[{"type":"text","text":"go"}]}`
	callMsg   = `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"a","input":{}}]}`
	resultMsg = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"long output"%s}]}`
	toolA     = `{"name":"a","input_schema":{},"cache_control":{"type":"ephemeral"}}`
)

func TestConversationPrefix(t *testing.T) {
	cc := `,"cache_control":{"type":"ephemeral"}`
	t1 := read(t, anthropicTurn(toolA, userMsg))
	// Pi moves the message breakpoint to the latest message each turn.
	t2 := read(t, anthropicTurn(toolA, userMsg+","+callMsg+","+strings.Replace(resultMsg, "%s", cc, 1)))
	t3 := read(t, anthropicTurn(toolA, userMsg+","+callMsg+","+strings.Replace(resultMsg, "%s", "", 1)+`,{"role":"assistant","content":"done"},{"role":"user","content":[{"type":"text","text":"more"}]}`))
	same := func(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} }
	with := func(c *capture.Capture, from, to string, rule string, ptr string) *rules.Result {
		r := &rules.Result{Original: c, Final: mustWith(t, c, strings.Replace(string(c.Body), from, to, 1))}
		r.Steps = []rules.Step{{Rule: &rules.Rule{ID: rule}, Applied: true, Changes: []rules.Change{{Rule: rule, Pointer: ptr}}}}
		return r
	}
	cases := []struct {
		name  string
		batch []*rules.Result
		want  []string
	}{
		{"untouched", []*rules.Result{same(t1), same(t2), same(t3)}, nil},
		{"declaration from turn 2 on", []*rules.Result{same(t1), with(t2, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"), with(t3, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0")},
			[]string{"tool declarations differ from those of t.json after transformation although they were the same before (changed by SO301)"}},
		{"declaration on every turn", []*rules.Result{
			with(t1, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"),
			with(t2, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"),
			with(t3, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0")}, nil},
		{"system changed on turn 3", []*rules.Result{same(t1), same(t2), with(t3, `"text":"S"`, `"text":"T"`, "SO101", "/system/0/text")},
			[]string{"system text differs from that of t.json after transformation although it was the same before (changed by SO101)"}},
		{"reduced in turn 3 only", []*rules.Result{same(t1), same(t2), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")},
			[]string{"message 2 differs from what t.json sent, inside the prefix that request cached (changed by SO301)"}},
		{"reduced on both turns", []*rules.Result{same(t1), with(t2, `long output`, `short`, "SO301", "/messages/2/content/0/content"), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")}, nil},
	}
	for _, tc := range cases {
		diags := bothWays(t, tc.batch, ConversationPrefix)
		var got []string
		for _, d := range diags {
			got = append(got, d.Message)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	// A reduction of a message after the last breakpoint of the previous
	// turn is outside its cached prefix.
	b2 := string(t2.Body)
	i := strings.LastIndex(b2, cc)
	noMsgCache := read(t, b2[:i]+b2[i+len(cc):])
	batch := []*rules.Result{same(noMsgCache), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")}
	if diags, _ := rules.VerifyBatch(batch, []*rules.Rule{ConversationPrefix}, &rules.Env{}); len(diags) != 0 {
		t.Fatalf("outside the cached prefix: %+v", diags)
	}
}

// bothWays verifies batch with the cross-capture rule r as VerifyBatch
// does (each result prepared as it is added) and as check does (every
// result prepared first, here last to first, then added in order), and
// fails unless both find the same.
func bothWays(t *testing.T, batch []*rules.Result, r *rules.Rule) []rules.Diagnostic {
	t.Helper()
	want, err := rules.VerifyBatch(batch, []*rules.Rule{r}, &rules.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Engine.Prepare == nil {
		t.Fatalf("%s prepares nothing", r.ID)
	}
	v := rules.NewBatchVerifier([]*rules.Rule{r}, &rules.Env{})
	preps := make([]rules.Prepared, len(batch))
	for i := len(batch) - 1; i >= 0; i-- {
		if preps[i], err = v.Prepare(batch[i]); err != nil {
			t.Fatal(err)
		}
	}
	var got []rules.Diagnostic
	for i, res := range batch {
		raised, err := v.AddPrepared(res, preps[i])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, raised[0]...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s prepared first: %+v, as added: %+v", r.ID, got, want)
	}
	return want
}

// TestCrossStateHoldsNoResult: the cross-capture invariants keep what they
// compare as hashes and names, never a result, capture or document, so a
// batch of any size costs the memory of their state only.
func TestCrossStateHoldsNoResult(t *testing.T) {
	t1 := read(t, anthropicTurn(toolA, userMsg))
	t2 := read(t, anthropicTurn(toolA, userMsg+","+callMsg+","+strings.Replace(resultMsg, "%s", "", 1)))
	same := func(c *capture.Capture) *rules.Result { return &rules.Result{Original: c, Final: c} }
	// A capture with a skill catalog, for SO404's groups.
	data, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "anthropic-catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	withCatalog := read(t, string(data))
	if len(withCatalog.CatalogBytes()) == 0 {
		t.Fatal("the example capture holds no catalog")
	}
	for _, r := range []*rules.Rule{StablePrefix, ConversationPrefix} {
		p := &rules.Pass{Rule: r, Env: &rules.Env{}}
		for _, res := range []*rules.Result{same(t1), same(withCatalog), same(t2), same(withCatalog)} {
			p.Result, p.Prepared = res, r.Engine.Prepare(res) // as a driver does
			if err := r.Run(p); err != nil {
				t.Fatal(err)
			}
		}
		if p.State == nil {
			t.Fatalf("%s kept no state", r.ID)
		}
		if bad := heldType(reflect.ValueOf(p.State), map[uintptr]bool{}); bad != "" {
			t.Errorf("%s keeps a %s between results", r.ID, bad)
		}
	}
}

// heldType returns the name of a result, capture or document type that v
// reaches, or "".
func heldType(v reflect.Value, seen map[uintptr]bool) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return ""
		}
		seen[v.Pointer()] = true
		switch v.Type().Elem() {
		case reflect.TypeFor[rules.Result](), reflect.TypeFor[capture.Capture](), reflect.TypeFor[capture.Doc](), reflect.TypeFor[capture.File]():
			return v.Type().String()
		}
		return heldType(v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return heldType(v.Elem(), seen)
	case reflect.Struct:
		for i := range v.NumField() {
			if s := heldType(v.Field(i), seen); s != "" {
				return s
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if s := heldType(v.Index(i), seen); s != "" {
				return s
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if s := heldType(it.Value(), seen); s != "" {
				return s
			}
		}
	}
	return ""
}
