package rules

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
