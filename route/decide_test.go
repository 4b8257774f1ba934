package route

import (
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	res, refusal, err := Decide(Defaults(), "", "pdf", "skills/pdf/SKILL.md", "", DefaultJudgement)
	if err != nil || refusal != nil {
		t.Fatalf("defaults: %v, %v", refusal, err)
	}
	if res.Skill != "pdf" || res.File != "skills/pdf/SKILL.md" || res.Settings != nil || res.Message != Message("pdf", res.Decision) {
		t.Errorf("result %+v", res)
	}
	res, _, _ = Decide(Defaults(), ".pi/settings.json", "pdf", "SKILL.md", "", DefaultJudgement)
	if res.Settings == nil || *res.Settings != ".pi/settings.json" {
		t.Errorf("settings %v", res.Settings)
	}

	res, refusal, err = Decide(with(Defaults(), allow("openrouter")), "s.json", "pdf", "SKILL.md", "evil/v/m", DefaultJudgement)
	if err != nil || res != nil || refusal == nil {
		t.Fatalf("refused model: %v, %v, %v", res, refusal, err)
	}
	if refusal.Refused.Provider != "evil" || refusal.Reason != refusal.Refused.Error() || *refusal.Settings != "s.json" {
		t.Errorf("refusal %+v", refusal)
	}
	if got := refusal.Err().Error(); !strings.HasPrefix(got, "SKILL.md: model \"evil/v/m\"") || !strings.HasSuffix(got, "; the router aborts the run") {
		t.Errorf("refusal error %q", got)
	}
}

func TestSkillHashText(t *testing.T) {
	var b strings.Builder
	h := SkillHash{Skill: "pdf", File: "SKILL.md", PrefixHash: Hash("abc")}
	if err := h.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "sha256: " + h.SHA256 + "\nbytes:  3\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
