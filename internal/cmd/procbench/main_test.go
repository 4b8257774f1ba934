package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// childEnv switches the re-executed test binary into a tiny child process.
const childEnv = "PROCBENCH_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "ok":
		os.Exit(0)
	case "fail":
		os.Exit(3)
	case "alloc":
		// Touch 64 MiB so the peak RSS is clearly visible.
		b := make([]byte, 64<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		os.Exit(int(b[len(b)-4096]) - 1)
	}
	os.Exit(4)
}

func TestParseArgs(t *testing.T) {
	good := []struct {
		args []string
		want options
	}{
		{[]string{"--", "/bin/echo", "hi"}, options{runs: 15, warmup: 3, name: "echo", command: []string{"/bin/echo", "hi"}}},
		{[]string{"-runs", "5", "-warmup", "0", "-name", "x", "--", "cmd", "-runs", "9"}, options{runs: 5, warmup: 0, name: "x", command: []string{"cmd", "-runs", "9"}}},
		{[]string{"-compare", "r.jsonl"}, options{runs: 15, warmup: 3, compare: "r.jsonl"}},
	}
	for _, g := range good {
		var stderr bytes.Buffer
		o, err := parseArgs(g.args, &stderr)
		if err != nil {
			t.Errorf("%v: %v", g.args, err)
			continue
		}
		if o.runs != g.want.runs || o.warmup != g.want.warmup || o.name != g.want.name || o.compare != g.want.compare ||
			strings.Join(o.command, "\x00") != strings.Join(g.want.command, "\x00") {
			t.Errorf("%v: got %+v, want %+v", g.args, o, g.want)
		}
	}
	for _, args := range [][]string{
		{},
		{"-runs", "3"},
		{"-runs", "0", "--", "x"},
		{"-warmup", "-1", "--", "x"},
		{"-runs", "many", "--", "x"},
		{"-compare", "f.jsonl", "--", "x"},
		{"-bogus", "--", "x"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

func TestBenchChild(t *testing.T) {
	t.Setenv(childEnv, "alloc")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-runs", "3", "-warmup", "1", "-name", "child", "--", os.Args[0]}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.HasSuffix(out, "}\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("want one JSON line, got %q", out)
	}
	var keys map[string]any
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "runs", "median_ms", "min_ms", "peak_rss_kib"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("missing key %s in %s", k, out)
		}
	}
	var r Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "child" || r.Runs != 3 || r.MinMS <= 0 || r.MinMS > r.MedianMS {
		t.Errorf("unexpected result %+v", r)
	}
	if runtime.GOOS == "linux" && r.PeakRSSKiB < 64<<10 {
		t.Errorf("peak RSS %d KiB, want at least 64 MiB", r.PeakRSSKiB)
	}
	t.Logf("%s", strings.TrimSpace(out))
}

func TestBenchFailure(t *testing.T) {
	t.Setenv(childEnv, "fail")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-runs", "2", "-warmup", "0", "-name", "broken", "--", os.Args[0]}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if msg := stderr.String(); !strings.Contains(msg, "broken") || !strings.Contains(msg, os.Args[0]) || !strings.Contains(msg, "exit status 3") {
		t.Errorf("message does not name the command: %q", msg)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q", stdout.String())
	}
	code = run([]string{"-runs", "1", "--", filepath.Join(t.TempDir(), "missing")}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("missing command: exit %d, want 1", code)
	}
}

func TestBenchTrue(t *testing.T) {
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("/bin/true not present")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-runs", "5", "-warmup", "1", "--", "/bin/true"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r Result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "true" || r.Runs != 5 {
		t.Errorf("unexpected result %+v", r)
	}
}

func TestMedian(t *testing.T) {
	ms := time.Millisecond
	if got := median([]time.Duration{1 * ms, 2 * ms, 9 * ms}); got != 2*ms {
		t.Errorf("odd: %v", got)
	}
	if got := median([]time.Duration{1 * ms, 2 * ms, 4 * ms, 9 * ms}); got != 3*ms {
		t.Errorf("even: %v", got)
	}
	if got := millis(1234567 * time.Nanosecond); got != 1.235 {
		t.Errorf("millis: %v", got)
	}
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "r.jsonl")
	lines := `{"name":"baseline","runs":15,"median_ms":10,"min_ms":9.5,"peak_rss_kib":8000}

{"name":"skillopt","runs":15,"median_ms":25,"min_ms":24,"peak_rss_kib":20000}
{"name":"other","runs":3,"median_ms":5,"min_ms":4.25,"peak_rss_kib":4000}
`
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-compare", file}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := stdout.String()
	t.Logf("\n%s", got)
	rows := strings.Split(strings.TrimSpace(got), "\n")
	if len(rows) != 4 || !strings.Contains(rows[0], "median_vs_baseline") {
		t.Fatalf("unexpected table:\n%s", got)
	}
	for i, want := range [][]string{
		{"baseline", "10.000", "9.500", "8000", "1.00x", "1.00x"},
		{"skillopt", "25.000", "24.000", "20000", "2.50x", "2.50x"},
		{"other", "5.000", "4.250", "4000", "0.50x", "0.50x"},
	} {
		f := strings.Fields(rows[i+1])
		if len(f) != 7 || f[0] != want[0] || strings.Join(f[2:], " ") != strings.Join(want[1:], " ") {
			t.Errorf("row %d = %q, want fields %v", i+1, rows[i+1], want)
		}
	}

	for name, content := range map[string]string{
		"nobase.jsonl": `{"name":"a","runs":1,"median_ms":1,"min_ms":1,"peak_rss_kib":1}`,
		"bad.jsonl":    `{"name":"baseline","runs":1,"median_ms":1,"min_ms":1,"peak_rss_kib":1}` + "\nnot json\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"-compare", p}, &stdout, &stderr); code != 1 || stderr.Len() == 0 {
			t.Errorf("%s: exit %d, stderr %q", name, code, stderr.String())
		}
	}
	if code := run([]string{"-compare", filepath.Join(dir, "absent.jsonl")}, &stdout, &stderr); code != 1 {
		t.Errorf("absent file: exit %d", code)
	}
}
