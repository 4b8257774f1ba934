package main

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

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

// flagErr matches the flag parser's messages, which name every flag with
// one dash whatever was typed.
var flagErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(flag provided but not defined:|flag needs an argument:|invalid value "(?:[^"\\]|\\.)*" for flag|invalid boolean value "(?:[^"\\]|\\.)*" for) -([A-Za-z0-9][A-Za-z0-9_-]*)(.*)$`)
})

// flagError rewrites a flag parser error with the flag spelled as it was
// typed (--select, not -select) and, for an unknown flag, the closest flag
// of the command.
func flagError(err error, args []string, flags []cli.Flag) string {
	msg := err.Error()
	m := flagErr().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name := m[2]
	typed := "--" + name
	if len(name) == 1 {
		typed = "-" + name
	}
	for _, a := range args {
		if a == "-"+name || strings.HasPrefix(a, "-"+name+"=") {
			typed = "-" + name
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			typed = "--" + name
			break
		}
	}
	out := m[1] + " " + typed + m[3]
	if m[1] == "flag provided but not defined:" {
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		if c := suggest.Typo(name, names); c != "" {
			out += fmt.Sprintf(" (did you mean --%s?)", c)
		}
	}
	return out
}
