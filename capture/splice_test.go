package capture

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// spliceValues are the values the splice tests write: scalars, strings
// with escapes, and nested containers.
var spliceValues = []string{
	`0`, `-1.5e3`, `true`, `null`, `""`, `"plain"`, `"with \"escapes\" and \\ and \n"`, `"\ud83d\ude00"`,
	`[]`, `{}`, `[1,"two",[3,[4]]]`, `{"name":"skill_search","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}`,
	`{"a": [ {"b" : null} ], "c\"d": 1}`,
}

// spliceKeys are the member names inserted: some collide with members of
// the test bodies (spelled differently, too), which Parse refuses.
var spliceKeys = []string{"new", "other key", `quo"te`, "model", "x", "\u00e9"}

// randomSplices returns up to four non-overlapping splices of d, as the
// rules engine makes them: a value replaced, an element appended, a
// member added, an element inserted before another.
func randomSplices(r *rand.Rand, d *Doc) []Splice {
	var out []Splice
	taken := func(start, end int) bool {
		for _, s := range out {
			switch {
			case start == end && s.Start == s.End:
			case start == end:
				if start > s.Start && start < s.End {
					return true
				}
			case s.Start == s.End:
				if s.Start > start && s.Start < end {
					return true
				}
			case start < s.End && s.Start < end:
				return true
			}
		}
		return false
	}
	for range 1 + r.IntN(4) {
		n := Node(r.IntN(len(d.Nodes)))
		e := d.Nodes[n]
		val := []byte(spliceValues[r.IntN(len(spliceValues))])
		var s Splice
		switch op := r.IntN(4); {
		case op == 0:
			s = Splice{Start: int(e.Start), End: int(e.End), Text: val, Node: n}
		case op == 1 && e.Kind == Array, op == 2 && e.Kind == Object:
			var text []byte
			if d.Len(n) > 0 {
				text = append(text, ',')
			}
			if e.Kind == Object {
				text = AppendQuote(text, spliceKeys[r.IntN(len(spliceKeys))])
				text = append(text, ':')
			}
			at := int(e.End) - 1
			s = Splice{Start: at, End: at, Text: append(text, val...), Node: n, Insert: true}
		case op == 3 && n > 0 && d.Kind(d.ParentOf(n)) == Array:
			s = Splice{Start: int(e.Start), End: int(e.Start), Text: append(val, ','), Node: d.ParentOf(n), Insert: true}
		default:
			continue
		}
		if !taken(s.Start, s.End) {
			out = append(out, s)
		}
	}
	// By position, an insertion before a replacement at the same byte;
	// later insertions into one empty container get their comma.
	slices.SortStableFunc(out, func(a, b Splice) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b2i(a.Start != a.End) - b2i(b.Start != b.End)
	})
	for i := 1; i < len(out); i++ {
		if out[i].Insert && out[i].Start == out[i-1].Start && out[i-1].Insert && out[i].Text[0] != ',' && out[i].Text[len(out[i].Text)-1] != ',' {
			out[i].Text = append([]byte{','}, out[i].Text...)
		}
	}
	return out
}

// TestWithSplices checks the index WithSplices derives against Parse's
// of the same bytes, for random splices of synthetic and real bodies:
// the same nodes wherever the new body parses, the parse's error
// wherever it does not; and the index is derived, not parsed, for every
// splice but the ones it must leave to the parse.
func TestWithSplices(t *testing.T) {
	bodies := slices.Clone(replaceBodies)
	gap := strings.Repeat(" ", 70000)
	bodies = append(bodies, `{"model":"m","tools":[],"messages":[[[]]],"x":{}}`, `[[],{}, [ 1 ] ]`,
		// Keys far from their values, after what the splices change, and
		// inside values they replace.
		`{"a":[1,2],"b":{"c":`+gap+`"x"},"wide":`+gap+`{"in":`+gap+`[1]},"z":3}`)
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "captures", "*", "*.json"))
	if len(paths) == 0 {
		t.Log("no corpus captures (../shared/corpus/captures): synthetic bodies only")
	}
	for _, p := range paths[:min(len(paths), 20)] {
		if data, err := os.ReadFile(p); err == nil {
			bodies = append(bodies, string(data))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	derived, parsed := 0, 0
	for bi, body := range bodies {
		d, err := Parse([]byte(body))
		if err != nil {
			continue
		}
		c := &Capture{Name: "b", Body: d.Src, Doc: d}
		for round := range 200 {
			sp := randomSplices(r, d)
			if len(sp) == 0 {
				continue
			}
			want := spliceBytes(d.Src, sp)
			wd, werr := Parse(want)
			got, gerr := c.WithSplices(sp)
			if werr != nil {
				if gerr == nil || gerr.Error() != werr.Error() {
					t.Fatalf("body %d round %d: error %v, want the parse's %v", bi, round, gerr, werr)
				}
				if d.spliced(want, sp) != nil {
					t.Fatalf("body %d round %d: an index derived for a body that does not parse (%v)", bi, round, werr)
				}
				continue
			}
			if gerr != nil {
				t.Fatalf("body %d round %d: %v", bi, round, gerr)
			}
			if !bytes.Equal(got.Body, want) || !bytes.Equal(got.Doc.Src, want) {
				t.Fatalf("body %d round %d: body differs from the splice", bi, round)
			}
			if !slices.Equal(got.Doc.Nodes, wd.Nodes) || !maps.Equal(got.Doc.gaps, wd.gaps) {
				t.Fatalf("body %d round %d: index differs from Parse's\nsplices %+v\nbody %s", bi, round, sp, want)
			}
			if wd.surrogates && !got.Doc.surrogates {
				t.Fatalf("body %d round %d: surrogate escapes lost", bi, round)
			}
			if d.spliced(want, sp) != nil {
				derived++
			} else {
				parsed++
			}
		}
	}
	// Few splices are left to the parse (duplicate members, mostly).
	t.Logf("%d indexes derived, %d parsed", derived, parsed)
	if derived == 0 || parsed > derived/10 {
		t.Fatalf("%d indexes derived, %d parsed", derived, parsed)
	}
}

// TestWithSplicesLeavesToParse lists splices whose index must come from
// the parse: what would be a duplicate member (however spelled), nesting
// deeper than MaxDepth, a missing or extra comma, a text that is not a
// value.
func TestWithSplicesLeavesToParse(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1)
	for _, tc := range []struct {
		name, body string
		splice     Splice
		parses     bool
		derived    bool // the one case here whose index is derived
	}{
		{"duplicate member", `{"a":1}`, Splice{Start: 6, End: 6, Text: []byte(`,"a":2`), Node: 0, Insert: true}, false, false},
		{"duplicate spelled with an escape", `{"a":1}`, Splice{Start: 6, End: 6, Text: []byte(`,"\u0061":2`), Node: 0, Insert: true}, false, false},
		{"too deep", `{"a":` + deep + `}`, Splice{Start: 5 + MaxDepth - 1, End: 5 + MaxDepth - 1, Text: []byte(`[]`), Node: Node(MaxDepth - 1), Insert: true}, false, false},
		{"just deep enough", `{"a":` + deep[1:len(deep)-1] + `}`, Splice{Start: 5 + MaxDepth - 2, End: 5 + MaxDepth - 2, Text: []byte(`[]`), Node: Node(MaxDepth - 2), Insert: true}, true, true},
		{"too deep a value", `{"a":` + deep[:len(deep)/2] + `1` + deep[len(deep)/2:] + `}`, Splice{Start: 5 + MaxDepth - 1, End: 5 + MaxDepth, Text: []byte(`[]`), Node: Node(MaxDepth)}, false, false},
		{"missing comma", `["a"]`, Splice{Start: 4, End: 4, Text: []byte(`"b"`), Node: 0, Insert: true}, false, false},
		{"comma on the wrong side", `["a"]`, Splice{Start: 4, End: 4, Text: []byte(`"b",`), Node: 0, Insert: true}, false, false},
		{"extra comma", `[]`, Splice{Start: 1, End: 1, Text: []byte(`,2`), Node: 0, Insert: true}, false, false},
		{"two values", `[1]`, Splice{Start: 1, End: 2, Text: []byte(`2,3`), Node: 1}, true, false},
		{"not a value", `[1]`, Splice{Start: 1, End: 2, Text: []byte(`tru`), Node: 1}, false, false},
		{"white space around", `{"a":1}`, Splice{Start: 5, End: 6, Text: []byte(` 2`), Node: 1}, true, false},
		{"span is not the node's", `[12]`, Splice{Start: 1, End: 2, Text: []byte(`3`), Node: 1}, true, false},
	} {
		d, err := Parse([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sp := []Splice{tc.splice}
		body := spliceBytes(d.Src, sp)
		if (d.spliced(body, sp) != nil) != tc.derived {
			t.Errorf("%s: index derived: %v", tc.name, !tc.derived)
		}
		_, werr := Parse(body)
		c := &Capture{Body: d.Src, Doc: d}
		if _, err := c.WithSplices(sp); (err == nil) != (werr == nil) || (werr == nil) != tc.parses {
			t.Errorf("%s: error %v, the parse's %v", tc.name, err, werr)
		}
	}
}

// FuzzWithSplices checks WithSplices against Parse on any document and
// random splices of it: the same bytes, and the same index or the same
// error.
func FuzzWithSplices(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2,{"a":"b"}]`, `{"a":{"a":1},"b":[true,[],null]}`, `{"tools":[],"messages":[{"role":"user","content":"\ud83d\ude00"}]}`, ` [ [ ] , { } ] `} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 1<<16 {
			return
		}
		d, err := Parse(data)
		if err != nil {
			return
		}
		sp := randomSplices(rand.New(rand.NewPCG(seed, 1)), d)
		if len(sp) == 0 {
			return
		}
		want := spliceBytes(d.Src, sp)
		wd, werr := Parse(want)
		got, gerr := (&Capture{Body: d.Src, Doc: d}).WithSplices(sp)
		switch {
		case werr != nil:
			if gerr == nil || gerr.Error() != werr.Error() {
				t.Fatalf("error %v, want %v", gerr, werr)
			}
		case gerr != nil:
			t.Fatal(gerr)
		case !bytes.Equal(got.Body, want) || !slices.Equal(got.Doc.Nodes, wd.Nodes) || !maps.Equal(got.Doc.gaps, wd.gaps):
			t.Fatalf("splices %+v of %q: index differs from Parse's", sp, data)
		}
	})
}

// TestSub compares the index of a value taken from its document with
// Parse's of the value's bytes, for every container of synthetic and
// real bodies.
func TestSub(t *testing.T) {
	wide := strings.Repeat(" ", 70000)
	bodies := append(slices.Clone(replaceBodies), `{"k\"ey":{"a":1},"b":[{"c\u0064":[]}]}`, `{"wide":`+wide+`{"inner":`+wide+`"v","x":[1]}}`)
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "captures", "*", "*.json"))
	for _, p := range paths[:min(len(paths), 20)] {
		if data, err := os.ReadFile(p); err == nil {
			bodies = append(bodies, string(data))
		}
	}
	checked := 0
	for bi, body := range bodies {
		d, err := Parse([]byte(body))
		if err != nil {
			continue
		}
		for n := range Node(len(d.Nodes)) {
			if k := d.Kind(n); k != Object && k != Array && n%7 != 0 {
				continue
			}
			e := d.Nodes[n]
			want, err := Parse(d.Src[e.Start:e.End])
			if err != nil {
				t.Fatal(err)
			}
			got := d.sub(n)
			if !bytes.Equal(got.Src, want.Src) || !slices.Equal(got.Nodes, want.Nodes) || !maps.Equal(got.gaps, want.gaps) || want.surrogates && !got.surrogates {
				t.Fatalf("body %d node %d: the index taken out differs from Parse's", bi, n)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d values checked", checked)
	}
}

// TestRebuildBareBody: a file that is one body comes back as the new
// body, capped so that appending to it copies, and a file with more
// around its body keeps it.
func TestRebuildBareBody(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{`{"model":"m","messages":[]}`, `{"model":"n"}`},
		{"{\"model\":\"m\",\"messages\":[]}\n", "{\"model\":\"n\"}\n"},
	} {
		f, err := Read("b.json", []byte(tc.file), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := f.Rebuild(map[*Capture][]byte{f.Captures[0]: []byte(`{"model":"n"}`)})
		if string(got) != tc.want || cap(got) != len(got) {
			t.Fatalf("%q: rebuilt %q (cap %d), want %q", tc.file, got, cap(got), tc.want)
		}
	}
}
