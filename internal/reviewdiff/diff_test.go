package reviewdiff

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
)

func parseDoc(t testing.TB, s string) *capture.Doc {
	t.Helper()
	d, err := capture.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRenderView(t *testing.T) {
	long := strings.Repeat("word ", 40)
	d := parseDoc(t, `{"a":[],"b":{},"s":"one\ntwo\n","n":1.50,"e":"\u001b[31m","l":"`+long+`","k":[true,null]}`)
	var got []string
	for _, l := range renderView(d) {
		got = append(got, l.ptr+"\t"+l.text)
	}
	want := []string{
		"\t{",
		"/a\t  \"a\": [],",
		"/b\t  \"b\": {},",
		"/s\t  \"s\": |",
		"/s\t    one",
		"/s\t    two",
		"/s\t",
		"/n\t  \"n\": 1.50,", // numbers as captured
		`/e` + "\t" + `  "e": "\u001b[31m",`,
		"/l\t  \"l\": |",
		"/l\t    " + strings.Repeat("word ", 31),
		"/l\t    " + wrapMark + strings.TrimSuffix(strings.Repeat("word ", 9), " ") + " ",
		"/k\t  \"k\": [",
		"/k/0\t    true,",
		"/k/1\t    null",
		"/k\t  ]",
		"\t}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Decoded text cannot drive the terminal.
	for _, l := range renderView(parseDoc(t, `{"s":"a\nb\u001b]0;x\u0007\r\u009b"}`)) {
		for _, r := range l.text {
			if isControl(r) {
				t.Fatalf("control character %U in %q", r, l.text)
			}
		}
	}
}

func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"aaaa bbbb cccc", 10, []string{"aaaa bbbb ", "cccc"}},
		// No space in the second half: a hard break.
		{"abcdefghijklmnop", 10, []string{"abcdefghij", "klmnop"}},
		// Characters, not bytes.
		{"ééééééééééé", 10, []string{"éééééééééé", "é"}},
	} {
		got := wrapLine(tc.in, tc.width)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// checkOps verifies that a diff's operations reproduce both renderings and
// that its hunk headers count their lines.
func checkOps(t testing.TB, a, b *capture.Doc, hs []reviewHunk) {
	t.Helper()
	ra, rb := renderView(a), renderView(b)
	var oa, ob []string
	for _, o := range allOps(a, b) {
		if o.kind == opNote {
			continue
		}
		if o.kind != unified.Insert {
			oa = append(oa, o.text)
		}
		if o.kind != unified.Delete {
			ob = append(ob, o.text)
		}
	}
	texts := func(ls []viewLine) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.text)
		}
		return out
	}
	if strings.Join(oa, "\n") != strings.Join(texts(ra), "\n") {
		t.Fatalf("old side does not reproduce the rendering:\n%s\nwant\n%s", strings.Join(oa, "\n"), strings.Join(texts(ra), "\n"))
	}
	if strings.Join(ob, "\n") != strings.Join(texts(rb), "\n") {
		t.Fatalf("new side does not reproduce the rendering:\n%s\nwant\n%s", strings.Join(ob, "\n"), strings.Join(texts(rb), "\n"))
	}
	for _, h := range hs {
		na, nb := 0, 0
		for k, l := range h.lines {
			if l.kind == opNote {
				continue
			}
			if l.kind != unified.Insert {
				if got := ra[h.fromLine-1+na].text; got != l.text {
					t.Fatalf("hunk %s: old line %d is %q, the hunk says %q", hunkHeader(h.hunkSpan), h.fromLine+na, got, l.text)
				}
				na++
			}
			if l.kind != unified.Delete {
				if got := rb[h.toLine-1+nb].text; got != l.text {
					t.Fatalf("hunk %s: new line %d is %q, the hunk says %q (line %d)", hunkHeader(h.hunkSpan), h.toLine+nb, got, l.text, k)
				}
				nb++
			}
		}
		if na != h.fromCount || nb != h.toCount {
			t.Fatalf("hunk %s counts %d and %d lines", hunkHeader(h.hunkSpan), na, nb)
		}
	}
}

func TestReviewDiff(t *testing.T) {
	a := parseDoc(t, `{"model":"m","system":"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten","tools":[{"name":"read"}],"messages":[{"role":"user","content":"hi"}]}`)
	b := parseDoc(t, `{"model":"m","system":"one\ntwo\nthree\n4\nfive\nsix\nseven\neight\nnine\nten","tools":[{"name":"read"},{"name":"skill_search"},{"name":"retrieve_output"}],"messages":[{"role":"user","content":"hi"}]}`)
	changes := []Change{
		{Pointer: "/system", Rule: "SO101", BytesBefore: 48, BytesAfter: 45},
		{Pointer: "/tools/1", Rule: "SO101", BytesAfter: 23},
		{Pointer: "/tools/2", Rule: "SO301", BytesAfter: 26},
	}
	hs := reviewDiff(a, b, changes, 2)
	checkOps(t, a, b, hs)
	if len(hs) != 2 {
		t.Fatalf("want 2 hunks, got %d", len(hs))
	}
	if got, want := hs[0].label, "/system SO101 catalog.compact-index"; got != want {
		t.Errorf("first hunk labelled %q, want %q", got, want)
	}
	// Two added tools, each named by its own index and rule.
	if got, want := hs[1].label, "/tools/1 SO101 catalog.compact-index; /tools/2 SO301 output.smart"; got != want {
		t.Errorf("second hunk labelled %q, want %q", got, want)
	}
	var text strings.Builder
	writeHunks(&text, "a", "b", hs, false)
	want := `--- a
+++ b
@@ -5,5 +5,5 @@ /system SO101 catalog.compact-index
     two
     three
-    four
+    4
     five
     six
@@ -15,5 +15,11 @@ /tools/1 SO101 catalog.compact-index; /tools/2 SO301 output.smart
     {
       "name": "read"
-    }
+    },
+    {
+      "name": "skill_search"
+    },
+    {
+      "name": "retrieve_output"
+    }
   ],
   "messages": [
`
	if text.String() != want {
		t.Errorf("got\n%s\nwant\n%s", text.String(), want)
	}
	if reviewDiff(a, a, nil, 3) != nil {
		t.Error("equal documents gave hunks")
	}
}

func TestReviewDiffShapes(t *testing.T) {
	for _, tc := range [][2]string{
		{`{"a":1}`, `[1]`},
		{`{"a":[]}`, `{"a":[1,2]}`},
		{`{"a":[1,2,3,4]}`, `{"a":[1,4]}`},
		{`{"a":1,"b":2,"c":3}`, `{"c":3,"a":1,"b":5}`},
		{`{"a":"x"}`, `{"a":"x\ny"}`},
		{`{"a":"one\ntwo"}`, `{"b":"one\ntwo"}`},
		{`{"s":"` + strings.Repeat("x", 300) + `"}`, `{"s":"` + strings.Repeat("x", 299) + `y"}`},
		{`["a","b"]`, `["a","b","c"]`},
	} {
		a, b := parseDoc(t, tc[0]), parseDoc(t, tc[1])
		checkOps(t, a, b, reviewDiff(a, b, nil, 1))
		checkOps(t, a, b, reviewDiff(a, b, nil, 0))
	}
}

func TestExactLCS(t *testing.T) {
	ids := func(s string) []uint32 {
		var out []uint32
		for _, c := range strings.Split(s, " ") {
			out = append(out, uint32(c[0]))
		}
		return out
	}
	a, b := ids("a b c d e f g"), ids("a x c d f g h")
	var common []uint32
	for _, r := range exactLCS(a, b) {
		common = append(common, a[r.x:r.x+r.n]...)
	}
	if got, want := string(bytesOf(common)), "acdfg"; got != want {
		t.Fatalf("common subsequence %q, want %q", got, want)
	}
	if rs := exactLCS(a, a); len(rs) != 1 || rs[0] != (match{0, 0, len(a)}) {
		t.Fatalf("equal lists gave %+v", rs)
	}
}

func bytesOf(s []uint32) []byte {
	out := make([]byte, len(s))
	for k, c := range s {
		out[k] = byte(c)
	}
	return out
}

// allOps lists the line operations of the review diff of a and b.
func allOps(a, b *capture.Doc) []hunkLine {
	c := &collector{}
	newDiffer(newPair(a, b), reviewView, c).run()
	return c.lines
}

func TestWordDiff(t *testing.T) {
	toks, keep := wordDiff("the first question", "the second question")
	var changed []string
	for i, tk := range toks {
		if !keep[i] {
			changed = append(changed, tk)
		}
	}
	if strings.Join(changed, "|") != "first" {
		t.Fatalf("changed words %q", changed)
	}
	// Lines with little in common are not highlighted word by word.
	if _, keep := wordDiff("completely different", "nothing alike here at all"); keep != nil {
		t.Fatal("unrelated lines highlighted word by word")
	}
}

// FuzzReviewDiff: for any two JSON documents the diff's operations
// reproduce both renderings, its hunks count their lines, and no line
// carries a control character.
func FuzzReviewDiff(f *testing.F) {
	f.Add(`{"a":1}`, `{"a":2}`)
	f.Add(`{"s":"x\ny\nz"}`, `{"s":"x\nz"}`)
	f.Add(`{"t":[{"n":"a"}]}`, `{"t":[{"n":"a"},{"n":"b"},{"n":"c"}]}`)
	f.Add(`[1,2,3]`, `[3,2,1]`)
	f.Add(`{"a":{"b":"\u001b[2J"}}`, `{"a":{"b":"\r\n"}}`)
	f.Fuzz(func(t *testing.T, sa, sb string) {
		if len(sa) > 4096 || len(sb) > 4096 {
			return
		}
		a, err := capture.Parse([]byte(sa))
		if err != nil {
			return
		}
		b, err := capture.Parse([]byte(sb))
		if err != nil {
			return
		}
		hs := reviewDiff(a, b, compareDocs(a, b), 2)
		var ra, rb []string
		for _, l := range renderView(a) {
			ra = append(ra, l.text)
		}
		for _, l := range renderView(b) {
			rb = append(rb, l.text)
		}
		// White space between tokens is not shown.
		if same := strings.Join(ra, "\n") == strings.Join(rb, "\n"); same != (len(hs) == 0) {
			t.Fatalf("%d hunks for renderings equal=%v", len(hs), same)
		}
		if len(hs) > 0 {
			checkOps(t, a, b, hs)
		}
		var text strings.Builder
		writeHunks(&text, "a", "b", hs, false)
		for _, r := range text.String() {
			if r != '\n' && isControl(r) {
				t.Fatalf("control character %U in the diff", r)
			}
		}
	})
}

// isControl reports the characters diff output must never carry raw: the
// C0 controls but tab, DEL and the C1 controls.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\t') || (r >= 0x7f && r < 0xa0)
}

// A hunk no change covers is named by the value its first changed line
// shows.
func TestReviewLabels(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{`{"a":1}`, `{"a":2}`, "/a"},
		{`{"a":{"b":[1,2]}}`, `{"a":{"b":[1,{"c":3}]}}`, "/a/b/1"},
		{`{"a":[1]}`, `{"a":"x"}`, "/a"},
		{`{"t":[{"n":"a"}]}`, `{"t":[{"n":"a"},{"n":"b"}]}`, "/t/0"},
		{`["x"]`, `{"x":1}`, "(root)"},
	} {
		hs := reviewDiff(parseDoc(t, tc.a), parseDoc(t, tc.b), nil, 3)
		if len(hs) != 1 || hs[0].label != tc.want {
			var got []string
			for _, h := range hs {
				got = append(got, h.label)
			}
			t.Errorf("%s → %s: labels %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
