package suggest

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// flagErr matches the flag parser's messages, which name every flag with
// one dash whatever was typed.
var flagErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(flag provided but not defined:|flag needs an argument:|invalid value "(?:[^"\\]|\\.)*" for flag|invalid boolean value "(?:[^"\\]|\\.)*" for) -([A-Za-z0-9][A-Za-z0-9_-]*)(.*)$`)
})

// FlagError rewrites a flag parser's message with the flag spelled as it
// was typed in args (--select, not -select) and, for an unknown flag, the
// closest of the command's flag names (those of one letter left out).
// Other messages come back as they are.
func FlagError(msg string, args, flags []string) string {
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
		for _, n := range flags {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
		if c := Typo(name, names); c != "" {
			out += fmt.Sprintf(" (did you mean --%s?)", c)
		}
	}
	return out
}
