package reduce

import (
	"fmt"
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

func TestJUnit(t *testing.T) {
	ls := []string{`<?xml version="1.0" encoding="utf-8"?>`, `<testsuites>`,
		`	<testsuite name="ok" tests="30" failures="0" errors="0">`}
	ls = append(ls, repeat(30, func(i int) string {
		return `		<testcase name="case ` + string(rune('a'+i%26)) + `" time="0.001" classname="t"/>`
	})...)
	ls = append(ls, `	</testsuite>`, `	<testsuite name="bad" tests="3" failures="1" errors="0">`,
		`		<testcase name="passes" classname="t">`, `			<system-out>all fine at a_test.js:3:1</system-out>`, `		</testcase>`,
		`		<testcase name="skips" classname="t">`, `			<skipped message="later"/>`, `		</testcase>`,
		`		<testcase name="breaks" classname="t">`, `			<failure message="expected 1 to equal 2" type="AssertionError">`,
		`AssertionError: expected 1 to equal 2`, `    at Context.<anonymous> (test/a.test.js:12:9)`, `			</failure>`, `		</testcase>`,
		`	</testsuite>`, `	<!-- tests 33 -->`, `	<!-- fail 1 -->`, `	<!-- duration_ms 12.5 -->`, `</testsuites>`)
	text := lines(ls...)
	if got := Detect(text); got != "junit" {
		t.Fatalf("Detect = %q, want junit", got)
	}
	res, ok := With("junit", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	for _, want := range []string{`<testsuite name="bad" tests="3" failures="1"`, `<testcase name="breaks"`, `<failure message="expected 1 to equal 2"`,
		`at Context.<anonymous> (test/a.test.js:12:9)`, `<!-- tests 33 -->`, `<!-- fail 1 -->`, "31 passed, 1 skipped, 1 failed"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("reduction lacks %q:\n%s", want, res.Text)
		}
	}
	for _, not := range []string{`case a`, `<testsuite name="ok"`, `a_test.js:3:1`, `name="skips"`} {
		if strings.Contains(res.Text, not) {
			t.Errorf("reduction keeps %q:\n%s", not, res.Text)
		}
	}
}

func TestXMLTag(t *testing.T) {
	for _, c := range []struct {
		in, name string
		closed   bool
	}{
		{`<testcase name="a"/>`, "testcase", true}, {`<testcase name="a">`, "testcase", false}, {`</testcase>`, "/testcase", false},
		{`<skipped/>`, "skipped", true}, {`<!-- tests 3 -->`, "!--", false}, {`text`, "", false}, {`<`, "", false}, {`</x`, "", false},
	} {
		if name, closed := xmlTag(c.in); name != c.name || closed != c.closed {
			t.Errorf("xmlTag(%q) = %q, %v; want %q, %v", c.in, name, closed, c.name, c.closed)
		}
	}
}

func TestLineGrammars(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(string) bool
		in   string
		want bool
	}{
		{"diagSummary", diagSummary, "11 warnings", true},
		{"diagSummary", diagSummary, "1 error", true},
		{"diagSummary", diagSummary, "3 errors generated.", true},
		{"diagSummary", diagSummary, "2 warnings and 1 error generated.", true},
		{"diagSummary", diagSummary, "12 | int x;", false},
		{"diagSummary", diagSummary, "11 warnings were fine", false},
		{"gccSeverity", gccSeverity, ":754:5: error: no type", true},
		{"gccSeverity", gccSeverity, ":279:5: note:   candidate", true},
		{"gccSeverity", gccSeverity, ":12: error: x", false},
		{"gccSeverity", gccSeverity, ":12:3: says hello", false},
		{"pyQuietVerdict", pyQuietVerdict, "4 failed, 123 passed, 1 skipped, 1 xfailed, 1 error in 0.64s", true},
		{"pyQuietVerdict", pyQuietVerdict, "12 passed in 0.01s", true},
		{"pyQuietVerdict", pyQuietVerdict, "12 apples in 3s", false},
		{"pyQuietVerdict", pyQuietVerdict, "passed in 3s", false},
		{"pyProgress", pyProgress, "..FF.Es [ 98%]", true},
		{"pyProgress", pyProgress, "tests/test_a.py ..F [ 40%]", true},
		{"pyProgress", pyProgress, "loading [ 40%]", false},
		{"inFileLine", inFileLine, "In deploy.sh line 8:", true},
		{"inFileLine", inFileLine, "In the first line 8:", false},
		{"inFileLine", inFileLine, "In deploy.sh line x:", false},
		{"exceptionName", exceptionName, "E   ConnectionError: ledger database unavailable", true},
		{"exceptionName", exceptionName, "java.lang.IllegalStateException: closed", true},
		{"exceptionName", exceptionName, "/usr/include/llvm/DWPError.h", false},
		{"exceptionName", exceptionName, "Error: plain", false},
		{"dotLine", dotLine, "..........XXX.XXX", true},
		{"dotLine", dotLine, "...", true},
		{"dotLine", dotLine, "...and more", false},
		{"pytestVerbose", func(l string) bool { _, ok := pytestVerbose(l); return ok }, "tests/test_a.py::test_x[1] PASSED [ 10%]", true},
		{"pytestVerbose", func(l string) bool { _, ok := pytestVerbose(l); return ok }, "test tests::ratio_by_zero ... FAILED", false},
	} {
		if got := c.f(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

func TestNPMBanner(t *testing.T) {
	d := newDoc(lines("", "> slugger@1.0.0 test", "> node --test", "", "> not a banner"))
	for i, want := range []bool{false, true, true, false, false} {
		if got := npmBanner(d, i); got != want {
			t.Errorf("npmBanner(line %d) = %v, want %v", i, got, want)
		}
	}
}

func TestCompilerNotesCapped(t *testing.T) {
	ls := []string{"a.cpp:3:5: error: no match for 'operator<<'"}
	for i := 0; i < 20; i++ {
		ls = append(ls, fmt.Sprintf("/usr/include/c++/12/ostream:%d:7: note: candidate: 'operator<<(int %d)'", 100+i, i),
			fmt.Sprintf("  %d |     operator<<(int);", 100+i), "      |     ^~~~~~~~")
	}
	ls = append(ls, "1 error")
	res, ok := With("compiler", lines(ls...), DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	if !strings.Contains(res.Text, "ostream:103:7: note") || strings.Contains(res.Text, "ostream:104:7: note") || !strings.Contains(res.Text, "\n1 error") {
		t.Errorf("want the first %d notes and the count only:\n%s", maxNotes, res.Text)
	}
}

func FuzzJUnit(f *testing.F) {
	fuzzWith(f, "junit",
		lines(append(append([]string{`<testsuites>`, `<testsuite name="s" failures="1">`}, repeat(20, func(int) string { return `<testcase name="a"/>` })...),
			`<testcase name="b">`, `<failure message="x">at f (a.js:1:2)`, `</failure>`, `</testcase>`, `</testsuite>`, `<!-- fail 1 -->`, `</testsuites>`)...),
		lines(`<testsuite>`, `<testcase name="a">`, `<testcase name="b"/>`, `<error/>`, `</testsuite>`))
}

func TestStampAfterProgramName(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // the message after the stamp
	}{
		{"update-alternatives 2025-06-24 14:36:53: link group pager updated", "link group pager updated"},
		{"2025-06-24 14:36:53 status installed x", "status installed x"},
		{"-rw-r--r-- 1 root root 496 Apr 27  2026 Mcrt1.o", "-rw-r--r-- 1 root root 496 Apr 27  2026 Mcrt1.o"},
		{"two words 2025-06-24 14:36:53 x", "two words 2025-06-24 14:36:53 x"},
		{"name", "name"},
	} {
		if got := logMessage(c.in); got != c.want {
			t.Errorf("logMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
