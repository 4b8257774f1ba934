package reviewdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/unified"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
)

// checkPretty verifies that the line operations of the pretty view of two
// bodies spell pretty(a) on one side and pretty(b) on the other, and that
// the unified diff written from them applies to pretty(a) to give
// pretty(b).
func checkPretty(t testing.TB, sa, sb string, ctx int) {
	t.Helper()
	a, b := parseDoc(t, sa), parseDoc(t, sb)
	dp := newPair(a, b)
	c := &collector{}
	newDiffer(dp, prettyView, c).run()
	var oa, ob strings.Builder
	for _, l := range c.lines {
		switch l.kind {
		case opNote:
		case unified.Delete:
			oa.WriteString(l.text + "\n")
		case unified.Insert:
			ob.WriteString(l.text + "\n")
		default:
			oa.WriteString(l.text + "\n")
			ob.WriteString(l.text + "\n")
		}
	}
	pa, pb := pretty([]byte(sa)), pretty([]byte(sb))
	if oa.String() != pa {
		t.Fatalf("old side:\n%q\nwant\n%q", oa.String(), pa)
	}
	if ob.String() != pb {
		t.Fatalf("new side:\n%q\nwant\n%q", ob.String(), pb)
	}
	var out bytes.Buffer
	if err := writeDiff(&out, dp, prettyView, "a", "b", layoutDiff(dp, prettyView, nil, ctx, nil), false); err != nil {
		t.Fatal(err)
	}
	if pa == pb {
		if out.Len() > 0 {
			t.Fatalf("equal texts gave a diff:\n%s", out.String())
		}
		return
	}
	got, err := applyUnified(out.String(), pa)
	if err != nil {
		t.Fatalf("%v in\n%s", err, out.String())
	}
	if got != pb {
		t.Fatalf("the diff gives\n%q\nwant\n%q\n%s", got, pb, out.String())
	}
}

func TestPrettyView(t *testing.T) {
	for _, tc := range [][2]string{
		{`{"a":1}`, `{"a":2}`},
		{`{"a":[1,2,3],"b":{}}`, `{"a":[1,3],"b":{"c":[]}}` + "\n"},
		{` [ {"x" : "y"} ] ` + "\r\n", `[{"x":"y"},{"x":"z"}]`},
		{`{"s":"\u2028<&>\u0001"}`, `{"s":"é"}`},
		{`[1,2,3,4,5,6,7,8,9]`, `[1,2,3,4,5,6,7,8,9]`},
		{`[1, 2]`, `[1,2]`},
		{`{"a":1,"b":2,"c":3}`, `{"c":3,"a":1,"b":5}`},
		{`"x"`, `["x"]`},
	} {
		for _, ctx := range []int{0, 1, 3} {
			checkPretty(t, tc[0], tc[1], ctx)
		}
	}
}

// The unified diff of large bodies, diffed value by value, reads as the
// diff library's for an ordinary change.
func TestPrettyMatchesUnified(t *testing.T) {
	a := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"first question"}]}`
	b := `{"model":"m","max_tokens":5,"temperature":0.2,"messages":[{"role":"user","content":"second question"}]}`
	dp := newPair(parseDoc(t, a), parseDoc(t, b))
	var out bytes.Buffer
	if err := writeDiff(&out, dp, prettyView, "a.json", "b.json", layoutDiff(dp, prettyView, nil, 3, nil), false); err != nil {
		t.Fatal(err)
	}
	if want := unifiedDiff("a.json", "b.json", pretty([]byte(a)), pretty([]byte(b)), 3); out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// FuzzPrettyDiff: for any two JSON documents the pretty view's diff
// spells both pretty texts and applies as a patch.
func FuzzPrettyDiff(f *testing.F) {
	f.Add(`{"a":1}`, `{"a":2}`)
	f.Add(`[1,2,3]`, `[3,2,1]`)
	f.Add(`{"s":"x\ny"} `, `{"s":"x\nz"}`+"\n\n")
	f.Fuzz(func(t *testing.T, sa, sb string) {
		if len(sa) > 2048 || len(sb) > 2048 {
			return
		}
		if parse(sa) != nil || parse(sb) != nil {
			return
		}
		checkPretty(t, sa, sb, 2)
	})
}

func parse(s string) error {
	if !json.Valid([]byte(s)) {
		return json.Unmarshal([]byte(s), new(any))
	}
	_, err := parseDocErr(s)
	return err
}

// TestJSONStringWriter: the escaper writes what encoding/json and then
// escape.JSON write.
func TestJSONStringWriter(t *testing.T) {
	for _, s := range []string{"plain", "q\"b\\s\b\f\n\r\t\x01\x1f\x7f", "<&>", "\u2028\u2029", "é\xffx", "", "\u009b2J \u202eevil \u0085"} {
		checkJSONString(t, s)
	}
}

func FuzzJSONStringWriter(f *testing.F) {
	f.Add("a\"b\n\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	var got bytes.Buffer
	got.WriteByte('"')
	jsonStringWriter{&got}.WriteString(s)
	got.WriteString("\"\n")
	if w := string(escape.JSON(want.Bytes())); got.String() != w {
		t.Fatalf("%q: got %s, want %s", s, got.String(), escape.JSON(want.Bytes()))
	}
}

func parseDocErr(s string) (any, error) {
	_, err := capture.Parse([]byte(s))
	return nil, err
}

// applyUnified applies a unified diff (as the diff library writes it) to
// text, checking its context and deleted lines.
func applyUnified(diff, text string) (string, error) {
	before := strings.SplitAfter(text, "\n")
	if before[len(before)-1] == "" {
		before = before[:len(before)-1]
	}
	var out []string
	pos := 0
	lines := strings.SplitAfter(diff, "\n")
	for _, l := range lines {
		switch {
		case l == "" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
		case strings.HasPrefix(l, "@@ -"):
			var from int
			if _, err := fmt.Sscanf(l, "@@ -%d", &from); err != nil {
				return "", fmt.Errorf("bad header %q", l)
			}
			for ; pos < max(from-1, 0); pos++ {
				out = append(out, before[pos])
			}
		case l[0] == '+':
			out = append(out, l[1:])
		case l[0] == ' ' || l[0] == '-':
			if pos >= len(before) || before[pos] != l[1:] {
				return "", fmt.Errorf("line %d is not %q", pos+1, l)
			}
			if l[0] == ' ' {
				out = append(out, before[pos])
			}
			pos++
		default:
			return "", fmt.Errorf("unexpected line %q", l)
		}
	}
	return strings.Join(append(out, before[pos:]...), ""), nil
}

// The white space after a body, kept by json.Indent, diffs line by line.
func TestPrettyTrailingSpace(t *testing.T) {
	for _, tc := range [][2]string{
		{"[1]\n\n\n", "[1]\n\n"},
		{"[1]", "[1]\n \n\t\n"},
		{"[1]\n\n \n", "[1] \n\n \n"},
		{"[1]\r\n", "[2]\r\n\r\n"},
	} {
		checkPretty(t, tc[0], tc[1], 1)
		checkPretty(t, tc[1], tc[0], 0)
	}
}
