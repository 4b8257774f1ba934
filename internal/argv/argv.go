// Package argv arranges a command line for a flag parser that stops at the
// first positional argument: the flags of a command may follow its
// arguments, as users type them.
package argv

import "strings"

// Command is what Permute needs to know of a command: its flags, each
// with whether it takes a value, and its subcommands.
type Command interface {
	// Flags maps every name of the command's flags (aliases included) to
	// whether the flag takes a value.
	Flags() map[string]bool
	// Sub is the subcommand named name (or one of its aliases), nil when
	// there is none.
	Sub(name string) Command
	// HasSubs tells whether the command groups subcommands.
	HasSubs() bool
}

// Permute moves flags that follow positional arguments of a command in
// front of them, so `skillopt measure a.json --format json` works: the
// flag parser stops at the first positional argument. root is the program:
// its flags are the global ones, its subcommands the commands; args[0] is
// the program's name. A flag that takes a value is followed by it, unless
// it ends the line or holds it after "="; "--" ends the flags.
func Permute(root Command, args []string) []string {
	if len(args) < 2 {
		return args
	}
	takesValue := map[string]bool{}
	mark := func(c Command) {
		for n, v := range c.Flags() {
			takesValue[n] = v
		}
	}
	mark(root)
	i, cmd := commandAt(root, args, takesValue, mark)
	if cmd == nil {
		return args
	}
	head := append([]string{}, args[:i+1]...)
	var flags, pos []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "--":
			pos = append(pos, rest[j+1:]...)
			j = len(rest)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && j+1 < len(rest) {
				flags = append(flags, rest[j+1])
				j++
			}
		default:
			pos = append(pos, a)
		}
	}
	out := append(head, flags...)
	// A flag that wants a value but ends the line gets none: the parser
	// says so, rather than taking "--" for its value.
	if n := len(flags); n > 0 && strings.HasPrefix(flags[n-1], "-") && !strings.Contains(flags[n-1], "=") && takesValue[strings.TrimLeft(flags[n-1], "-")] {
		return out
	}
	if len(pos) > 0 {
		out = append(out, "--")
		out = append(out, pos...)
	}
	return out
}

// commandAt finds the command that args run, descending into subcommands
// (catalog search …), and its index in args; nil when args name
// none or an unknown subcommand, which is left for the library to report.
// Flags on the way are skipped, with their values as takesValue says;
// mark records the flags of each command found.
func commandAt(root Command, args []string, takesValue map[string]bool, mark func(Command)) (int, Command) {
	// The command name is the first argument that is not a global flag or
	// a global flag's value.
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		name := strings.TrimLeft(args[i], "-")
		if strings.Contains(name, "=") {
			i++
			continue
		}
		i++
		if takesValue[name] {
			i++
		}
	}
	if i >= len(args) {
		return 0, nil
	}
	cmd := root.Sub(args[i])
	if cmd == nil {
		return 0, nil
	}
	mark(cmd)
	// Descend into subcommands (catalog search …), skipping flags
	// of the parent command on the way.
	for cmd.HasSubs() {
		j := i + 1
		for j < len(args) && strings.HasPrefix(args[j], "-") && args[j] != "-" {
			name := strings.TrimLeft(args[j], "-")
			j++
			if !strings.Contains(name, "=") && takesValue[name] {
				j++
			}
		}
		if j >= len(args) {
			break
		}
		sub := cmd.Sub(args[j])
		if sub == nil {
			// An unknown subcommand (catalog frob --skills x): left as
			// typed, so that it is reported as such, not its flags.
			return 0, nil
		}
		i, cmd = j, sub
		mark(cmd)
	}
	return i, cmd
}
