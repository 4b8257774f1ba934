package commands

import (
	"github.com/skillopt/skillopt/internal/suggest"
	"github.com/urfave/cli/v2"
)

// commandNames lists the names and aliases of commands.
func commandNames(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c.Names()...)
		}
	}
	return out
}

// flagError rewrites a flag parser error with the flag spelled as it was
// typed and, for an unknown flag, the closest flag of the command (see
// suggest.FlagError).
func flagError(err error, args []string, flags []cli.Flag) string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	return suggest.FlagError(err.Error(), args, names)
}
