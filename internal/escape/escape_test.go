package escape

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, text, lines string }{
		{"plain words, ünïcødé 😀", "plain words, ünïcødé 😀", "plain words, ünïcødé 😀"},
		{"a\tb", `a\tb`, "a\tb"},
		{"title \x1b]0;pwn\a!", `title \x1b]0;pwn\x07!`, `title \x1b]0;pwn\x07!`},
		{"\x1b[2J\x1b[31mred", `\x1b[2J\x1b[31mred`, `\x1b[2J\x1b[31mred`},
		{"one\ntwo\r\n", `one\ntwo\r\n`, "one\ntwo\\r\n"},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`, `nul\x00 del\x7f`},
		{"c1 \u009b2J \u0085 \u009d0;x\u009c", `c1 \x9b2J \x85 \x9d0;x\x9c`, `c1 \x9b2J \x85 \x9d0;x\x9c`},
		{"\u202eevil\u202c \u2066x\u2069 \u200f\u061c", `\u202eevil\u202c \u2066x\u2069 \u200f\u061c`, `\u202eevil\u202c \u2066x\u2069 \u200f\u061c`},
		{"sep\u2028par\u2029", `sep\u2028par\u2029`, `sep\u2028par\u2029`},
		{"bad \xff\xfe utf-8 \xc3", `bad \xff\xfe utf-8 \xc3`, `bad \xff\xfe utf-8 \xc3`},
		{"real \uFFFD stays", "real \uFFFD stays", "real \uFFFD stays"},
		{"<script>&amp;", "<script>&amp;", "<script>&amp;"},
		{"", "", ""},
	} {
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
		if got := Lines(tc.in); got != tc.lines {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.lines)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, text, code string }{
		{"plain words", "plain words", "`plain words`"},
		{"a|b", `a\|b`, "`a\\|b`"},
		{"*x* & [l](u) `c` ~s~ $m$ _u_ #h \\", `\*x\* &amp; \[l\](u) \` + "`c\\`" + ` \~s\~ \$m\$ \_u\_ \#h \\`, "``*x* & [l](u) `c` ~s~ $m$ _u_ #h \\``"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;", "&lt;img src=x onerror=alert(1)&gt;"},
		{"a > b", "a &gt; b", "`a > b`"},
		{"line\r\nbreak", `line\\r\\nbreak`, "`line\\r\\nbreak`"},
		{"\x1b]0;t\a", `\\x1b\]0;t\\x07`, "`\\x1b]0;t\\x07`"},
		{"`x`", "\\`x\\`", "`` `x` ``"},
		{"", "", ""},
	} {
		if got := Markdown(tc.in); got != tc.text {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.text)
		}
		if got := MarkdownCode(tc.in); got != tc.code {
			t.Errorf("MarkdownCode(%q) = %q, want %q", tc.in, got, tc.code)
		}
	}
}

func TestMarkdownProse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"keep `code` and **bold**\n- a list", "keep `code` and **bold**\n- a list"},
		{"tool `<img src=x>` & co", "tool `&lt;img src=x&gt;` &amp; co"},
		{"\x1b[2J\u009b\u202e", `\x1b[2J\x9b\u202e`},
	} {
		if got := MarkdownProse(tc.in); got != tc.want {
			t.Errorf("MarkdownProse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHTML(t *testing.T) {
	in := "<b a=\"1\">'x' & \x1b[2J\u009b\u202e\nnext</b>"
	want := "&lt;b a=&#34;1&#34;&gt;&#39;x&#39; &amp; \\x1b[2J\\x9b\\u202e\nnext&lt;/b&gt;"
	if got := HTML(in); got != want {
		t.Errorf("HTML(%q) = %q, want %q", in, got, want)
	}
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"plain ü 😀"}`, `{"a":"plain ü 😀"}`},
		{"{\"a\":\"\u009b2J\u0085\x7f\u202e\u2066\"}", `{"a":"\u009b2J\u0085\u007f\u202e\u2066"}`},
		{"[\"\\u001b]0;x\\u0007\", \"\u009d\"]", "[\"\\u001b]0;x\\u0007\", \"\\u009d\"]"},
	} {
		got := string(JSON([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("JSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
		var a, b any
		if json.Unmarshal([]byte(tc.in), &a) != nil || json.Unmarshal([]byte(got), &b) != nil {
			t.Fatalf("%q or %q does not parse", tc.in, got)
		}
		if ja, _ := json.Marshal(a); string(ja) != string(must(json.Marshal(b))) {
			t.Errorf("JSON(%q) changed the value: %s, want %s", tc.in, must(json.Marshal(b)), ja)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// terminalSafe reports the first rune of s a terminal could act on, with
// line feeds allowed or not.
func terminalSafe(s string, lf bool) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return r, false
		case (r == '\n' || r == '\t') && lf:
		case r < 0x20, r >= 0x7f && r < 0xa0, isBidi(r), r == '\u2028', r == '\u2029':
			return r, false
		}
	}
	return 0, true
}

// FuzzEscape checks the promises of every function on any input: Text is
// one line and safe, Lines keeps exactly the input's line feeds and tabs, both are
// idempotent and keep safe input as it is; Markdown and HTML hold no <; JSON
// keeps the value of any JSON document and leaves no raw C1 or bidi
// control in it.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;t\a\x1b[2J", "\u009b\u202e\r\n", "<script>&", "`|`", "\xff\xc3", `{"a":"\u009b"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, lines := Text(s), Lines(s)
		if r, ok := terminalSafe(text, false); !ok || strings.Contains(text, "\n") {
			t.Fatalf("Text(%q) = %q holds %U", s, text, r)
		}
		if r, ok := terminalSafe(lines, true); !ok {
			t.Fatalf("Lines(%q) = %q holds %U", s, lines, r)
		}
		if strings.Count(lines, "\n") != strings.Count(s, "\n") || strings.Count(lines, "\t") != strings.Count(s, "\t") {
			t.Fatalf("Lines(%q) = %q changed the line feeds", s, lines)
		}
		if Text(text) != text || Lines(lines) != lines {
			t.Fatalf("not idempotent on %q", s)
		}
		if _, ok := terminalSafe(s, false); ok && text != s {
			t.Fatalf("Text changed safe %q to %q", s, text)
		}
		for name, out := range map[string]string{"Markdown": Markdown(s), "MarkdownCode": MarkdownCode(s), "MarkdownProse": MarkdownProse(s), "HTML": HTML(s)} {
			if strings.Contains(out, "<") {
				t.Fatalf("%s(%q) = %q holds <", name, s, out)
			}
			if _, ok := terminalSafe(out, name == "HTML" || name == "MarkdownProse"); !ok {
				t.Fatalf("%s(%q) = %q is not terminal-safe", name, s, out)
			}
		}
		if strings.ContainsAny(Markdown(s), "\n|") && strings.Contains(strings.ReplaceAll(Markdown(s), `\|`, ""), "|") {
			t.Fatalf("Markdown(%q) = %q breaks a cell", s, Markdown(s))
		}
		if json.Valid([]byte(s)) {
			out := JSON([]byte(s))
			var a, b any
			if json.Unmarshal([]byte(s), &a) != nil || json.Unmarshal(out, &b) != nil {
				t.Fatalf("JSON(%q) = %q does not parse", s, out)
			}
			if string(must(json.Marshal(a))) != string(must(json.Marshal(b))) {
				t.Fatalf("JSON(%q) = %q changed the value", s, out)
			}
			for _, r := range string(out) {
				if r == 0x7f || r >= 0x80 && r < 0xa0 || isBidi(r) {
					t.Fatalf("JSON(%q) = %q holds %U", s, out, r)
				}
			}
		}
	})
}
