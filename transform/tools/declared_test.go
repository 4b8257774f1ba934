package tools

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestDeclaredTools(t *testing.T) {
	a := `{"name":"alpha","description":"first","input_schema":{"type":"object"}}`
	b := `{"name":"beta","description":"second","input_schema":{"type":"object"},"defer_loading":true}`
	c := `{"type":"web_search_20250305","name":"web_search"}`
	body := `{"model":"claude-sonnet-4-5","max_tokens":10,"tools":[` + a + `, ` + b + `,` + c + `],"messages":[{"role":"user","content":"hi"}]}`
	f, err := capture.Read("c.json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := DeclaredTools(f.Captures[0])
	want := []DeclaredTool{{"alpha", len(a), false}, {"beta", len(b), true}, {"web_search", len(c), false}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tool %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// The byte counts cover the declarations exactly.
	sum := 0
	for _, d := range got {
		sum += d.Bytes
	}
	if tools := body[strings.Index(body, `"tools":[`)+len(`"tools":[`) : strings.Index(body, `],"messages"`)]; sum != len(tools)-3 {
		t.Errorf("declarations total %d bytes, the tools array holds %d besides separators", sum, len(tools)-3)
	}
	if n := len(DeclaredTools(declaredCapture(t, `{"model":"m","max_tokens":1,"messages":[]}`))); n != 0 {
		t.Errorf("a request without tools declares %d", n)
	}
}

func declaredCapture(t *testing.T, body string) *capture.Capture {
	t.Helper()
	f, err := capture.Read("c.json", []byte(body), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Captures[0]
}
