package argv

import (
	"slices"
	"strings"
	"testing"
)

// cmd is a command tree for the tests.
type cmd struct {
	flags map[string]bool
	subs  map[string]*cmd
}

func (c *cmd) Flags() map[string]bool { return c.flags }
func (c *cmd) HasSubs() bool          { return len(c.subs) > 0 }
func (c *cmd) Sub(name string) Command {
	if s, ok := c.subs[name]; ok {
		return s
	}
	return nil
}

func TestPermute(t *testing.T) {
	root := &cmd{flags: map[string]bool{"config": true, "format": true, "quiet": false, "q": false}, subs: map[string]*cmd{
		"measure": {flags: map[string]bool{"rules": true, "conversation": false}},
		"catalog": {flags: map[string]bool{}, subs: map[string]*cmd{
			"search": {flags: map[string]bool{"skills": true, "limit": true}},
		}},
	}}
	for _, tc := range []struct{ in, want string }{
		// Flags after the arguments move before them; the arguments
		// follow "--".
		{"skillopt measure a.json --format json", "skillopt measure --format json -- a.json"},
		{"skillopt measure a.json --rules SO1 b.json -q", "skillopt measure --rules SO1 -q -- a.json b.json"},
		// A value after "=" is not taken from the next word; a switch
		// takes none.
		{"skillopt measure a.json --rules=SO1 --conversation b.json", "skillopt measure --rules=SO1 --conversation -- a.json b.json"},
		// Global flags before the command are skipped with their values.
		{"skillopt --config x.toml measure a.json -q", "skillopt --config x.toml measure -q -- a.json"},
		// Subcommands are found below their group.
		{"skillopt catalog search fill a form --skills s --limit 3", "skillopt catalog search --skills s --limit 3 -- fill a form"},
		// "--" ends the flags; "-" is an argument.
		{"skillopt measure - -- --rules", "skillopt measure -- - --rules"},
		// A flag that wants a value but ends the line gets none.
		{"skillopt measure a.json --rules", "skillopt measure --rules"},
		// An unknown command or subcommand is left as typed.
		{"skillopt frob a --x", "skillopt frob a --x"},
		{"skillopt catalog frob --skills s", "skillopt catalog frob --skills s"},
		{"skillopt", "skillopt"},
		{"skillopt --format json", "skillopt --format json"},
	} {
		got := strings.Join(Permute(root, strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	// The arguments are not changed in place.
	args := strings.Fields("skillopt measure a.json -q")
	keep := slices.Clone(args)
	Permute(root, args)
	if !slices.Equal(args, keep) {
		t.Errorf("args changed: %q", args)
	}
}
