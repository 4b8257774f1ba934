package outputbench

import (
	"slices"
	"strings"
	"testing"
)

func TestParseEvidence(t *testing.T) {
	got := ParseEvidence([]byte("# what must survive\nFAIL: TestX\r\n\n   \n#not a comment? yes it is\n  indented stays\nlast"))
	want := []string{"FAIL: TestX", "  indented stays", "last"}
	if got := ParseEvidence([]byte("a\r\r\nb\r")); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("carriage returns kept: %q", got)
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzParseEvidence(f *testing.F) {
	f.Add([]byte("# comment\nline one\r\n\nline two"))
	f.Add([]byte("\r\n\r\n#\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range ParseEvidence(data) {
			if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") || strings.ContainsAny(s, "\n") || strings.HasSuffix(s, "\r") {
				t.Fatalf("kept %q", s)
			}
			if !strings.Contains(string(data), s) {
				t.Fatalf("%q is not in the input", s)
			}
		}
	})
}

func TestWriteTextAlignsNames(t *testing.T) {
	rows := []Row{
		{File: "go-test-verbose-fail.txt", BytesBefore: 814730, BytesAfter: 12001, SavedPct: 98.5, Reducer: "go-test", Evidence: 3, EvidenceKept: 3, Recovery: "exact"},
		{File: "a.txt", BytesBefore: 12, BytesAfter: 12, Reducer: "none", Recovery: "n/a", Evidence: 1},
	}
	var b strings.Builder
	if err := WriteText(&b, rows, Sum(rows), func(s string) string { return "!" + s }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[1], "go-test-verbose-fail.txt  814,730") {
		t.Errorf("row 1: %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "a.txt                          12") {
		t.Errorf("row 2 not left-aligned: %q", lines[2])
	}
	if !strings.Contains(b.String(), "814,742 → 12,013 bytes") {
		t.Errorf("totals without separators:\n%s", b.String())
	}
	if !strings.Contains(lines[2], "!0/1") {
		t.Errorf("lost evidence not marked: %q", lines[2])
	}
}
