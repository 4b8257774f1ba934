package catalogrules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// quarterCounter counts a token per four bytes.
func quarterCounter(texts []string) []int {
	out := make([]int, len(texts))
	for i, t := range texts {
		out[i] = (len(t) + 3) / 4
	}
	return out
}

type quarter struct{}

func (quarter) CountAll(texts []string) []int { return quarterCounter(texts) }

// measureSynth measures a synthetic capture of n skills (the first two
// repeated at the end) with SO101 and SO102.
func measureSynth(t *testing.T, n int) (*measure.CaptureReport, *Report) {
	t.Helper()
	skills := synth.Skills(n, 7)
	skills = append(skills, skills[0], skills[1])
	body, err := synth.Capture("anthropic", skills, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := capture.Read("big.json", body, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := rules.Run(f.Captures[0], []*rules.Rule{CompactIndex, tagDirectory}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cr := measure.Measure(res, measure.Options{Encoding: "test", Counter: quarter{}, Replay: 8})
	if len(cr.Details) != 1 {
		t.Fatalf("details %+v", cr.Details)
	}
	var r Report
	if err := json.Unmarshal(sectionJSON(t, cr.Details[0]), &r); err != nil {
		t.Fatal(err)
	}
	return cr, &r
}

// TestDetailLargeCatalog: on a large catalog the report counts the skills
// as SO101 indexes them and says why the catalog lists more, warns about
// the intents the budget dropped, and proposes the tag directory with its
// measured saving.
func TestDetailLargeCatalog(t *testing.T) {
	cr, r := measureSynth(t, 400)
	if r.Listed != 402 || r.Skills != 400 || r.Repeated != 2 {
		t.Fatalf("listed %d, indexed %d, repeated %d", r.Listed, r.Skills, r.Repeated)
	}
	if text := cr.Details[0].Data.Text(); !strings.Contains(text, "(400 of 402 listed skills indexed: 2 repeated; ") {
		t.Fatalf("text:\n%s", text)
	}
	if r.DroppedIntents == 0 || r.DroppedIntents > r.Intents || r.Intents == 0 {
		t.Fatalf("intents %d, dropped %d", r.Intents, r.DroppedIntents)
	}
	if len(cr.Warnings) != 1 || !strings.HasPrefix(cr.Warnings[0], "the compact index dropped the intents of ") ||
		!strings.Contains(cr.Warnings[0], " of 400 skills to fit catalog.budget_chars = 12,000") {
		t.Fatalf("warnings %q", cr.Warnings)
	}
	if len(cr.NextSteps) != 1 {
		t.Fatalf("next steps %+v", cr.NextSteps)
	}
	s := cr.NextSteps[0]
	if s.Rule != "SO102" || !strings.HasPrefix(s.Action, "run `skillopt catalog init --skills DIR`") || s.SavedBytes <= 0 || s.SavedTokens <= 0 {
		t.Fatalf("next step %+v", s)
	}
	// The saving is the compact index against the directory, both measured.
	if s.SavedBytes >= r.CompactBytes || !strings.Contains(s.Effect, "from "+units.Size(r.CompactBytes)+" to ~") {
		t.Fatalf("saving %d of a %d-byte compact index: %s", s.SavedBytes, r.CompactBytes, s.Effect)
	}
	// SO102 says what it needs.
	for _, sv := range cr.Savings {
		if sv.Rule == "SO102" && sv.Why() != "needs a card profile: run `skillopt catalog init`, then set catalog.profile" {
			t.Fatalf("SO102 reason %q", sv.Why())
		}
	}
}

// TestDetailSmallCatalog: a catalog the compact index keeps whole drops no
// intent, and a tag directory larger than the compact index is not
// proposed.
func TestDetailSmallCatalog(t *testing.T) {
	cr, r := measureSynth(t, 6)
	if r.DroppedIntents != 0 || len(cr.Warnings) != 0 {
		t.Fatalf("dropped %d: %q", r.DroppedIntents, cr.Warnings)
	}
	if len(cr.NextSteps) != 0 {
		t.Fatalf("next steps %+v", cr.NextSteps)
	}
}

func TestLoadText(t *testing.T) {
	for _, tc := range []struct {
		r    Report
		want string
	}{
		{Report{}, "the catalog's SKILL.md files are not on this machine, so skill loads are not counted"},
		{Report{FilesHere: true}, "no skill matches the request, so no load is counted"},
		{Report{FilesHere: true, LoadSkill: "pdf"}, "the SKILL.md of pdf is not on this machine, so its load is not counted"},
		{Report{FilesHere: true, LoadSkill: "pdf", LoadBytes: 1234}, "loading pdf adds 1,234 bytes"},
	} {
		if got := loadText(&tc.r); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}

// TestDetailWithoutCache: the report reads SO101's cached catalog when it
// can; without it (dropped between the pipeline and the report) it derives
// the same figures.
func TestDetailWithoutCache(t *testing.T) {
	skills := synth.Skills(300, 11)
	skills = append(skills, skills[3])
	body, err := synth.Capture("anthropic", skills, 1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(drop bool) string {
		DropCache()
		f, err := capture.Read("c.json", body, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := rules.Run(f.Captures[0], []*rules.Rule{CompactIndex, tagDirectory}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if drop {
			DropCache()
		}
		cr := measure.Measure(res, measure.Options{Encoding: "test", Counter: quarter{}, Replay: 8})
		if len(cr.Details) != 1 {
			t.Fatalf("details %+v", cr.Details)
		}
		return string(sectionJSON(t, cr.Details[0]))
	}
	if cached, derived := run(false), run(true); cached != derived {
		t.Fatalf("with SO101's cache:\n%s\nwithout:\n%s", cached, derived)
	}
}

// sectionJSON is a section's data as JSON output writes it.
func sectionJSON(t *testing.T, d rules.Detail) []byte {
	t.Helper()
	data, err := json.Marshal(d.Data)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
