package reviewdiff

import (
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// TestBetween: two files pair capture by capture, named after both
// sides; files of different lengths do not pair; Differ sees a changed
// body.
func TestBetween(t *testing.T) {
	read := func(name, data string) *capture.File {
		t.Helper()
		f, err := capture.Read(name, []byte(data), capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	one := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	two := `{"model":"m","max_tokens":6,"messages":[{"role":"user","content":"hi"}]}`
	a, b := read("a.jsonl", one+"\n"+one+"\n"), read("b.jsonl", one+"\n"+two+"\n")
	pairs, err := Between(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 || pairs[1].Name != "a.jsonl#2 → b.jsonl#2" || pairs[1].NameA != "a.jsonl#2" || pairs[1].NameB != "b.jsonl#2" {
		t.Fatalf("pairs %+v", pairs)
	}
	if !Differ(pairs) || Differ(pairs[:1]) {
		t.Errorf("Differ: all %v, first %v; want true, false", Differ(pairs), Differ(pairs[:1]))
	}
	if _, err := Between(a, read("c.json", one)); err == nil || err.Error() != "a.jsonl holds 2 captures but c.json holds 1" {
		t.Errorf("err = %v", err)
	}
}
