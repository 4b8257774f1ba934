package rules

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// declRule declares a tool, with or without shrinking the system text as
// well.
func declRule(shrink bool) *Rule {
	return &Rule{ID: "T7", Kind: Transform, Doc: "Test.", Run: func(p *Pass) error {
		d := p.Capture.Doc
		if !strings.Contains(string(d.Raw(d.Get(0, "tools"))), `"x"`) {
			p.Edit(Edit{Pointer: "/tools", Append: true, NewJSON: []byte(`{"name":"x","input_schema":{}}`)})
		}
		if shrink && d.GetStr(0, "system") != "S" {
			p.Edit(Edit{Pointer: "/system", NewJSON: []byte(`"S"`)})
		}
		p.PrefixChange("because")
		return nil
	}}
}

const toolBody = `{"model":"m","max_tokens":1,"system":"a long system text","tools":[{"name":"a","input_schema":{}}],"messages":[{"role":"user","content":"hi"}]}`

// TestDeclarationCounts: a declaration counts against the step's saving
// like any other addition. Alone it is dropped; with a larger saving the
// step is applied and keeps the reason it gave for changing the prefix.
func TestDeclarationCounts(t *testing.T) {
	c := read(t, toolBody)
	res, err := Run(c, []*Rule{declRule(false)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Steps[0]; s.Applied || !strings.Contains(s.Dropped, "not smaller") || s.PrefixChange != "" || res.Changed() {
		t.Fatalf("a declaration alone: %+v", s)
	}
	long := mustWith(t, c, strings.Replace(toolBody, "a long system text", strings.Repeat("a long system text ", 10), 1))
	res, _ = Run(long, []*Rule{declRule(true)}, nil)
	if s := res.Steps[0]; !s.Applied || s.Saved() <= 0 || s.PrefixChange != "because" {
		t.Fatalf("a declaration with a larger saving: %+v", s)
	}
	if diags, _ := Verify(res, []*Rule{NoGrowth}, nil); len(diags) != 0 {
		t.Fatalf("SO402: %+v", diags)
	}
	grown := &Result{Original: c, Final: mustWith(t, c, strings.Replace(toolBody, `"hi"`, `"hi there"`, 1)),
		Steps: []Step{{Rule: declRule(false), Applied: true, BytesBefore: 1, BytesAfter: 4, Changes: []Change{{BytesAfter: 3}}}}}
	if diags, _ := Verify(grown, []*Rule{NoGrowth}, nil); len(diags) != 2 {
		t.Fatalf("growth: %+v", diags)
	}
}

// TestShared: the passes of one run share what Shared computes, and see
// the run's pipeline; another run computes it again.
func TestShared(t *testing.T) {
	calls := 0
	var seen [][]*Rule
	mk := func(id string) *Rule {
		return &Rule{ID: id, Kind: Transform, Doc: "Test.", Run: func(p *Pass) error {
			p.Shared("k", func() any { calls++; return calls })
			seen = append(seen, p.Pipeline())
			return nil
		}}
	}
	pipe := []*Rule{mk("T1"), mk("T2")}
	c := read(t, toolBody)
	for range 2 {
		if _, err := Run(c, pipe, nil); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 || len(seen) != 4 || len(seen[3]) != 2 || seen[3][1] != pipe[1] {
		t.Fatalf("calls %d, pipelines %v", calls, seen)
	}
	if p := (&Pass{Rule: pipe[0]}); p.Pipeline() != nil || p.Shared("k", func() any { return 7 }) != 7 {
		t.Fatal("a pass outside the engine")
	}
}

// TestApplyBefore: an element added before another, alone, beside an
// append and beside a replacement of that element.
func TestApplyBefore(t *testing.T) {
	c := read(t, `{"tools":[{"name":"a"}, {"name":"b","cache_control":{"type":"ephemeral"}}],"model":"m","messages":[]}`)
	next, changes, err := Apply(c, []Edit{
		{Pointer: "/tools/1", Before: true, NewJSON: []byte(`{"name":"x"}`)},
		{Pointer: "/tools/1", NewJSON: []byte(`{"name":"B"}`)},
		{Pointer: "/tools", Append: true, NewJSON: []byte(`{"name":"z"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tools":[{"name":"a"}, {"name":"x"},{"name":"B"},{"name":"z"}],"model":"m","messages":[]}`; string(next.Body) != want {
		t.Fatalf("got  %s\nwant %s", next.Body, want)
	}
	if changes[0].BytesBefore != 0 || changes[0].BytesAfter == 0 {
		t.Fatalf("changes %+v", changes)
	}
	if _, _, err := Apply(c, []Edit{{Pointer: "/model", Before: true, NewJSON: []byte(`1`)}}); err == nil {
		t.Fatal("before a member that is no array element accepted")
	}
	if _, _, err := Apply(c, []Edit{{Pointer: "/tools/0", Before: true, NewJSON: []byte(`1`)}, {Pointer: "/tools", NewJSON: []byte(`[]`)}}); err == nil {
		t.Fatal("insertion inside a replaced array accepted")
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
	same := func(c *capture.Capture) *Result { return &Result{Original: c, Final: c} }
	with := func(c *capture.Capture, from, to string, rule string, ptr string) *Result {
		r := &Result{Original: c, Final: mustWith(t, c, strings.Replace(string(c.Body), from, to, 1))}
		r.Steps = []Step{{Rule: &Rule{ID: rule}, Applied: true, Changes: []Change{{Rule: rule, Pointer: ptr}}}}
		return r
	}
	cases := []struct {
		name  string
		batch []*Result
		want  []string
	}{
		{"untouched", []*Result{same(t1), same(t2), same(t3)}, nil},
		{"declaration from turn 2 on", []*Result{same(t1), with(t2, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"), with(t3, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0")},
			[]string{"tool declarations differ from those of t.json after transformation although they were the same before (changed by SO301)"}},
		{"declaration on every turn", []*Result{
			with(t1, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"),
			with(t2, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0"),
			with(t3, `"tools":[`, `"tools":[{"name":"x","input_schema":{}},`, "SO301", "/tools/0")}, nil},
		{"system changed on turn 3", []*Result{same(t1), same(t2), with(t3, `"text":"S"`, `"text":"T"`, "SO101", "/system/0/text")},
			[]string{"system text differs from that of t.json after transformation although it was the same before (changed by SO101)"}},
		{"reduced in turn 3 only", []*Result{same(t1), same(t2), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")},
			[]string{"message 2 differs from what t.json sent, inside the prefix that request cached (changed by SO301)"}},
		{"reduced on both turns", []*Result{same(t1), with(t2, `long output`, `short`, "SO301", "/messages/2/content/0/content"), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")}, nil},
	}
	for _, tc := range cases {
		diags, err := VerifyBatch(tc.batch, []*Rule{ConversationPrefix}, &Env{})
		if err != nil {
			t.Fatal(err)
		}
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
	batch := []*Result{same(noMsgCache), with(t3, `long output`, `short`, "SO301", "/messages/2/content/0/content")}
	if diags, _ := VerifyBatch(batch, []*Rule{ConversationPrefix}, &Env{}); len(diags) != 0 {
		t.Fatalf("outside the cached prefix: %+v", diags)
	}
}

// FuzzStripCacheControl: for any JSON value, the bytes without their
// cache_control members still parse, hold no cache_control member, and are
// unchanged by a second strip.
func FuzzStripCacheControl(f *testing.F) {
	f.Add([]byte(`{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}`))
	f.Add([]byte(`{"cache_control":{"type":"ephemeral","ttl":"1h"} , "name":"x"}`))
	f.Add([]byte(`[{"cache_control":{}},{"a":{"cache_control":{"cache_control":1}}}]`))
	f.Add([]byte(`{"cache_control":1}`))
	f.Add([]byte(`"cache_control"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		d, err := capture.Parse(data)
		if err != nil {
			return
		}
		out := stripCacheControl(d, 0)
		d2, err := capture.Parse(out)
		if err != nil {
			t.Fatalf("%s → %s: %v", data, out, err)
		}
		for i, parent := range d2.Walk(0) {
			if d2.IsMember(i) && d2.Key(i) == "cache_control" && d2.Kind(parent) == capture.Object {
				t.Fatalf("%s → %s keeps a cache_control member", data, out)
			}
		}
		if again := stripCacheControl(d2, 0); string(again) != string(out) {
			t.Fatalf("second strip changed %s to %s", out, again)
		}
	})
}
