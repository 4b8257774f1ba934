package reduce

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func repeat(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// TestCorpusEvidence: every output of the committed corpus keeps every
// string of its evidence list and every evidence string of its reducer,
// and the reducer is the one expected for the format.
func TestCorpusEvidence(t *testing.T) {
	want := map[string]string{
		"go-test-verbose-fail.txt": "go-test", "go-test-verbose-pass.txt": "go-test", "go-test-verbose-logs-pass.txt": "go-test",
		"python-unittest-fail.txt": "python-test", "node-test-tap-fail.txt": "js-test", "node-test-spec-fail.txt": "js-test",
		"cargo-test-fail.txt": "cargo", "gcc-make-errors.txt": "compiler", "git-log-stat.txt": "git-log", "git-diff-stat.txt": "diffstat",
		"ls-la-usr-bin.txt": "listing", "ls-lR-share-doc.txt": "listing", "dpkg-l.txt": "packages", "npm-ls-all.txt": "packages",
		"pip-list.txt": "packages", "log-dpkg.txt": "log",
	}
	checkCorpus(t, corpusDir, want)
}

// TestHeldoutEvidence: the same promises on the held-out set.
func TestHeldoutEvidence(t *testing.T) {
	want := map[string]string{
		"go-test-json-fail.json": "go-test-json", "pytest-verbose-fail.txt": "python-test", "cargo-test-panics.txt": "cargo",
		"cargo-clippy.txt": "cargo", "npm-test-dot.txt": "js-test", "git-log-patch.txt": "git-log", "ls-l-lib.txt": "listing",
		"python-logging.txt": "log",
	}
	checkCorpus(t, heldoutDir, want)
}

// checkCorpus reduces every output of dir: the reducer is the one want
// names for it (when it names one), and every evidence string of that
// reducer and of the output's evidence list is kept.
func checkCorpus(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	for name, text := range corpusOf(t, dir) {
		if strings.HasSuffix(name, ".json") && want[name] == "" {
			continue
		}
		res, ok := Reduce(text, DefaultOptions())
		if r, listed := want[name]; listed && (!ok || res.Reducer != r) {
			t.Errorf("%s: reducer %q (ok %v), want %q", name, res.Reducer, ok, r)
		}
		if !ok {
			continue
		}
		if miss := Missing(Evidence(res.Reducer, text, DefaultOptions()), res.Text); len(miss) > 0 {
			t.Errorf("%s: %d evidence strings of %s lost, first %q", name, len(miss), res.Reducer, miss[0])
		}
		ev, _ := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".evidence"))
		for _, l := range strings.Split(string(ev), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") && !strings.Contains(res.Text, l) {
				t.Errorf("%s: listed evidence %q lost", name, l)
			}
		}
		if !utf8.ValidString(res.Text) {
			t.Errorf("%s: reduction is not valid UTF-8", name)
		}
	}
}

func TestGoTestVerbosePassingWithFileRefs(t *testing.T) {
	// Every log line of a passing verbose run has file:line; it must
	// still reduce, keeping the verdicts.
	var ls []string
	for i := 0; i < 60; i++ {
		ls = append(ls, fmt.Sprintf("=== RUN   TestCase%02d", i), fmt.Sprintf("    case_test.go:%d: checked value %d", 10+i, i*i),
			fmt.Sprintf("--- PASS: TestCase%02d (0.00s)", i))
	}
	ls = append(ls, "PASS", "ok  \texample.test/pkg\t0.012s")
	text := lines(ls...)
	res, ok := With("go-test", text, DefaultOptions())
	if !ok || len(res.Text) > len(text)/10 {
		t.Fatalf("passing verbose run not reduced: ok %v, %d → %d bytes", ok, len(text), len(res.Text))
	}
	for _, want := range []string{"PASS\n", "ok  \texample.test/pkg\t0.012s", "60 passed"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("missing %q in\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "checked value") {
		t.Error("logs of passing tests kept")
	}
}

func TestGoTestKeepsFailBlocks(t *testing.T) {
	text := lines(append(repeat(50, func(i int) string { return fmt.Sprintf("=== RUN   TestOk%d\n--- PASS: TestOk%d (0.00s)", i, i) }),
		"=== RUN   TestBad",
		"=== RUN   TestBad/sub",
		"    bad_test.go:12: got 3, want 4",
		"    bad_test.go:13: some context line without keywords",
		"--- FAIL: TestBad (0.00s)",
		"    --- FAIL: TestBad/sub (0.00s)",
		"panic: boom [recovered]",
		"goroutine 7 [running]:",
		"main.explode()",
		"\t/src/bad.go:40 +0x1d",
		"exit status 2",
		"FAIL\texample.test/pkg\t0.020s")...)
	res, ok := Reduce(text, DefaultOptions())
	if !ok || res.Reducer != "go-test" {
		t.Fatalf("reducer %q ok %v", res.Reducer, ok)
	}
	for _, want := range []string{"bad_test.go:13: some context line without keywords", "--- FAIL: TestBad/sub", "panic: boom", "main.explode()", "\t/src/bad.go:40 +0x1d", "exit status 2", "FAIL\texample.test/pkg"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
}

func TestPyTest(t *testing.T) {
	text := lines(append(append([]string{
		"============================= test session starts ==============================",
		"platform linux -- Python 3.11.7, pytest-8.0.0",
		"rootdir: /src",
		"collected 103 items",
		""},
		repeat(100, func(i int) string {
			return fmt.Sprintf("tests/test_a.py::test_ok_%03d PASSED                     [ %2d%%]", i, i%100)
		})...),
		"tests/test_a.py::test_bad FAILED                          [ 99%]",
		"tests/test_a.py::test_skip SKIPPED (no db)                [100%]",
		"",
		"=================================== FAILURES ===================================",
		"___________________________________ test_bad ___________________________________",
		"",
		"    def test_bad():",
		">       assert add(1, 2) == 4",
		"E       assert 3 == 4",
		"",
		"tests/test_a.py:9: AssertionError",
		"----------------------------- Captured stdout call -----------------------------",
		"noise line 1 with enough text to be worth eliding from the output",
		"noise line 2 with enough text to be worth eliding from the output",
		"noise line 3 with enough text to be worth eliding from the output",
		"noise line 4 with enough text to be worth eliding from the output",
		"connecting failed: timeout",
		"=========================== short test summary info ============================",
		"FAILED tests/test_a.py::test_bad - assert 3 == 4",
		"=================== 1 failed, 101 passed, 1 skipped in 0.12s ===================")...)
	res, ok := Reduce(text, DefaultOptions())
	if !ok || res.Reducer != "python-test" {
		t.Fatalf("reducer %q ok %v", res.Reducer, ok)
	}
	for _, want := range []string{"test_bad FAILED", "    def test_bad():", ">       assert add(1, 2) == 4", "E       assert 3 == 4", "tests/test_a.py:9: AssertionError",
		"connecting failed: timeout", "FAILED tests/test_a.py::test_bad - assert 3 == 4", "1 failed, 101 passed, 1 skipped in 0.12s", "101 passed"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "test_ok_050") || strings.Contains(res.Text, "noise line 1") {
		t.Errorf("noise kept:\n%s", res.Text)
	}
}

func TestJest(t *testing.T) {
	text := lines(append(append([]string{"PASS src/a.test.js"}, repeat(60, func(i int) string { return fmt.Sprintf("  ✓ adds %d (3 ms)", i) })...),
		"FAIL src/b.test.js",
		"  ✕ divides (5 ms)",
		"  ● math › divides",
		"    expect(received).toBe(expected) // Object.is equality",
		"    Expected: 2",
		"    Received: 3",
		"      at Object.<anonymous> (src/b.test.js:4:17)",
		"Tests:       1 failed, 60 passed, 61 total",
		"Test Suites: 1 failed, 1 passed, 2 total")...)
	res, ok := Reduce(text, DefaultOptions())
	if !ok || res.Reducer != "js-test" {
		t.Fatalf("reducer %q ok %v", res.Reducer, ok)
	}
	for _, want := range []string{"FAIL src/b.test.js", "✕ divides", "Expected: 2", "Received: 3", "src/b.test.js:4:17", "Tests:       1 failed, 60 passed, 61 total"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("lost %q:\n%s", want, res.Text)
		}
	}
}

func TestTSCAndCargoBuild(t *testing.T) {
	// tsc --pretty: header, blank line, code frame.
	tsc := lines(append(repeat(40, func(i int) string {
		return fmt.Sprintf("src/file%d.ts:%d:5 - warning TS6133: 'x%d' is declared but its value is never read.\n\n%d const x%d = compute(%d);\n        ~~\n", i, i+1, i, i+1, i, i)
	}), "src/main.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.", "", "3 const n: number = \"a\";", "        ~", "", "Found 41 errors in 41 files.")...)
	res, ok := Reduce(tsc, DefaultOptions())
	if !ok || res.Reducer != "compiler" {
		t.Fatalf("tsc: reducer %q ok %v", res.Reducer, ok)
	}
	if miss := Missing(Evidence("compiler", tsc, DefaultOptions()), res.Text); len(miss) > 0 || !strings.Contains(res.Text, "3 const n: number = \"a\";") {
		t.Errorf("tsc: lost %v\n%s", miss, res.Text)
	}
	if strings.Contains(res.Text, "const x7 = compute(7)") {
		t.Errorf("tsc: warning excerpt kept\n%s", res.Text)
	}
	cargo := lines(append(repeat(80, func(i int) string { return fmt.Sprintf("   Compiling dep%d v0.1.%d", i, i) }),
		"error[E0308]: mismatched types", "  --> src/main.rs:4:18", "   |", "4  |     let x: u8 = \"a\";", "   |                 ^^^ expected `u8`, found `&str`", "",
		"error: could not compile `app` (bin \"app\") due to 1 previous error")...)
	res, ok = Reduce(cargo, DefaultOptions())
	if !ok || res.Reducer != "cargo" || !strings.Contains(res.Text, "4  |     let x: u8 = \"a\";") || strings.Contains(res.Text, "Compiling dep40") {
		t.Fatalf("cargo: reducer %q ok %v\n%s", res.Reducer, ok, res.Text)
	}
}

func TestLogRepeats(t *testing.T) {
	var ls []string
	for i := 0; i < 500; i++ {
		ls = append(ls, fmt.Sprintf("2025-01-02T10:%02d:%02d.123Z INFO request %d served", i/60%60, i%60, i))
		if i%50 == 0 {
			ls = append(ls, fmt.Sprintf("2025-01-02T10:%02d:%02d.500Z ERROR db: connection refused", i/60%60, i%60))
		}
	}
	ls = append(ls, "2025-01-02T11:00:00.000Z WARN disk 91% full")
	text := lines(ls...)
	res, ok := Reduce(text, DefaultOptions())
	if !ok || res.Reducer != "log" {
		t.Fatalf("reducer %q ok %v", res.Reducer, ok)
	}
	if strings.Count(res.Text, "ERROR db: connection refused") != 1 || !strings.Contains(res.Text, "WARN disk 91% full") {
		t.Errorf("log evidence wrong:\n%s", res.Text)
	}
	ev := Evidence("log", text, DefaultOptions())
	if len(ev) != 2 || ev[0] != "ERROR db: connection refused" {
		t.Errorf("evidence %q", ev)
	}
}

func TestGenericKeepsLineEndingsAndMarkers(t *testing.T) {
	ls := repeat(300, func(i int) string { return fmt.Sprintf("row %03d of plain data with nothing special", i) })
	ls[150] = "fatal: could not read object 7f3a"
	text := strings.Join(ls, "\r\n") + "\r\n"
	res, ok := With("generic", text, DefaultOptions())
	if !ok {
		t.Fatal("not reduced")
	}
	if strings.Contains(strings.ReplaceAll(res.Text, "\r\n", ""), "\n") {
		t.Error("a line lost its CRLF ending")
	}
	for _, want := range []string{"fatal: could not read object 7f3a\r\n", "row 149 of plain data", "[… 142 lines elided (7-148) …]\r\n", "row 000", "row 299"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("missing %q:\n%s", want, res.Text)
		}
	}
}

func TestRepeatsAndLongLines(t *testing.T) {
	var ls []string
	ls = append(ls, repeat(5, func(int) string { return "same line" })...)
	long := strings.Repeat("é", 3000) // 6,000 bytes of 2-byte characters
	ls = append(ls, long)
	ls = append(ls, repeat(200, func(i int) string { return fmt.Sprintf("filler %d", i) })...)
	res, ok := With("generic", lines(ls...), Options{HeadLines: 10, TailLines: 2, MaxLineBytes: 1001})
	if !ok {
		t.Fatal("not reduced")
	}
	if !strings.Contains(res.Text, "same line\n[… previous line repeated 4 more times …]\n") {
		t.Errorf("repeats not collapsed:\n%s", res.Text)
	}
	if !utf8.ValidString(res.Text) || !strings.Contains(res.Text, " bytes elided …] ") {
		t.Errorf("long line not cut on a character boundary")
	}
}

func TestDetectDeclines(t *testing.T) {
	for name, text := range map[string]string{
		"prose":  lines(repeat(100, func(i int) string { return fmt.Sprintf("Paragraph %d talks about nothing in particular.", i) })...),
		"source": lines(repeat(100, func(i int) string { return fmt.Sprintf("func f%d() int { return %d }", i, i) })...),
	} {
		if got := Detect(text); got != "generic" {
			t.Errorf("%s detected as %s", name, got)
		}
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		line string
		want int
	}{
		{"error: something broke", flagError},
		{"TestErrorHandling passed quietly", 0},
		{"main.go:12:3: undefined: x", flagError | flagFileRef},
		{`  File "/x/y.py", line 3, in f`, flagFrame},
		{"    at Object.<anonymous> (src/a.js:1:2)", flagFrame | flagFileRef},
		{"exit status 2", flagExit},
		{"=== 3 passed, 1 failed in 0.2s ===", flagSummary | flagError},
		{"got 3, want 4", flagExpect},
		{"Expected: 2", flagExpect},
		{"no such file or directory", flagError},
		{"just a line", 0},
		{"visit example.com:8080 now", flagFileRef},
	}
	for _, c := range cases {
		if got := classify(c.line); got != c.want {
			t.Errorf("classify(%q) = %b, want %b", c.line, got, c.want)
		}
	}
}

func TestSmartThresholdsAndLabel(t *testing.T) {
	text := lines(repeat(400, func(i int) string { return fmt.Sprintf("line %d of an ordinary listing", i) })...)
	h := "sko:" + strings.Repeat("A", 42) + "E"
	out, res, ok := Smart(text, DefaultOptions(), Thresholds{MinSavedBytes: 100, MinSavedRatio: 0.5}, h)
	if !ok || !strings.HasSuffix(out, SmartLabel(res.Reducer, 400, len(text), h)) || ReducerOf(out) != "generic" {
		t.Fatalf("smart: ok %v\n%s", ok, out)
	}
	if StripSmartLabel(out) != strings.TrimSuffix(out, "\n"+SmartLabel(res.Reducer, 400, len(text), h)) {
		t.Error("StripSmartLabel")
	}
	if _, _, ok := Smart(text, DefaultOptions(), Thresholds{MinSavedRatio: 0.999}, h); ok {
		t.Error("a ratio threshold of 99.9 % was cleared")
	}
	if _, _, ok := Smart(text, DefaultOptions(), Thresholds{MinSavedBytes: len(text)}, h); ok {
		t.Error("an absolute threshold of the whole size was cleared")
	}
}

func TestOverflowText(t *testing.T) {
	text := strings.Repeat("ü", 5000) + "MIDDLE" + strings.Repeat("ß", 5000)
	out := OverflowText("codebase-retrieval", len(text), 1000, "sko:h", text, 100, 50)
	if !IsOverflow(out) || !strings.Contains(out, "[… 9856 characters not shown …]") || strings.Contains(out, "MIDDLE") || !utf8.ValidString(out) {
		t.Errorf("overflow text:\n%s", out)
	}
	if IsOverflow(RefineText("x", 1, 2)) == false {
		t.Error("refine text not recognised")
	}
}
