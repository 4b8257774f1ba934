package route

import (
	"errors"
	"fmt"
	"io"
)

// Decide decides the run of the skill declared in file, whose frontmatter
// names model ("" for none), under the settings read from settingsPath
// ("" for the built-in defaults). When the allow-list refuses the model
// the run would use, the refusal is returned instead, with a nil error.
func Decide(s *Settings, settingsPath, skill, file, model string, j Judgement) (*Result, *Refusal, error) {
	d, err := Choose(s, model, j)
	if refused := (*DisallowedProviderError)(nil); errors.As(err, &refused) {
		return nil, &Refusal{Skill: skill, File: file, Refused: refused, Reason: refused.Error(), Settings: nullable(settingsPath), err: err}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	b := ContextBudget(s, BudgetTier(s, d, j))
	return &Result{Skill: skill, File: file, Decision: d, Message: Message(skill, d), Judgement: j, Budget: b,
		Surfaced: s.ExecutionRouting.SurfaceDecision, Settings: nullable(settingsPath)}, nil, nil
}

// Err is the refusal as an error: the file, why, and that the router
// aborts the run.
func (r *Refusal) Err() error {
	err := r.err
	if err == nil {
		err = r.Refused
	}
	return fmt.Errorf("%s: %w; the router aborts the run", r.File, err)
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// SkillHash is the prefix hash of one skill's file, as `skillopt route
// --prefix-hash` shows it.
type SkillHash struct {
	Skill string `json:"skill"`
	File  string `json:"file"`
	PrefixHash
}

// WriteText writes the hash for people: the SHA-256 and the byte count.
func (h SkillHash) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "sha256: %s\nbytes:  %d\n", h.SHA256, h.Bytes)
	return err
}
