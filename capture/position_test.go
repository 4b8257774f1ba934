package capture

import (
	"bytes"
	"strings"
	"testing"
)

// TestFileOffset maps the start of every value of the body back into the
// file, per envelope: exactly where the body's bytes are in the file (the
// value's bytes are found there), to the string token holding an encoded
// body otherwise.
func TestFileOffset(t *testing.T) {
	body := `{"model":"m","max_tokens":"lots","messages":[{"role":"user","content":"h\u00e9 😀"}]}`
	quoted := string(Quote(body))
	cases := []struct {
		name, file, data string
		capture          int // which capture of the file
		exact            bool
		token            string // inexact: the file text at the mapped offset
	}{
		{"bare", "c.json", body, 0, true, ""},
		{"bare after blank lines", "c.json", "\n\n  " + body + "\n", 0, true, ""},
		{"record object", "c.json", `{"url":"https://api.anthropic.com/v1/messages","headers":{"x-api-key":"k"},"body":` + body + `}`, 0, true, ""},
		{"code assist", "c.json", `{"model":"gemini-2.5-pro","project":"p","request":{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}}`, 0, true, ""},
		{"jsonl second line", "c.jsonl", body + "\n" + body + "\n", 1, true, ""},
		{"json string", "c.json", quoted, 0, false, quoted},
		{"record string", "c.json", `{"url":"u","body":` + quoted + `}`, 0, false, quoted},
		{"double encoded", "c.json", string(Quote(quoted)), 0, false, string(Quote(quoted))},
		{"base64", "c.json", `{"method":"POST","body":"eyJtb2RlbCI6Im0iLCJtYXhfdG9rZW5zIjo1LCJtZXNzYWdlcyI6W119"}`, 0, false, `"eyJ`},
		{"har", "c.har", `{"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"https://api.openai.com/v1/responses","postData":{"text":` + string(Quote(`{"model":"m","input":"hi"}`)) + `}}}]}}`, 0, false, `"{\"model`},
	}
	for _, tc := range cases {
		f, err := Read(tc.file, []byte(tc.data), Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		c := f.Captures[tc.capture]
		for i := range c.Doc.Nodes {
			start := int(c.Doc.Nodes[i].Start)
			pos, exact := c.FileOffset(start)
			if exact != tc.exact {
				t.Errorf("%s: node %s: exact %v", tc.name, c.Doc.Pointer(Node(i)), exact)
				continue
			}
			if exact {
				if raw := c.Doc.Raw(Node(i)); !bytes.HasPrefix(f.Data[pos:], raw) {
					t.Errorf("%s: %s maps to %d: %.20q, want %.20q", tc.name, c.Doc.Pointer(Node(i)), pos, f.Data[pos:], raw)
				}
			} else if !strings.HasPrefix(string(f.Data[pos:]), tc.token) {
				t.Errorf("%s: %s maps to %d: %.20q, want the string token", tc.name, c.Doc.Pointer(Node(i)), pos, f.Data[pos:])
			}
		}
	}
}

// TestFileOffsetRedacted: a redacted credential changes the body's length;
// offsets after it still map exactly, offsets inside it map to the start of
// the value it replaced.
func TestFileOffsetRedacted(t *testing.T) {
	data := `{"api_key":"sk-abcdefghijklmnopqrstuvwxyz0123456789","model":"m","client_secret":"x","messages":[{"role":"user","content":"hi"}]}`
	f, err := Read("c.json", []byte(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := f.Captures[0]
	if bytes.Equal(c.Body, f.Data) {
		t.Fatal("nothing redacted")
	}
	if pos, exact := c.FileOffset(0); pos != 0 || !exact {
		t.Errorf("root maps to %d (%v)", pos, exact)
	}
	for _, ptr := range []string{"/model", "/messages/0/content", "/messages"} {
		i, err := c.Doc.Lookup(ptr)
		if err != nil {
			t.Fatal(err)
		}
		pos, exact := c.FileOffset(int(c.Doc.Nodes[i].Start))
		if !exact || !bytes.HasPrefix(f.Data[pos:], c.Doc.Raw(i)) {
			t.Errorf("%s maps to %d (%v): %.20q", ptr, pos, exact, f.Data[pos:])
		}
	}
	for _, tc := range []struct {
		ptr, want string
	}{{"/api_key", `"sk-abc`}, {"/client_secret", `"x"`}} {
		i, _ := c.Doc.Lookup(tc.ptr)
		start := int(c.Doc.Nodes[i].Start)
		pos, exact := c.FileOffset(start)
		if !exact || !strings.HasPrefix(data[pos:], tc.want) {
			t.Errorf("%s maps to %d (%v)", tc.ptr, pos, exact)
		}
		if in, exact := c.FileOffset(start + 3); in != pos || exact {
			t.Errorf("%s: inside the value maps to %d (%v), want %d, inexact", tc.ptr, in, exact, pos)
		}
	}
}

// TestFileOffsetPiSession: element k of a Pi session body is the k-th
// non-blank line of the file, byte for byte.
func TestFileOffsetPiSession(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","cwd":"/w"}`,
		`{"type":"message","message":{"role":"user","content":"é 😀"}}`,
		``,
		"  \r",
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}` + "\r",
	}
	data := strings.Join(lines, "\n") + "\n"
	f, err := Read("s.jsonl", []byte(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := f.Captures[0]
	if c.Envelope != EnvPiSession {
		t.Fatalf("envelope %s", c.Envelope)
	}
	lineStart := []int{0, len(lines[0]) + 1, len(data) - len(lines[4]) - 1}
	k := 0
	for e := range c.Doc.Children(0) {
		pos, exact := c.FileOffset(int(c.Doc.Nodes[e].Start))
		if !exact || pos != lineStart[k] {
			t.Errorf("element %d maps to %d (%v), want line start %d", k, pos, exact, lineStart[k])
		}
		k++
	}
	for i := range c.Doc.Nodes {
		if i == 0 {
			continue
		}
		pos, exact := c.FileOffset(int(c.Doc.Nodes[i].Start))
		if !exact || !bytes.HasPrefix(f.Data[pos:], c.Doc.Raw(Node(i))) {
			t.Errorf("%s maps to %d: %.20q", c.Doc.Pointer(Node(i)), pos, f.Data[pos:])
		}
	}
	// The brackets and commas are not in the file.
	for _, tc := range []struct{ off, want int }{
		{0, 0},
		{1 + len(lines[0]), len(lines[0])},
		{len(c.Body) - 1, len(data) - 1},
		{len(c.Body) + 5, len(data)},
	} {
		if pos, exact := c.FileOffset(tc.off); pos != tc.want || exact {
			t.Errorf("offset %d maps to %d (%v), want %d, inexact", tc.off, pos, exact, tc.want)
		}
	}
}

// FuzzFileOffset: every offset of every body read maps into the file, and
// an exact offset of a body stored as itself points at the same byte
// unless a credential was redacted there.
func FuzzFileOffset(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`,
		`{"api_key":"secret-value-1234567890","model":"m","messages":[]}`,
		`{"url":"https://api.openai.com/v1/responses","body":"{\"input\":\"hi\"}"}`,
		"{\"type\":\"session\"}\n\n{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\r\n",
		`{"log":{"entries":[{"request":{"postData":{"text":"{\"messages\":[]}"}}}]}}`,
		`{"model":"gemini-2.5-pro","project":"p","request":{"contents":[]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<12 {
			return
		}
		file, err := Read("f.json", data, Options{})
		if err != nil {
			return
		}
		for _, c := range file.Captures {
			for off := -1; off <= len(c.Body)+1; off++ {
				pos, exact := c.FileOffset(off)
				if pos < 0 || pos > len(data) {
					t.Fatalf("offset %d maps to %d outside the file of %d bytes", off, pos, len(data))
				}
				if exact && !file.Redacted() && off >= 0 && off < len(c.Body) && data[pos] != c.Body[off] {
					t.Fatalf("offset %d maps to %d: %q, want %q", off, pos, data[pos], c.Body[off])
				}
			}
		}
	})
}
