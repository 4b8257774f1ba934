package completion

import (
	"fmt"
	"io"
	"strings"
)

// roff escapes text for a no-fill or filled roff line: backslashes,
// hyphens (so that flags copy as ASCII) and a leading dot or quote.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\[u%04X]`, r)
		}
	}
	s = b.String()
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffBlock writes text line by line without filling, so that the layout
// of descriptions (examples, tables) survives.
func roffBlock(b *strings.Builder, text string) {
	b.WriteString(".nf\n")
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(roff(l) + "\n")
	}
	b.WriteString(".fi\n")
}

// manFlags writes a flag list, as in --help.
func manFlags(b *strings.Builder, flags []Flag) {
	for _, f := range flags {
		var names []string
		for _, n := range f.Names {
			names = append(names, `\fB`+roff(n)+`\fR`)
		}
		line := strings.Join(names, ", ")
		if f.TakesValue {
			line += ` \fIVALUE\fR`
		}
		usage := f.Usage
		if f.Default != "" && !f.Switch && !strings.Contains(usage, "default") {
			usage += " (default: " + f.Default + ")"
		}
		fmt.Fprintf(b, ".TP\n%s\n%s\n", line, roff(strings.ReplaceAll(usage, "`", "")))
	}
}

// manCommands writes the section of each command below c, depth first.
func manCommands(b *strings.Builder, prefix string, c *Command) {
	for _, s := range c.Subs {
		name := prefix + s.Name
		fmt.Fprintf(b, ".SS \"%s\"\n", roff(strings.TrimSpace(name+" "+s.ArgsUsage)))
		b.WriteString(roff(s.Usage) + "\n")
		if s.Description != "" {
			b.WriteString(".PP\n")
			roffBlock(b, s.Description)
		}
		// The global options are listed once, above.
		var own []Flag
		for _, f := range s.Flags {
			if !f.Global {
				own = append(own, f)
			}
		}
		if len(own) > 0 {
			b.WriteString(".PP\nOptions:\n.RS\n")
			manFlags(b, own)
			b.WriteString(".RE\n")
		}
		manCommands(b, name+" ", s)
	}
}

// Man writes the manual page skillopt(1) of the tree in roff: the root's
// usage, description and flags, then every command with its own flags.
func Man(w io.Writer, root *Command) error {
	var b strings.Builder
	b.WriteString(".TH SKILLOPT 1\n.SH NAME\nskillopt \\- " + roff(root.Usage) + "\n")
	b.WriteString(".SH SYNOPSIS\n\\fBskillopt\\fR [\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffBlock(&b, root.Description)
	b.WriteString(".SH GLOBAL OPTIONS\n")
	manFlags(&b, root.Flags)
	b.WriteString(".SH COMMANDS\n")
	manCommands(&b, "skillopt ", root)
	b.WriteString(".SH EXIT STATUS\n0: success, nothing found. 1: findings (an invalid capture, a broken invariant, a lint error). 2: usage error, bad configuration, unreadable or unrecognised input (wins over 1).\n")
	b.WriteString(".SH ENVIRONMENT\n.TP\n\\fBSKILLOPT_CONFIG\\fR\nthe skillopt.toml to use when \\fB\\-\\-config\\fR is not given\n.TP\n\\fBNO_COLOR\\fR\nturns colour off when \\fB\\-\\-color\\fR is auto\n")
	b.WriteString(".SH FILES\n.TP\n\\fBskillopt.toml\\fR\nthe configuration, found from the working directory up to the repository root or the home folder; \\fBskillopt init\\fR writes a commented one\n")
	b.WriteString(".SH SEE ALSO\n\\fBskillopt rules\\fR lists and explains every rule; \\fBskillopt completion\\fR prints shell completion scripts.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
