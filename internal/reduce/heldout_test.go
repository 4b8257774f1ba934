package reduce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
)

// TestHeldoutGolden: the reduction of every held-out output, with its
// reducer's name, is the committed one (go test -update rewrites them).
func TestHeldoutGolden(t *testing.T) {
	for name, text := range corpusOf(t, heldoutDir) {
		res, ok := Reduce(text, DefaultOptions())
		got := "unreduced\n"
		if ok {
			got = res.Reducer + "\n" + res.Text
		}
		golden.Check(t, filepath.Join("testdata", "heldout", name+".golden"), []byte(got))
	}
	if golden.Update() {
		return
	}
	// No golden file is left without its output.
	files, _ := filepath.Glob(filepath.Join("testdata", "heldout", "*.golden"))
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(heldoutDir, strings.TrimSuffix(filepath.Base(f), ".golden"))); err != nil {
			t.Errorf("%s: no held-out output of that name", f)
		}
	}
}

func goEv(action, test, output string) string {
	s := `{"Time":"2026-01-02T03:04:05Z","Action":"` + action + `","Package":"example.test/p"`
	if test != "" {
		s += `,"Test":"` + test + `"`
	}
	if output != "" {
		s += `,"Output":` + output
	}
	return s + "}"
}

func TestGoTestJSON(t *testing.T) {
	var ls []string
	ls = append(ls, goEv("start", "", ""))
	for _, n := range []string{"TestA", "TestB", "TestC", "TestD"} {
		ls = append(ls, goEv("run", n, ""), goEv("output", n, `"=== RUN   `+n+`\n"`),
			goEv("output", n, `"    a_test.go:12: all fine\n"`), goEv("output", n, `"--- PASS: `+n+` (0.00s)\n"`), goEv("pass", n, ""))
	}
	ls = append(ls, goEv("run", "TestBad", ""), goEv("output", "TestBad", `"=== RUN   TestBad\n"`),
		goEv("output", "TestBad", `"    bad_test.go:9: got 1, want 2\n"`), goEv("output", "TestBad", `"--- FAIL: TestBad (0.00s)\n"`),
		goEv("fail", "TestBad", ""), goEv("output", "", `"FAIL\n"`), goEv("output", "", `"FAIL\texample.test/p\t0.01s\n"`), goEv("fail", "", ""))
	text := lines(ls...)
	if got := Detect(text); got != "go-test-json" {
		t.Fatalf("Detect = %q, want go-test-json", got)
	}
	res, ok := With("go-test-json", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	for _, want := range []string{`bad_test.go:9: got 1, want 2`, `--- FAIL: TestBad (0.00s)`, `"Action":"fail","Package":"example.test/p","Test":"TestBad"`,
		`FAIL\texample.test/p\t0.01s`, "4 passed, 0 skipped, 1 failed"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("reduction lacks %q:\n%s", want, res.Text)
		}
	}
	for _, not := range []string{`a_test.go:12`, `=== RUN   TestBad`} {
		if strings.Contains(res.Text, not) {
			t.Errorf("reduction keeps %q:\n%s", not, res.Text)
		}
	}
}

func TestGoTestJSONDetect(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"events", lines(goEv("start", "", ""), goEv("run", "TestA", ""), goEv("pass", "TestA", ""), goEv("pass", "", "")), true},
		{"build output", lines(`{"ImportPath":"example.test/p","Action":"build-output","Output":"# example.test/p\n"}`,
			`{"ImportPath":"example.test/p","Action":"build-output","Output":"p.go:3:1: syntax error\n"}`,
			`{"ImportPath":"example.test/p","Action":"build-fail"}`), true},
		{"other JSON lines", lines(`{"level":"info","Action":"x"}`, `{"level":"info","Action":"y"}`, `{"level":"info","Action":"z"}`), false},
		{"mostly text", lines(append(repeat(10, func(int) string { return "plain text" }), goEv("run", "A", ""), goEv("pass", "A", ""), goEv("pass", "", ""))...), false},
		{"plain go test", lines("=== RUN   TestA", "--- PASS: TestA (0.00s)", "PASS", "ok  \tp\t0.1s"), false},
	} {
		if got := detectGoJSON(newDoc(c.text)); got != c.want {
			t.Errorf("%s: detectGoJSON = %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzGoTestJSON(f *testing.F) {
	fuzzWith(f, "go-test-json",
		lines(append(repeat(30, func(int) string { return goEv("output", "TestA", `"    a_test.go:3: ok\n"`) }),
			goEv("output", "TestB", `"    b_test.go:9: got 1, want 2\n"`), goEv("fail", "TestB", ""), goEv("fail", "", ""))...),
		lines(`{"ImportPath":"p","Action":"build-output","Output":"p.go:3:1: syntax error\n"}`, `{"ImportPath":"p","Action":"build-fail"}`,
			`not json`, goEv("output", "", `"FAIL\tp [build failed]\n"`), goEv("fail", "", "")))
}
