package capture

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

func TestParseKeepsSpelling(t *testing.T) {
	src := " {\"a\" : 1e2, \"b\":[-0, 12345678901234567890, 1.50E+3], \"c\":\"\\u00e9\\n\\\"\", \"d\":{}, \"e\":[] , \"f\":null,\"g\":true,\"h\":false}\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"/a":   "1e2",
		"/b/0": "-0",
		"/b/1": "12345678901234567890",
		"/b/2": "1.50E+3",
		"/c":   `"\u00e9\n\""`,
		"/d":   "{}",
		"/e":   "[]",
		"/f":   "null",
		"/g":   "true",
		"/h":   "false",
	}
	for ptr, want := range cases {
		i, err := d.Lookup(ptr)
		if err != nil {
			t.Fatalf("%s: %v", ptr, err)
		}
		if got := string(d.Raw(i)); got != want {
			t.Errorf("%s: raw %q, want %q", ptr, got, want)
		}
		if got := d.Pointer(i); got != ptr {
			t.Errorf("pointer of %s = %q", ptr, got)
		}
	}
	c, _ := d.Lookup("/c")
	if d.Str(c) != "é\n\"" {
		t.Errorf("decoded %q", d.Str(c))
	}
	if string(d.Raw(0)) != strings.TrimSpace(src) {
		t.Errorf("root span %q", d.Raw(0))
	}
}

func TestPointerEscapes(t *testing.T) {
	d, err := Parse([]byte(`{"a/b":{"m~n":[10,{"":3}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	i, err := d.Lookup("/a~1b/m~0n/1/")
	if err != nil || string(d.Raw(i)) != "3" {
		t.Fatalf("lookup: %v %q", err, d.Raw(i))
	}
	if p := d.Pointer(i); p != "/a~1b/m~0n/1/" {
		t.Fatalf("pointer %q", p)
	}
	for _, bad := range []string{"a", "/a~2b", "/a~1b/m~0n/01", "/a~1b/m~0n/2", "/a~1b/m~0n/0/x", "/zz"} {
		if _, err := d.Lookup(bad); err == nil {
			t.Errorf("%q resolved", bad)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src string
		off       int
		msg       string
	}{
		{"empty", "", 0, "empty input"},
		{"space", "  \n", 3, "only whitespace"},
		{"truncated object", `{"a":1`, 6, "truncated"},
		{"truncated string", `{"a":"xy`, 5, "unterminated string"},
		{"truncated literal", `[tru`, 4, "truncated"},
		{"trailing", `{} {}`, 3, "after the top-level value"},
		{"trailing comma", `[1,]`, 3, "trailing comma"},
		{"trailing comma object", `{"a":1,}`, 7, "trailing comma"},
		{"duplicate", `{"a":1,"b":2,"a":3}`, 13, `duplicate object key "a"`},
		{"duplicate escaped", `{"a":1,"\u0061":3}`, 7, "duplicate object key"},
		{"bad utf8", "{\"a\":\"\xff\"}", 6, "invalid UTF-8"},
		{"control", "\"a\tb\"", 2, "control byte"},
		{"bad escape", `"\x"`, 1, "invalid escape"},
		{"bad unicode", `"\u12g4"`, 5, "not a hex digit"},
		{"leading zero", `01`, 1, "after the top-level value"},
		{"bare minus", `-`, 1, "truncated"},
		{"dot", `1.`, 2, "after the decimal point"},
		{"exp", `1e+`, 3, "exponent"},
		{"single quote", `{'a':1}`, 1, "expected a quoted object key"},
		{"nan", `NaN`, 0, "expected a value"},
		{"colon", `{"a" 1}`, 5, "expected ':'"},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(tc.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: want SyntaxError, got %v", tc.name, err)
			continue
		}
		if se.Offset != tc.off || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%s: got offset %d %q, want %d containing %q", tc.name, se.Offset, se.Msg, tc.off, tc.msg)
		}
	}
}

func TestParseDepthLimit(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("depth %d rejected: %v", MaxDepth, err)
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	_, err := Parse([]byte(deep))
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Fatalf("100,000-deep nesting: %v", err)
	}
}

func TestDuplicateKeysInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":{"a":1,"b":2}`)
	}
	good := b.String() + "}"
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatal(err)
	}
	bad := b.String() + `,"kxxx":0}`
	if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("duplicate among 40 keys: %v", err)
	}
}

func TestRawOffset(t *testing.T) {
	d, err := Parse([]byte(`"a\nb\u00e9c\ud83d\ude00d<e"`))
	if err != nil {
		t.Fatal(err)
	}
	s := d.Str(0)
	for off := 0; off <= len(s); off++ {
		if off < len(s) && s[off]&0xC0 == 0x80 {
			continue // not a character boundary
		}
		raw := d.RawOffset(0, off)
		part := decodePart(d, 0, 1, raw)
		if part != s[:off] {
			t.Errorf("offset %d: raw %d decodes to %q, want %q", off, raw, part, s[:off])
		}
	}
}

func TestQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c", "tab\there\nnl", "\x00\x1f", "<a&b>", "é😀", "\u2028", "bad\xffutf8"} {
		q := Quote(s)
		var back string
		if err := json.Unmarshal(q, &back); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if back != want {
			t.Errorf("Quote(%q) = %s decodes to %q", s, q, back)
		}
		d, err := Parse(q)
		if err != nil || d.Str(0) != want {
			t.Errorf("Parse(Quote(%q)): %v %q", s, err, d.Str(0))
		}
	}
	if string(Quote("<&>")) != `"<&>"` {
		t.Error("Quote escapes HTML characters")
	}
}

// FuzzParse checks the index against encoding/json: they agree on validity
// (up to duplicate keys, which only the index rejects), every node's span
// is itself valid JSON, and pointers round-trip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2,{"a":"b"}]`, `{"a":{"a":1},"b":[true,false,null]}`, `"\ud83d\ude00"`, `-0.0e-0`, `{"a":1,"a":2}`, `[`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		d, err := Parse(data)
		valid := json.Valid(data)
		// A document that is one string, nothing around it, reads the
		// same by the short way.
		if sd := parseString(data); (sd != nil) != (err == nil && len(d.Nodes) == 1 && d.Nodes[0].Kind == String && int(d.Nodes[0].End) == len(data) && d.Nodes[0].Start == 0) ||
			sd != nil && (!slices.Equal(sd.Nodes, d.Nodes) || sd.surrogates != d.surrogates) {
			t.Fatalf("parseString(%q) disagrees with Parse", data)
		}
		if err == nil {
			if !valid {
				t.Fatalf("index accepted invalid JSON %q", data)
			}
			for i := range Node(len(d.Nodes)) {
				if !json.Valid(d.Raw(i)) {
					t.Fatalf("node %d span %q is not valid JSON", i, d.Raw(i))
				}
				j, err := d.Lookup(d.Pointer(i))
				if err != nil || j != i {
					t.Fatalf("pointer %q of node %d resolves to %d (%v)", d.Pointer(i), i, j, err)
				}
				checkNodeLinks(t, d, i)
			}
			if len(d.Nodes) > countValues(data) {
				t.Fatalf("%d nodes, bound %d", len(d.Nodes), countValues(data))
			}
			return
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error is not a SyntaxError: %v", err)
		}
		if valid && !strings.Contains(se.Msg, "duplicate") && !strings.Contains(se.Msg, "nesting") && utf8.Valid(data) {
			t.Fatalf("index rejected valid JSON %q: %v", data, err)
		}
	})
}

func TestSpecialBytes(t *testing.T) {
	special := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80 }
	var buf [8]byte
	state := uint64(12345)
	for i := 0; i < 200000; i++ {
		first := -1 // the first byte that needs attention
		for k := range buf {
			state = state*6364136223846793005 + 1442695040888963407
			c := byte(state >> 56)
			if i%3 == 0 {
				c = 0x20 + c%0x5f // mostly printable ASCII
			}
			buf[k] = c
			if first < 0 && special(c) {
				first = k
			}
		}
		got := -1
		if m := specialBytes(binary.LittleEndian.Uint64(buf[:])); m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != first {
			t.Fatalf("specialBytes(% x) flags byte %d first, want %d", buf, got, first)
		}
	}
}

// TestPlainRun checks the word-at-a-time scan against a byte-at-a-time
// one: any length, the first special byte anywhere, or none.
func TestPlainRun(t *testing.T) {
	special := func(c byte) bool { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80 }
	// Every byte value at every place of a few blocks.
	for c := range 256 {
		for at := range 48 {
			s := bytes.Repeat([]byte("a"), 48)
			s[at] = byte(c)
			want := at
			if !special(byte(c)) {
				want = 48
			}
			if got, _ := scanPlain(s); got != want && !(want == 48 && got > 40) {
				t.Fatalf("plainRun with %#x at %d = %d, want %d", c, at, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := make([]byte, r.IntN(80))
		for k := range s {
			s[k] = byte(0x20 + r.IntN(0x5f))
			switch r.IntN(40) {
			case 0:
				s[k] = byte(r.IntN(256))
			case 1, 2:
				s[k] = '\\'
			}
		}
		want := 0
		for want < len(s) && !special(s[want]) {
			want++
		}
		// A scan stops at the special byte, or within the last eight
		// bytes when there is none before them.
		if got := plainWords(s); got > want || got < want && !(want-got < 8 && len(s)-got < 8) {
			t.Fatalf("plainWords(%q) = %d, first special byte at %d", s, got, want)
		}
		// scanPlain may also step over one-letter escapes: what it
		// steps over is plain bytes and whole escapes, escaped when
		// there is one, and it goes as far as the word scan at least.
		n, esc := scanPlain(s)
		sawEscape := false
		for k := 0; k < n; k++ {
			switch {
			case s[k] == '\\' && k+1 < n && strings.IndexByte(`"\\/bfnrt`, s[k+1]) >= 0:
				sawEscape = true
				k++
			case special(s[k]):
				t.Fatalf("scanPlain(%q) = %d steps over byte %d", s, n, k)
			}
		}
		if esc != sawEscape || n < plainWords(s) {
			t.Fatalf("scanPlain(%q) = %d, %v", s, n, esc)
		}
	}
}

// checkNodeLinks verifies what nodes no longer store: a member's key token
// (found from the gap to its value) and its parent (found by descent).
func checkNodeLinks(t *testing.T, d *Doc, i Node) {
	t.Helper()
	p := d.ParentOf(i)
	if i == 0 {
		if p != NoNode {
			t.Fatalf("root has parent %d", p)
		}
		return
	}
	if !d.IsChild(p, i) {
		t.Fatalf("node %d is not a child of its parent %d", i, p)
	}
	anc := d.Ancestors(i)
	if len(anc) == 0 || anc[len(anc)-1] != p || anc[0] != 0 {
		t.Fatalf("ancestors of %d: %v, parent %d", i, anc, p)
	}
	s, e := d.KeySpan(i)
	if (d.Kind(p) == Object) != (s >= 0) || d.IsMember(i) != (s >= 0) {
		t.Fatalf("node %d in a %s: key span %d..%d", i, d.Kind(p), s, e)
	}
	if s < 0 {
		return
	}
	var key string
	if err := json.Unmarshal(d.Src[s:e], &key); err != nil || key != d.Key(i) {
		t.Fatalf("key token %q of node %d decodes to %q, Key says %q (%v)", d.Src[s:e], i, key, d.Key(i), err)
	}
	if strings.Trim(string(d.Src[e:d.Nodes[i].Start]), " \t\r\n") != ":" {
		t.Fatalf("between key and value of node %d: %q", i, d.Src[e:d.Nodes[i].Start])
	}
	if got := d.Get(p, key); got != i {
		t.Fatalf("Get(%d, %q) = %d, want %d", p, key, got, i)
	}
}

func TestKeysAndParents(t *testing.T) {
	docs := []string{
		`{"a":1,"b":{"c":[1,{"d":2}]}}`,
		`{"q\"uote":1,"back\\":2,"\\\"":3,"":4,"\u0061b":5}`,
		`[{"x" :  1}, [2, {"y"` + "\n\t" + `:3}]]`,
		`{"wide":` + strings.Repeat(" ", 70000) + `1, "next": [` + strings.Repeat(" ", 65535) + `2], "exact":` + strings.Repeat(" ", 65534) + `3}`,
	}
	for _, src := range docs {
		d, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%.40q: %v", src, err)
		}
		for i := range Node(len(d.Nodes)) {
			checkNodeLinks(t, d, i)
		}
	}
	d, _ := Parse([]byte(docs[1]))
	for _, k := range []string{`q"uote`, `back\`, `\"`, ``, `ab`} {
		if d.Get(0, k) == NoNode {
			t.Errorf("Get(%q) found nothing", k)
		}
	}
	if d.Get(0, `uote`) != NoNode || d.Get(0, `"uote`) != NoNode {
		t.Error("a key suffix matched")
	}
}

// The node slice is sized once from a count of commas and brackets, and a
// node stays 16 bytes: dense arrays cost about 8 bytes of index per input
// byte.
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(Entry{}); s != 16 {
		t.Errorf("Entry is %d bytes, want 16", s)
	}
	src := []byte("[" + strings.Repeat("0,", 9999) + "0]")
	d, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Nodes) != 10001 || cap(d.Nodes) != 10001 {
		t.Errorf("len %d cap %d, want 10001", len(d.Nodes), cap(d.Nodes))
	}
}

// TestHasSurrogateEscapes: the index notes every surrogate escape, in a
// value or a member name, paired or lone, in either case, and only those;
// the rule that finds lone ones looks no further when none is noted.
func TestHasSurrogateEscapes(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{`{"a":"plain \n text \u00e9 \u2019 \uD7FF \ue000"}`, false},
		{`{"a":"\\ud800 is text, not an escape"}`, false},
		{`{"a":"\ud83d\ude00"}`, true},
		{`{"a":"cut \uD83D"}`, true},
		{`{"a":"low \udc00 alone"}`, true},
		{`{"\uDBFF":1}`, true},
		{`["x", "\uDfFf"]`, true},
	}
	for _, c := range cases {
		d, err := Parse([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.HasSurrogateEscapes(); got != c.want {
			t.Errorf("%s: HasSurrogateEscapes = %v, want %v", c.src, got, c.want)
		}
	}

	// A replaced string brings its escapes into the new index.
	f := readOne(t, "r.json", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	c := f.Captures[0]
	n, err := c.Doc.Lookup("/messages/0/content")
	if err != nil {
		t.Fatal(err)
	}
	next, ok := c.ReplaceStrings([]Node{n}, [][]byte{[]byte(`"cut \ud83d"`)})
	if !ok || !next.Doc.HasSurrogateEscapes() {
		t.Errorf("replaced with a surrogate escape: ok %v, HasSurrogateEscapes %v", ok, ok && next.Doc.HasSurrogateEscapes())
	}
	if c.Doc.HasSurrogateEscapes() {
		t.Error("the original index changed")
	}
}
