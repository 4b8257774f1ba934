package output

import "testing"

func TestSkillFileNames(t *testing.T) {
	s := &skillFiles{read: true, dirs: []string{"/home/u/.pi/skills/pdf/"}}
	for args, want := range map[string]bool{
		`{"path":"/home/u/.pi/skills/pdf/SKILL.md"}`:  true,
		"skills/review/skill.md\n":                    true,
		`C:\skills\review\SKILL.md`:                   true,
		"cat ~/.pi/skills/pdf/forms.md | head\n":      false, // not that folder
		"/home/u/.pi/skills/pdf/reference/forms.md\n": true,
		"/home/u/.pi/skills/pdf-extra/notes.md\n":     false,
		"docs/my-skill.md\n":                          false,
		"SKILL.md.bak\n":                              false,
		`{"command":"sed -n 1,40p agents/SKILL.md"}`:  true,
	} {
		if got := s.names(args); got != want {
			t.Errorf("%q: %v, want %v", args, got, want)
		}
	}
}
