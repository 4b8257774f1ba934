package route

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/escape"
)

// Result is what `skillopt route` shows for one skill: the decision, the
// execution message, the judgement it was made for, the budget and the
// settings file used (nil for the built-in defaults).
type Result struct {
	Skill string `json:"skill"`
	File  string `json:"file"`
	Decision
	Message   string    `json:"message"`
	Surfaced  bool      `json:"surfaced"`
	Judgement Judgement `json:"judgement"`
	Budget    Budget    `json:"budget"`
	Settings  *string   `json:"settings"`
}

// Refusal is what `skillopt route` shows when the allow-list refuses the
// model the run would use.
type Refusal struct {
	Skill    string                   `json:"skill"`
	File     string                   `json:"file"`
	Refused  *DisallowedProviderError `json:"refused"`
	Reason   string                   `json:"reason"`
	Settings *string                  `json:"settings"`
	// err is the refusal as Choose returned it.
	err error
}

// WriteText writes r for people: the execution message, then source,
// reason, budget, whether the thread names the model, and the settings.
func (r Result) WriteText(w io.Writer) error {
	settings := "built-in defaults"
	if r.Settings != nil {
		settings = *r.Settings
	}
	surfaced := "yes"
	if !r.Surfaced {
		surfaced = "no (executionRouting.surfaceDecision is off: the thread does not name the model)"
	}
	_, err := fmt.Fprintf(w, "%s\nsource:   %s\nreason:   %s\nbudget:   %d bytes (tier %s, %s)\nsurfaced: %s\nsettings: %s\n",
		escape.Text(r.Message), r.Source, escape.Text(r.Reason), r.Budget.OverflowCeilingBytes, r.Budget.Tier, r.Budget.Source,
		surfaced, escape.Text(settings))
	return err
}
