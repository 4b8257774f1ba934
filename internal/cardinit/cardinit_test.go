package cardinit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"skills/a-b_c.d": "skills/a-b_c.d",
		"":               "''",
		"a b":            "'a b'",
		"it's":           `'it'\''s'`,
		"$HOME":          "'$HOME'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOutcomeText(t *testing.T) {
	long := strings.Repeat("é", 500)
	for _, tc := range []struct {
		o    catalog.AnswerOutcome
		want string
	}{
		{catalog.AnswerOutcome{Accepted: true}, "accepted"},
		{catalog.AnswerOutcome{Group: "g1", Problems: []string{"a", "b"}, Next: "retry", SetAside: "r.json"},
			"rejected: a; b; answer kept as r.json; a retry request with this feedback is in " + filepath.Join("w", "requests", "g1.json")},
		{catalog.AnswerOutcome{Problems: []string{"x"}, Next: "split"}, "rejected: x; split into two smaller requests in " + filepath.Join("w", "requests")},
		{catalog.AnswerOutcome{Problems: []string{"x"}, Next: "failed"}, "rejected: x; no more attempts for this group"},
		{catalog.AnswerOutcome{Problems: []string{"empty"}, Next: "resend"}, "not answered: empty; the request is unchanged, to be sent again"},
		{catalog.AnswerOutcome{Problems: []string{long}, Next: "failed"}, "rejected: " + strings.Repeat("é", 397) + "...; no more attempts for this group"},
	} {
		if got := outcomeText(tc.o, "w"); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}

// TestRunPrepares: without answers a run writes one request per group
// and says where they are and what to run next; a second run finds them
// unanswered.
func TestRunPrepares(t *testing.T) {
	dir := t.TempDir()
	snap := catalog.NewSnapshot([]catalog.Skill{
		{Name: "pdf", Description: "Fill PDF forms and merge PDF files."},
		{Name: "release-notes", Description: "Write release notes from the commits since the last tag."},
	}, catalog.Options{})
	var stdout, stderr bytes.Buffer
	o := Options{Dir: filepath.Join(dir, "work"), Again: "skillopt catalog init --responses work", Stdout: &stdout, Stderr: &stderr,
		SetProfile: func(string, string) error { t.Fatal("no cards: the configuration is not edited"); return nil }}
	in, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	failed, err := in.Run(snap)
	if err != nil || failed {
		t.Fatalf("failed %v, %v", failed, err)
	}
	if want := "1 request in " + filepath.Join(dir, "work", "requests") + "; answer each in " + filepath.Join(dir, "work", "responses") +
		" with the same file name (ID.json), then run:\n  skillopt catalog init --responses work\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if want := "cards: 0/1 groups accepted (0/2 skills), 1 pending, 0 failed\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if reqs, _ := os.ReadDir(filepath.Join(dir, "work", "requests")); len(reqs) != 1 {
		t.Errorf("%d requests written", len(reqs))
	}
	stdout.Reset()
	o.Absorb = true
	if in, err = New(o); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Run(snap); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "0 groups accepted, 0 rejected\nno answers in "+filepath.Join(dir, "work", "responses")) {
		t.Errorf("absorb without answers: %q", stdout.String())
	}
}
