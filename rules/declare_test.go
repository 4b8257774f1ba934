package rules

import (
	"strings"
	"testing"
)

// declRule declares a tool, with or without shrinking the system text as
// well.
func declRule(shrink bool) *Rule {
	return &Rule{ID: "T7", Kind: Transform, Doc: "Test.", Engine: Engine{Lossy: true}, Run: func(p *Pass) error {
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
