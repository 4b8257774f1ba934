package reduce

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
)

func keepOK(string) error { return nil }

func TestCheckExtract(t *testing.T) {
	noise := strings.Repeat("compiling module\n", 200)
	orig := "building\n" + noise + "main.go:12:3: undefined: frob\n" + noise + "FAIL\texample.com/m\n"
	th := Thresholds{MinSavedBytes: 1024, MinSavedRatio: 0.25}
	h := archive.HandleOfString(orig)
	cases := []struct {
		name      string
		candidate string
		th        Thresholds
		keep      func(string) error
		refused   string
		line      int
		missing   int
	}{
		{"accepted", "building\nmain.go:12:3: undefined: frob\nFAIL\texample.com/m\n", th, keepOK, "", 0, 0},
		{"accepted without final newline", "main.go:12:3: undefined: frob\nFAIL\texample.com/m", th, keepOK, "", 0, 0},
		{"accepted with CRLF", "main.go:12:3: undefined: frob\r\nFAIL\texample.com/m\r\n", th, keepOK, "", 0, 0},
		{"out of order", "FAIL\texample.com/m\nmain.go:12:3: undefined: frob\n", th, keepOK, GuardSubsequence, 2, 0},
		{"not verbatim", "building\nmain.go:12: undefined: frob\nFAIL\texample.com/m\n", th, keepOK, GuardSubsequence, 2, 0},
		{"invented line", "the build failed\n", th, keepOK, GuardSubsequence, 1, 0},
		{"evidence missing", "building\nFAIL\texample.com/m\n", th, keepOK, GuardEvidence, 0, 1},
		{"empty", "", th, keepOK, GuardEvidence, 0, 2},
		{"saves too little", "main.go:12:3: undefined: frob\nFAIL\texample.com/m\n", Thresholds{MinSavedBytes: len(orig)}, keepOK, GuardSavings, 0, 0},
		{"ratio not cleared", "main.go:12:3: undefined: frob\n" + noise + "FAIL\texample.com/m\n", Thresholds{MinSavedRatio: 0.6}, keepOK, GuardSavings, 0, 0},
		{"archive fails", "main.go:12:3: undefined: frob\nFAIL\texample.com/m\n", th, func(string) error { return errors.New("disk full") }, GuardArchive, 0, 0},
		{"no archive", "main.go:12:3: undefined: frob\nFAIL\texample.com/m\n", th, nil, GuardArchive, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := CheckExtract(orig, c.candidate, h, DefaultOptions(), c.th, c.keep)
			if v.Accepted != (c.refused == "") || v.Refused != c.refused {
				t.Fatalf("accepted %v, refused %q; want refused %q", v.Accepted, v.Refused, c.refused)
			}
			if v.Line != c.line || len(v.Missing) != c.missing {
				t.Fatalf("line %d, missing %v; want line %d, %d missing", v.Line, v.Missing, c.line, c.missing)
			}
			if v.Accepted {
				if !strings.HasPrefix(v.Text, strings.TrimSuffix(c.candidate, "\n")) || ReducerOf(v.Text) != ExtractReducer {
					t.Fatalf("returned text %q", v.Text)
				}
				if got := archive.FindHandles(v.Text); len(got) != 1 || got[0] != h {
					t.Fatalf("handles %v, want %s", got, h)
				}
				if v.Saved() < v.NeedBytes || v.ReturnedBytes != len(v.Text) {
					t.Fatalf("saved %d, need %d, returned %d of %d", v.Saved(), v.NeedBytes, v.ReturnedBytes, len(v.Text))
				}
			}
		})
	}
	v := CheckExtract(orig, "building\nmain.go:12: undefined: frob\n", h, DefaultOptions(), th, keepOK)
	if v.Matched != 1 || v.LineText != "main.go:12: undefined: frob" {
		t.Errorf("matched %d, line %q", v.Matched, v.LineText)
	}
	v = CheckExtract(orig, "building\n", h, DefaultOptions(), th, keepOK)
	if len(v.Missing) != 2 || v.Missing[0].Line != 202 || v.Missing[0].Text != "main.go:12:3: undefined: frob" {
		t.Errorf("missing %+v", v.Missing)
	}
}

// fuzzOutputs are the real outputs the extraction fuzz starts from: the
// command outputs of testdata/outputs and the tool results of the corpus
// captures.
func fuzzOutputs(f *testing.F) []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			out = append(out, string(data))
		}
	}
	return out
}

// FuzzCheckExtract derives candidate extractions from real outputs (a
// selection of their lines, sometimes reordered, altered or with a line
// that is not in the original) and checks that the guards accept exactly
// the candidates that satisfy every condition, each checked here on its
// own terms.
func FuzzCheckExtract(f *testing.F) {
	for i, text := range fuzzOutputs(f) {
		f.Add(text, []byte{byte(i), 0x5a, 0x0f, 0xf0, 0x33})
	}
	f.Fuzz(func(t *testing.T, original string, sel []byte) {
		if len(original) > 64<<10 || len(sel) == 0 {
			return
		}
		candidate := derive(original, sel)
		th := Thresholds{MinSavedBytes: int(sel[0]) * 4, MinSavedRatio: float64(sel[len(sel)-1]%200) / 256}
		archiveFails := sel[0]%7 == 3
		keep := func(string) error {
			if archiveFails {
				return errors.New("archive refused")
			}
			return nil
		}
		h := archive.HandleOfString(original)
		o := DefaultOptions()
		v := CheckExtract(original, candidate, h, o, th, keep)

		subseq := isSubsequence(scanLines(candidate), scanLines(original))
		name := "generic"
		if res, ok := Reduce(original, o); ok {
			name = res.Reducer
		}
		evidence := true
		for _, e := range Evidence(name, original, o) {
			if !strings.Contains(candidate, e) {
				evidence = false
			}
		}
		ret := candidate
		if ret != "" && !strings.HasSuffix(ret, "\n") {
			ret += "\n"
		}
		ret += SmartLabel(ExtractReducer, len(scanLines(original)), len(original), h)
		saved := len(original) - len(ret)
		savings := saved > 0 && saved >= th.MinSavedBytes && float64(saved) >= th.MinSavedRatio*float64(len(original))
		want := subseq && evidence && savings && !archiveFails
		if v.Accepted != want {
			t.Fatalf("accepted %v (refused %q), want %v: subsequence %v, evidence %v, savings %v, archive fails %v\ncandidate %q",
				v.Accepted, v.Refused, want, subseq, evidence, savings, archiveFails, candidate)
		}
		fails := map[string]bool{GuardSubsequence: !subseq, GuardEvidence: !evidence, GuardSavings: !savings, GuardArchive: archiveFails}
		if !v.Accepted && !fails[v.Refused] {
			t.Fatalf("refused by %q, whose condition holds", v.Refused)
		}
		if v.Accepted && v.Text != ret {
			t.Fatalf("returned %q, want %q", v.Text, ret)
		}
	})
}

// derive makes a candidate from original's lines: sel's bits choose the
// lines, and its bytes sometimes swap two chosen lines, change one or add
// one the original does not have.
func derive(original string, sel []byte) string {
	lines := strings.SplitAfter(original, "\n")
	var out []string
	for i, l := range lines {
		b := sel[(i/8)%len(sel)]
		if b>>(i%8)&1 == 1 && l != "" {
			out = append(out, l)
		}
	}
	switch op := sel[0] % 11; {
	case op == 1 && len(out) >= 2:
		i, j := int(sel[0])%len(out), len(out)-1
		out[i], out[j] = out[j], out[i]
	case op == 2 && len(out) >= 1:
		i := int(sel[len(sel)-1]) % len(out)
		out[i] = "~" + out[i]
	case op == 3:
		out = append(out[:len(out)/2:len(out)/2], append([]string{"a line of my own\n"}, out[len(out)/2:]...)...)
	}
	return strings.Join(out, "")
}

// scanLines splits text into lines: each ends at a newline, which with
// one carriage return before it is not part of the line.
func scanLines(text string) []string {
	var out []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		if t, ok := strings.CutSuffix(l, "\n"); ok {
			l = strings.TrimSuffix(t, "\r")
		}
		out = append(out, l)
	}
	return out
}

// isSubsequence reports whether sub is an ordered subsequence of of, by
// the recurrence over both lengths (kept linear by walking from the end).
func isSubsequence(sub, of []string) bool {
	i := len(sub) - 1
	for j := len(of) - 1; j >= 0 && i >= 0; j-- {
		if sub[i] == of[j] {
			i--
		}
	}
	return i < 0
}
