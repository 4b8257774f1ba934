package capture

import "testing"

// TestContinuedBy: a later turn has the same system text, the same tool
// declarations or more, and starts with every message of the turn
// before; cache_control markers are not compared.
func TestContinuedBy(t *testing.T) {
	const (
		tools = `[{"name":"read","input_schema":{}},{"name":"bash","input_schema":{},"cache_control":{"type":"ephemeral"}}]`
		msgs1 = `[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]`
		msgs2 = `[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":"hello"},{"role":"user","content":"go on"}]`
	)
	body := func(system, tools, msgs string) string {
		return `{"model":"claude-sonnet-4-5","max_tokens":8,"system":"` + system + `","tools":` + tools + `,"messages":` + msgs + `}`
	}
	prev := PrefixOf(read(t, body("be brief", tools, msgs1)))
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"the next turn", body("be brief", tools, msgs2), true},
		{"the same request again", body("be brief", tools, msgs1), true},
		{"a declaration more", body("be brief", `[{"name":"read","input_schema":{}},{"name":"grep","input_schema":{}},{"name":"bash","input_schema":{}}]`, msgs2), true},
		{"a declaration less", body("be brief", `[{"name":"read","input_schema":{}}]`, msgs2), false},
		{"declarations reordered", body("be brief", `[{"name":"bash","input_schema":{}},{"name":"read","input_schema":{}}]`, msgs2), false},
		{"another system text", body("be very brief", tools, msgs2), false},
		{"another first message", body("be brief", tools, `[{"role":"user","content":"hello"},{"role":"user","content":"go on"}]`), false},
		{"fewer messages", body("be brief", tools, `[]`), false},
	} {
		if got := prev.ContinuedBy(PrefixOf(read(t, c.body))); got != c.want {
			t.Errorf("%s: ContinuedBy = %v, want %v", c.name, got, c.want)
		}
	}
	if empty := PrefixOf(read(t, body("be brief", tools, `[]`))); empty.ContinuedBy(prev) {
		t.Error("a request without messages is continued by another")
	}
}

func read(t *testing.T, data string) *Capture {
	t.Helper()
	return readOne(t, "t.json", data).Captures[0]
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
		d, err := Parse(data)
		if err != nil {
			return
		}
		out := StripCacheControl(d, 0)
		d2, err := Parse(out)
		if err != nil {
			t.Fatalf("%s → %s: %v", data, out, err)
		}
		for i, parent := range d2.Walk(0) {
			if d2.IsMember(i) && d2.Key(i) == "cache_control" && d2.Kind(parent) == Object {
				t.Fatalf("%s → %s keeps a cache_control member", data, out)
			}
		}
		if again := StripCacheControl(d2, 0); string(again) != string(out) {
			t.Fatalf("second strip changed %s to %s", out, again)
		}
	})
}
