package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/golden"
)

// goldenDir is absolute: golden tests run in other folders.
var goldenDir, _ = filepath.Abs(filepath.Join("testdata", "golden"))

// corpusCapture returns the path of a capture of the shared corpus,
// skipping the test when the corpus is absent.
func corpusCapture(t *testing.T, name string) string {
	t.Helper()
	p, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1", name))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared corpus capture not present at %s", p)
	}
	return p
}

// runGolden runs skillopt in the capture's folder with the built-in
// configuration and compares its output with testdata/golden/NAME (go test
// ./internal/commands -run Golden -update rewrites it).
func runGolden(t *testing.T, dir, name string, wantCode int, args ...string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "skillopt.toml")
	if err := os.WriteFile(cfg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	goldenPath := filepath.Join(goldenDir, name)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"skillopt", "--config", cfg}, args...), nil, &stdout, &stderr); code != wantCode {
		t.Fatalf("exit %d, want %d: %s", code, wantCode, stderr.String())
	}
	golden.Check(t, goldenPath, stdout.Bytes())
	return stdout.String()
}

// TestDiffGolden: the diff of a real capture and its transform is
// reviewable: every line fits a review pane, the catalog and the tool
// result diff line by line, each change names its rule.
func TestDiffGolden(t *testing.T) {
	p := corpusCapture(t, "pi-anthropic-messages-small-3.json")
	out := runGolden(t, filepath.Dir(p), "diff-pi-anthropic-messages-small-3.txt", 0, "diff", filepath.Base(p))
	longest := 0
	for _, l := range strings.Split(out, "\n") {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	if longest >= 200 {
		t.Errorf("longest diff line has %d characters", longest)
	}
	for _, want := range []string{
		"-        <available_skills>\n",
		"+        <skill_index format=\"tsv\" columns=\"name,intent\">\n",
		" /system/0/text SO101 catalog.compact-index\n",
		"SO101 catalog.compact-index: /system/0/text −6,330 B (9,768 → 3,438 B)\n",
		"SO101 catalog.compact-index: /tools/3 +476 B (added)\n",
		"SO301 output.smart: /tools/4 +298 B (added)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q", want)
		}
	}
	runGolden(t, filepath.Dir(p), "diff-stat-pi-anthropic-messages-small-3.txt", 1, "diff", "--stat", "--exit-code", filepath.Base(p))
}

// TestMeasureGolden: measure on a real capture answers what it costs and
// what to do: savings in bytes and tokens per rule with a reason for each
// rule that saves nothing, share bars; on the folder of real captures one
// row per capture and the total.
func TestMeasureGolden(t *testing.T) {
	p := corpusCapture(t, "pi-anthropic-messages-small-3.json")
	out := runGolden(t, filepath.Dir(p), "measure-pi-anthropic-messages-small-3.txt", 0, "measure", filepath.Base(p))
	for _, want := range []string{
		"  SO101 catalog.compact-index  53,025  →  47,171   5,854 (11.0 %)",
		"  SO201 tools.defer ",
		"  no deferrable tools\n",
		"  after: 18,481 bytes, 3,776 tokens (estimated); cost saved per request at claude-sonnet-4-6's input price, $3.00 per million tokens\n",
		"  total                        53,025  →  18,481  34,544 (65.1 %)         7,208     $0.0216\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("measure lacks %q", want)
		}
	}
	for _, bad := range []string{"counted as 0", "over 9 requests: ", "%dropped"} {
		if strings.Contains(out, bad) {
			t.Errorf("measure still says %q", bad)
		}
	}
	dir := filepath.Dir(filepath.Dir(p))
	table := runGolden(t, dir, "measure-pi-0.73.1.txt", 0, "measure", "pi-0.73.1")
	// A row per capture, the header and the total, and the note on the
	// shared catalog, which wraps over six lines at 100 columns.
	if n := strings.Count(table, "\n"); n > 30 {
		t.Errorf("%d lines for 18 captures", n)
	}
	runGolden(t, dir, "measure-quiet-pi-0.73.1.txt", 0, "measure", "-q", "pi-0.73.1")
}
