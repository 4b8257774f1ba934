package reduce

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillopt/skillopt/archive"
)

// Properties every reduction keeps, whatever the input: it is smaller,
// it contains every evidence string of its reducer, it is valid UTF-8 when
// the input is, and the complete returned text carries a handle, so the
// rules never reduce it a second time.
func checkReduction(t *testing.T, name, text string, res Result) {
	t.Helper()
	if len(res.Text) >= len(text) {
		t.Fatalf("%s: reduction not smaller (%d → %d)", name, len(text), len(res.Text))
	}
	if miss := Missing(Evidence(res.Reducer, text, DefaultOptions()), res.Text); len(miss) > 0 {
		t.Fatalf("%s: evidence lost: %q", name, miss[0])
	}
	if utf8.ValidString(text) && !utf8.ValidString(res.Text) {
		t.Fatalf("%s: valid UTF-8 became invalid", name)
	}
	h := archive.HandleOf([]byte(text))
	out := res.Text + "\n" + SmartLabel(res.Reducer, res.Lines, len(text), h)
	if got := archive.FindHandles(out); len(got) == 0 || got[len(got)-1] != h {
		t.Fatalf("%s: the label's handle is not found in the returned text", name)
	}
	if ReducerOf(out) != res.Reducer {
		t.Fatalf("%s: label names %q, want %q", name, ReducerOf(out), res.Reducer)
	}
}

func fuzzWith(f *testing.F, name string, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<20 {
			return
		}
		if res, ok := With(name, text, DefaultOptions()); ok {
			checkReduction(t, name, text, res)
		}
	})
}

// FuzzSmart: the whole cascade (detection, format reducer, generic
// fallback) on arbitrary text.
func FuzzSmart(f *testing.F) {
	f.Add("error: x\n" + strings.Repeat("noise\n", 200))
	f.Add(strings.Repeat("a\r\n", 300) + "panic: boom\r\n\tmain.go:3 +0x1\r\n")
	f.Add(strings.Repeat("é", 3000) + "\n" + strings.Repeat("line\n", 100))
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<20 {
			return
		}
		if res, ok := Reduce(text, DefaultOptions()); ok {
			checkReduction(t, "smart", text, res)
		}
	})
}

func FuzzGoTest(f *testing.F) {
	fuzzWith(f, "go-test",
		"=== RUN   TestA\n    a_test.go:3: log\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:9: got 1, want 2\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\tpkg\t0.1s\n",
		strings.Repeat("=== RUN   TestX\n--- PASS: TestX (0.00s)\n", 40)+"PASS\nok  \tpkg\t0.1s\n")
}

func FuzzPyTest(f *testing.F) {
	fuzzWith(f, "python-test",
		"===== test session starts =====\ncollected 3 items\n\nt.py::test_a PASSED [ 33%]\nt.py::test_b FAILED [ 66%]\n\n===== FAILURES =====\n___ test_b ___\nE   assert 1 == 2\n===== 1 failed, 1 passed in 0.1s =====\n",
		strings.Repeat("test_a (m.C.test_a) ... ok\n", 50)+"test_b (m.C.test_b) ... FAIL\n\n======\nFAIL: test_b (m.C.test_b)\n------\nAssertionError: 1 != 2\n\n------\nRan 51 tests in 0.1s\n\nFAILED (failures=1)\n")
}

func FuzzJSTest(f *testing.F) {
	fuzzWith(f, "js-test",
		"TAP version 13\n"+strings.Repeat("ok 1 - a\n  ---\n  duration_ms: 1\n  ...\n", 30)+"not ok 2 - b\n  ---\n  expected: 1\n  actual: 2\n  ...\n# tests 31\n# fail 1\n",
		"PASS a.test.js\n"+strings.Repeat("  ✓ works (1 ms)\n", 40)+"FAIL b.test.js\n  ● b › fails\n    Expected: 1\nTests: 1 failed, 40 passed, 41 total\n")
}

func FuzzCargo(f *testing.F) {
	fuzzWith(f, "cargo",
		strings.Repeat("   Compiling x v0.1.0\n", 30)+"error[E0308]: mismatched types\n --> src/main.rs:2:5\n  |\n2 | x\n\nerror: could not compile `x`\n",
		"running 40 tests\n"+strings.Repeat("test t ... ok\n", 40)+"test u ... FAILED\n\nfailures:\n\n---- u stdout ----\nthread 'u' panicked at src/lib.rs:1:1:\n  left: 1\n right: 2\n\ntest result: FAILED. 40 passed; 1 failed\n")
}

func FuzzCompiler(f *testing.F) {
	fuzzWith(f, "compiler",
		strings.Repeat("a.c:1:2: warning: unused variable ‘x’ [-Wunused-variable]\n    1 | int x;\n      |     ^\n", 30)+"a.c:9:1: error: expected ‘;’\nmake: *** [Makefile:2: all] Error 1\n",
		"src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n3 const n: number = \"a\";\n        ~\n\nFound 1 error.\n")
}

func FuzzGitLog(f *testing.F) {
	fuzzWith(f, "git-log",
		strings.Repeat("commit 0123456789abcdef0123456789abcdef01234567\nAuthor: A <a@example.test>\nDate:   Mon Jan 1 00:00:00 2024 +0000\n\n    subject line\n\n    body\n\n a.go | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n\n", 10),
		strings.Repeat("0123abc fix the thing\n", 40))
}

func FuzzDiffStat(f *testing.F) {
	fuzzWith(f, "diffstat", strings.Repeat(" dir/file.go | 12 ++++++------\n", 40)+" 40 files changed, 240 insertions(+), 240 deletions(-)\n")
}

func FuzzListing(f *testing.F) {
	fuzzWith(f, "listing", "total 8\n"+strings.Repeat("-rw-r--r-- 1 root root 1234 Jan  1 12:00 file.txt\n", 60)+"ls: cannot access 'x': No such file or directory\n")
}

func FuzzPackages(f *testing.F) {
	fuzzWith(f, "packages",
		"Desired=Unknown/Install/Remove/Purge/Hold\n||/ Name Version Architecture Description\n+++-====\n"+strings.Repeat("ii  pkg  1.0  amd64  a package\n", 60)+"rc  old  0.9  amd64  removed\n",
		"app@1.0.0 /src\n"+strings.Repeat("├── dep@1.2.3\n", 40)+"├── UNMET DEPENDENCY missing@^2.0.0\n")
}

func FuzzLog(f *testing.F) {
	fuzzWith(f, "log", strings.Repeat("2024-05-01T10:00:00Z INFO served\n2024-05-01T10:00:01Z ERROR db refused\n", 60),
		strings.Repeat("May  1 12:00:00 host app[12]: warning: retry\n", 40))
}

// FuzzColumnar: a conversion decodes back to exactly the original, keeps
// every evidence token verbatim, is smaller, and is never converted again.
func FuzzColumnar(f *testing.F) {
	f.Add(`[{"a": 1, "b": "x"}, {"b": "error: y", "a": -0}, {"a": 1e400, "c": null}]`)
	f.Add(`[{"k": "\ud83d\ude80", "n": 12345678901234567890}, {"k": "\u00e9", "n": 1.50}]`)
	f.Add(`[{"a":{"b":[1,{"c":2}]}}, {"a":[]}, {"a":"s"}]`)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<20 {
			return
		}
		out, ok := Columnar(text, "sko:h")
		if !ok {
			return
		}
		if len(out) >= len(text) {
			t.Fatalf("not smaller: %d → %d", len(text), len(out))
		}
		back, err := DecodeColumnar(out)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, out)
		}
		if eq, err := EqualJSON(text, back); err != nil || !eq {
			t.Fatalf("round trip differs (%v):\n%s\n%s", err, text, back)
		}
		if miss := MissingTokens(ColumnarEvidence(text), out); len(miss) > 0 {
			t.Fatalf("evidence lost: %q", miss)
		}
		if _, again := Columnar(out, "sko:h"); again {
			t.Fatal("columnar form converted again")
		}
	})
}

// FuzzSanitize: the sanitizer stays within its budget, keeps valid UTF-8
// valid and is idempotent.
func FuzzSanitize(f *testing.F) {
	f.Add("a\n```tool_use\nx\n```\n{\"jsonrpc\":1}\nb\n", 50)
	f.Add("```go\ncode\n```\n{\"type\":1}\n", 0)
	f.Add(strings.Repeat("ü", 300), 120)
	f.Fuzz(func(t *testing.T, text string, max int) {
		if len(text) > 1<<20 || max < 0 || max > 1<<20 {
			return
		}
		o := SanitizeOptions{StripTraces: true, MaxChars: max}
		res := Sanitize(text, o)
		if max > 0 && utf8.RuneCountInString(res.Text) > max {
			t.Fatalf("%d chars over the %d budget", utf8.RuneCountInString(res.Text), max)
		}
		if utf8.ValidString(text) && !utf8.ValidString(res.Text) {
			t.Fatal("valid UTF-8 became invalid")
		}
		if again := Sanitize(res.Text, o); again.Text != res.Text {
			t.Fatalf("second pass changed the text:\n%q\n%q", res.Text, again.Text)
		}
	})
}
