package capture

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// replaceBodies are documents whose strings TestReplaceStrings rewrites:
// members after long gaps, escaped keys, nesting, strings at the ends.
var replaceBodies = []string{
	`{"model":"m","system":"You are helpful.","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"a\nb"}]}]}`,
	`["a", "b\u00e9", {"k\"ey":   "v", "n": [1, "two", {"x": "y"}]}, "last"]`,
	"{\"wide\":" + string(bytes.Repeat([]byte(" "), 70000)) + "\"after a big gap\",\"more\":\"z\"}",
	`"only a string"`,
}

// replaceTexts are the JSON strings put in place of others.
var replaceTexts = []string{`""`, `"short"`, `"with \"escapes\" and \\ and \n"`, `"\u00e9t\u00e9 \ud83d\ude00"`, `"` + string(bytes.Repeat([]byte("long "), 400)) + `"`}

// TestReplaceStrings checks the index ReplaceStrings builds against
// Parse's of the same bytes: any set of string values replaced, in any
// order, gives the body the splice gives and the very same nodes.
func TestReplaceStrings(t *testing.T) {
	bodies := slices.Clone(replaceBodies)
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "captures", "*", "*.json"))
	if len(paths) == 0 {
		t.Log("no corpus captures (../shared/corpus/captures): synthetic bodies only")
	}
	for _, p := range paths[:min(len(paths), 40)] {
		data, err := os.ReadFile(p)
		if err == nil {
			bodies = append(bodies, string(data))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for bi, body := range bodies {
		d, err := Parse([]byte(body))
		if err != nil {
			continue // not a bare document
		}
		c := &Capture{Name: "b", Body: d.Src, Doc: d}
		var strs []Node
		for i, n := range d.Nodes {
			if n.Kind == String {
				strs = append(strs, Node(i))
			}
		}
		for round := range 30 {
			if len(strs) == 0 {
				break
			}
			r.Shuffle(len(strs), func(i, j int) { strs[i], strs[j] = strs[j], strs[i] })
			pick := strs[:1+r.IntN(min(len(strs), 4))]
			texts := make([][]byte, len(pick))
			for i := range pick {
				texts[i] = []byte(replaceTexts[r.IntN(len(replaceTexts))])
			}
			got, ok := c.ReplaceStrings(pick, texts)
			if !ok {
				t.Fatalf("body %d round %d: string edits refused", bi, round)
			}
			// The splice, in document order, parsed from scratch.
			order := slices.Clone(pick)
			slices.Sort(order)
			var want []byte
			prev := 0
			for _, n := range order {
				want = append(want, d.Src[prev:d.Nodes[n].Start]...)
				want = append(want, texts[slices.Index(pick, n)]...)
				prev = int(d.Nodes[n].End)
			}
			want = append(want, d.Src[prev:]...)
			wd, err := Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Body, want) || !bytes.Equal(got.Doc.Src, want) {
				t.Fatalf("body %d round %d: body differs from the splice", bi, round)
			}
			if !slices.Equal(got.Doc.Nodes, wd.Nodes) || !maps.Equal(got.Doc.gaps, wd.gaps) {
				t.Fatalf("body %d round %d: index differs from Parse's", bi, round)
			}
			for _, n := range pick {
				if got.Doc.Str(n) != wd.Str(n) || got.Doc.Pointer(n) != wd.Pointer(n) {
					t.Fatalf("body %d round %d: node %d reads differently", bi, round, n)
				}
			}
		}
	}
}

// TestReplaceStringsRefuses lists what ReplaceStrings leaves to a parse:
// a node that is not a string, a text that is not exactly one JSON string,
// a node twice.
func TestReplaceStringsRefuses(t *testing.T) {
	d, err := Parse([]byte(`{"a":"x","b":1,"c":["y"]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := &Capture{Body: d.Src, Doc: d}
	for _, tc := range []struct {
		name  string
		nodes []Node
		texts []string
	}{
		{"number node", []Node{2}, []string{`"s"`}},
		{"array node", []Node{3}, []string{`"s"`}},
		{"number text", []Node{1}, []string{`2`}},
		{"two values", []Node{1}, []string{`"a","b"`}},
		{"white space", []Node{1}, []string{` "a"`}},
		{"bad escape", []Node{1}, []string{`"\q"`}},
		{"unterminated", []Node{1}, []string{`"a`}},
		{"twice", []Node{1, 1}, []string{`"a"`, `"b"`}},
		{"out of range", []Node{9}, []string{`"a"`}},
		{"none", nil, nil},
	} {
		texts := make([][]byte, len(tc.texts))
		for i, s := range tc.texts {
			texts[i] = []byte(s)
		}
		if _, ok := c.ReplaceStrings(tc.nodes, texts); ok {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
