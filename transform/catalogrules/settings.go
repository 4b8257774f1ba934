package catalogrules

import (
	"fmt"

	"github.com/skillopt/skillopt/rules"
)

// Settings are the [catalog] keys the catalog rules share with the
// `skillopt catalog` commands and measure's catalog replay.
type Settings struct {
	BudgetChars int      `toml:"budget_chars" doc:"Soft character budget shared by every compact skill index in one request. Intents shrink first; skill names are never dropped."`
	Exclude     []string `toml:"exclude" doc:"Skill names that are never eligible (besides disable-model-invocation: true)."`
	Critical    []string `toml:"critical" doc:"Skill names shown as critical hints in the tag directory."`
	Always      []string `toml:"always" doc:"Skill names shown as always hints in the tag directory."`
	Profile     string   `toml:"profile" doc:"Card profile for the tag directory (written by skillopt catalog init)."`
	Skills      []string `toml:"skills" doc:"Skill folders for the catalog commands and skillopt catalog load."`
	Resolver    bool     `toml:"resolver" doc:"The model may use skill_search. false (a host policy such as a persona withholds the resolver) leaves every native skill catalog as it is: the compact index and the tag directory both route through skill_search."`
}

// Section is the table of skillopt.toml the settings live in.
func (*Settings) Section() string { return "catalog" }

// Check reports values out of range.
func (s *Settings) Check() []rules.OptionError {
	if s.BudgetChars < 0 {
		return []rules.OptionError{{Key: "budget_chars", Msg: fmt.Sprintf("%d must not be negative", s.BudgetChars)}}
	}
	return nil
}

// Defaults are the settings without a skillopt.toml.
var Defaults = &Settings{BudgetChars: 12000, Resolver: true}

// Family declares the settings for the registry.
var Family = rules.Settings{
	Name:    "catalog",
	Doc:     "Skill-catalog rules (SO1xx) and the catalog commands.",
	Options: Defaults,
}

// SettingsOf returns the settings a pass runs with.
func SettingsOf(e *rules.Env) *Settings { return e.OptionsOf(Defaults).(*Settings) }

// FromSet returns the configured settings of a command (the defaults for a
// nil set).
func FromSet(s *rules.Set) *Settings { return rules.Get(s, Defaults) }
