package reduce

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestColumnarRoundTrip(t *testing.T) {
	rows := []string{
		`{"id": 12345678901234567890123, "ratio": -0, "big": 1E400, "name": "Zo\u00eb", "tags": ["a", {"deep": [1, 2.50]}], "note": null}`,
		`{"name": "second", "id": 2, "ratio": 1.0e-3, "tags": [], "note": "🚀"}`,
		`{"id": 3, "ratio": 0.0, "name": "третий", "extra": true}`,
	}
	var all []string
	for i := 0; i < 20; i++ {
		all = append(all, rows...)
	}
	text := "[\n  " + strings.Join(all, ",\n  ") + "\n]"
	out, ok := Columnar(text, "sko:x")
	if !ok {
		t.Fatal("not converted")
	}
	back, err := DecodeColumnar(out)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := EqualJSON(text, back); err != nil || !eq {
		t.Fatalf("round trip differs: %v\n%s", err, back)
	}
	for _, tok := range []string{"12345678901234567890123", "-0", "1E400", `"Zo\u00eb"`, "2.50", "1.0e-3", `"🚀"`, `"absent":[[0,6],`} {
		if !strings.Contains(out, tok) {
			t.Errorf("token %s not kept verbatim in %s", tok, out)
		}
	}
	if !IsColumnar(out) || ColumnarHandle(out) != "sko:x" {
		t.Error("form not recognised")
	}
	// A second conversion of the form is not a JSON array: nothing to do.
	if _, ok := Columnar(out, "sko:y"); ok {
		t.Error("columnar form converted again")
	}
}

func TestColumnarDeclines(t *testing.T) {
	obj := func(i int) string {
		return fmt.Sprintf(`{"name": "n%d", "value": %d, "comment": "an ordinary row"}`, i, i)
	}
	var many []string
	for i := 0; i < 50; i++ {
		many = append(many, obj(i))
	}
	cases := map[string]string{
		"not an array":       `{"a": 1}`,
		"one object":         "[" + obj(1) + "]",
		"non-object":         "[" + strings.Join(many, ",") + ", 42]",
		"sparse":             `[{"a":1},{"b":2},{"c":3},{"d":4},{"e":5},{"f":6}]`,
		"lone surrogate":     "[" + strings.Join(many, ",") + `, {"name": "\ud800", "value": 1, "comment": "x"}]`,
		"lone low surrogate": "[" + strings.Join(many, ",") + `, {"name": "a\udc00", "value": 1, "comment": "x"}]`,
		"duplicate keys":     "[" + strings.Join(many, ",") + `, {"name": "a", "name": "b"}]`,
		"invalid":            "[" + strings.Join(many, ","),
		"compact, no gain":   `[{"a":1},{"a":2}]`,
	}
	for name, text := range cases {
		if out, ok := Columnar(text, ""); ok {
			t.Errorf("%s: converted to %s", name, out)
		}
	}
	// A valid surrogate pair is fine.
	pair := "[" + strings.Join(many, ",") + `, {"name": "\ud83d\ude80", "value": 1, "comment": "x"}]`
	if _, ok := Columnar(pair, ""); !ok {
		t.Error("valid surrogate pair refused")
	}
}

// TestColumnarEvidence: a string value that holds protected evidence keeps
// an array out of the columnar form; the same array without it converts,
// and so does one whose objects only have a key named "error".
func TestColumnarEvidence(t *testing.T) {
	rows := func(evidence bool) string {
		var out []string
		for i := 0; i < 40; i++ {
			msg := fmt.Sprintf("request %d served", i)
			if evidence && i%10 == 0 {
				msg = fmt.Sprintf("error: connection refused by db-%d", i)
			}
			out = append(out, fmt.Sprintf(`{"level": "info", "message": %q, "error": null}`, msg))
		}
		return "[\n" + strings.Join(out, ",\n") + "\n]"
	}
	text := rows(true)
	if ev := ColumnarEvidence(text); len(ev) != 5 || !strings.Contains(strings.Join(ev, " "), "db-30") {
		t.Fatalf("evidence %q", ev)
	}
	if out, ok := Columnar(text, ""); ok {
		t.Fatalf("converted although values hold evidence:\n%s", out)
	}
	out, ok := Columnar(rows(false), "")
	if !ok {
		t.Fatal("an array without evidence was not converted")
	}
	ev := ColumnarEvidence(rows(false))
	if miss := MissingTokens(ev, out); len(miss) > 0 {
		t.Errorf("lost %v", miss)
	}
}

func TestEqualJSON(t *testing.T) {
	cases := []struct {
		a, b string
		eq   bool
	}{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, true},
		{`{"a":"\u00e9"}`, `{"a":"é"}`, true},
		{`[1]`, `[1.0]`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":null}`, `{}`, false},
		{`true`, `false`, false},
	}
	for _, c := range cases {
		if eq, err := EqualJSON(c.a, c.b); err != nil || eq != c.eq {
			t.Errorf("EqualJSON(%s, %s) = %v %v", c.a, c.b, eq, err)
		}
	}
	if _, err := DecodeColumnar(`{"skillopt_columnar":2}`); err == nil {
		t.Error("unknown version decoded")
	}
	if _, err := DecodeColumnar(`{"skillopt_columnar":1,"columns":["a"],"rows":[[1,2]]}`); err == nil {
		t.Error("row of the wrong width decoded")
	}
}

func TestMayBeRecords(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{`[{"a":1},{}]`, true},
		{"[ {\"a\": [1, 2]} ,\n\t{\"b\": \"]\"} ]", true},
		{`[{},{"a":"\"}, 1"},{"b":{"c":[{}]}}]`, true},
		{`[{"a":1}]`, false},
		{`[{},{}]`, false},
		{`[{"a":1}, 2]`, false},
		{`[1, {"a":1}]`, false},
		{`["{}", {"a":1}]`, false},
		{`[[{"a":1}], {"a":1}]`, false},
		{`[{"a":1}, null]`, false},
		{`[]`, false},
		{`[0,0,0,0]`, false},
	}
	for _, c := range cases {
		if got := mayBeRecords(c.text); got != c.want {
			t.Errorf("mayBeRecords(%s) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestColumnarDeclinesDenseArrayCheaply: arrays of numbers and of empty
// objects are turned away before they are indexed (the index alone would
// take eight times the text).
func TestColumnarDeclinesDenseArrayCheaply(t *testing.T) {
	for _, text := range []string{
		"[" + strings.Repeat("0,", 1<<19) + "0]",
		"[" + strings.Repeat("{},", 1<<18) + "{}]",
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, ok := Columnar(text, "")
		runtime.ReadMemStats(&after)
		if ok {
			t.Fatalf("%.20s… was converted", text)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > uint64(len(text))/8 {
			t.Errorf("declining %d bytes of %.20s… allocated %d bytes", len(text), text, a)
		}
	}
}
