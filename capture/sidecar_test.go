package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bare body's sidecar is kept, redacted, and written for a new body with
// that body's length.
func TestSidecarKept(t *testing.T) {
	dir := t.TempDir()
	body := `{"model":"deepseek-v4-pro","messages":[{"role":"user","content":"hi"}]}`
	meta := `{"method":"POST","path":"/deepseek/chat/completions","headers":{"host":"127.0.0.1:18080","Authorization":"Bearer sk-secret-123","content-length":"70"},"bytes":70}`
	if err := os.MkdirAll(filepath.Join(dir, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "c.json")
	os.WriteFile(in, []byte(body), 0o644)
	os.WriteFile(filepath.Join(dir, "meta", "c.meta.json"), []byte(meta), 0o644)
	f, err := ReadFile(in, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := f.Sidecar
	if s == nil || s.Path != filepath.Join(dir, "meta", "c.meta.json") {
		t.Fatalf("sidecar %+v", s)
	}
	if strings.Contains(string(s.Data), "sk-secret") || !strings.Contains(string(s.Data), Redacted) {
		t.Errorf("sidecar not redacted: %s", s.Data)
	}
	got := string(s.For([]byte("{}")))
	if !strings.Contains(got, `"content-length":"2"`) || !strings.Contains(got, `"bytes":2`) || !strings.Contains(got, "/deepseek/chat/completions") {
		t.Errorf("For: %s", got)
	}
	if p := SidecarPath(filepath.Join(dir, "out.json")); p != filepath.Join(dir, "out.meta.json") {
		t.Errorf("SidecarPath: %s", p)
	}
	// Headers as a list of name/value pairs.
	l := &Sidecar{Data: []byte(`{"headers":[{"name":"Content-Length","value":"9"}]}`)}
	if got := string(l.For([]byte("abc"))); got != `{"headers":[{"name":"Content-Length","value":"3"}]}` {
		t.Errorf("For (list): %s", got)
	}
	// A file without a sidecar has none; so has one whose sidecar is no object.
	os.WriteFile(filepath.Join(dir, "d.json"), []byte(body), 0o644)
	if f, _ := ReadFile(filepath.Join(dir, "d.json"), nil, Options{}); f.Sidecar != nil {
		t.Errorf("sidecar without a file: %+v", f.Sidecar)
	}
}
