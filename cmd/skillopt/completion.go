package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: "The script completes commands, subcommands, flags, the values of flags that take a\n" +
			"fixed set (--format, --color, --provider, --tier, --profile, --match) and file names\n" +
			"elsewhere. It is generated from the commands of this binary, so regenerate it after an\n" +
			"upgrade.\n\n" +
			"Examples:\n" +
			"  skillopt completion bash > ~/.local/share/bash-completion/completions/skillopt\n" +
			"  skillopt completion zsh > \"${fpath[1]}/_skillopt\"\n" +
			"  skillopt completion fish > ~/.config/fish/completions/skillopt.fish\n" +
			"  source <(skillopt completion bash)",
		Action: func(c *cli.Context) error {
			if err := e.options(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageErr("want one shell: bash, zsh or fish (see `skillopt completion --help`)")
			}
			t := completionTree(c.App)
			switch sh := c.Args().First(); sh {
			case "bash":
				return writeBash(e.stdout, t)
			case "zsh":
				return writeZsh(e.stdout, t)
			case "fish":
				return writeFish(e.stdout, t)
			default:
				return usageErr("unknown shell %q%s: want bash, zsh or fish", sh, didYouMean(sh, []string{"bash", "zsh", "fish"}))
			}
		},
	}
}

func manCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "man",
		Usage: "print the manual page (roff)",
		Description: "Prints skillopt(1) in roff, generated from the commands of this binary.\n\n" +
			"Examples:\n" +
			"  skillopt man | man -l -\n" +
			"  skillopt man > ~/.local/share/man/man1/skillopt.1",
		Action: func(c *cli.Context) error {
			if err := e.options(c, "text"); err != nil {
				return err
			}
			if c.NArg() != 0 {
				return usageErr("man takes no arguments (see `skillopt man --help`)")
			}
			_, err := io.WriteString(e.stdout, manPage(c.App))
			return err
		},
	}
}

// compNode is a command of the completion tree: its path ("" for the
// program, "catalog search"), subcommands, flags and whether it takes
// file arguments (a leaf).
type compNode struct {
	path  string
	usage string
	subs  []*compNode
	flags []compFlag
}

type compFlag struct {
	names  []string // with dashes
	usage  string
	values bool // takes a value
}

// flagValues are the fixed values some flags take.
var flagValues = map[string]string{
	"--format":   "text json markdown sarif github",
	"--color":    "auto always never",
	"--provider": "anthropic openai-chat openai-responses gemini mistral pi-messages",
	"--tier":     "cheap balanced frontier",
	"--match":    "any all",
	"--encoding": "o200k_base cl100k_base none",
}

// completionTree walks the app's commands (global flags already added to
// each by newApp).
func completionTree(app *cli.App) *compNode {
	root := &compNode{flags: compFlags(app.Flags)}
	root.flags = append(root.flags, compFlag{names: []string{"--help", "-h"}, usage: "show help"}, compFlag{names: []string{"--version", "-v"}, usage: "print the version"})
	var walk func(parent *compNode, cmds []*cli.Command)
	walk = func(parent *compNode, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			path := c.Name
			if parent.path != "" {
				path = parent.path + " " + c.Name
			}
			n := &compNode{path: path, usage: c.Usage, flags: compFlags(c.Flags)}
			n.flags = append(n.flags, compFlag{names: []string{"--help", "-h"}, usage: "show help"})
			parent.subs = append(parent.subs, n)
			walk(n, c.Subcommands)
		}
	}
	walk(root, app.Commands)
	return root
}

func compFlags(flags []cli.Flag) []compFlag {
	var out []compFlag
	seen := map[string]bool{}
	for _, f := range flags {
		var cf compFlag
		for _, n := range f.Names() {
			if seen[n] {
				continue
			}
			seen[n] = true
			if len(n) == 1 {
				cf.names = append(cf.names, "-"+n)
			} else {
				cf.names = append(cf.names, "--"+n)
			}
		}
		if len(cf.names) == 0 {
			continue
		}
		if df, ok := f.(cli.DocGenerationFlag); ok {
			cf.usage = df.GetUsage()
			cf.values = df.TakesValue()
		}
		out = append(out, cf)
	}
	return out
}

// nodes lists the tree in depth-first order.
func (n *compNode) nodes() []*compNode {
	out := []*compNode{n}
	for _, s := range n.subs {
		out = append(out, s.nodes()...)
	}
	return out
}

func (n *compNode) subNames() string {
	var names []string
	for _, s := range n.subs {
		names = append(names, s.path[strings.LastIndex(s.path, " ")+1:])
	}
	return strings.Join(names, " ")
}

func (n *compNode) flagNames(valuesOnly bool) string {
	var names []string
	for _, f := range n.flags {
		if !valuesOnly || f.values {
			names = append(names, f.names...)
		}
	}
	return strings.Join(names, " ")
}

// valueFlags lists the flags with fixed values, in a stable order.
func valueFlags() []string {
	var out []string
	for k := range flagValues {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeCases writes a shell case statement over command paths, one arm per
// node whose text is not empty.
func writeCases(w io.Writer, t *compNode, indent string, arm func(path string) string, text func(*compNode) string, end string) {
	for _, n := range t.nodes() {
		if s := text(n); s != "" {
			fmt.Fprintf(w, "%s%s %s%s\n", indent, arm(n.path), s, end)
		}
	}
}

// writeShellLookups writes the functions bash and zsh share: the
// subcommands, flags, value-taking flags and flag values of a command path.
func writeShellLookups(w io.Writer, t *compNode) {
	fmt.Fprint(w, "__skillopt_subs() {\n    case \"$1\" in\n")
	writeCases(w, t, "        ", func(p string) string { return fmt.Sprintf("%q)", p) }, func(n *compNode) string {
		if s := n.subNames(); s != "" {
			return "echo " + s
		}
		return ""
	}, " ;;")
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_flags() {\n    case \"$1\" in\n")
	writeCases(w, t, "        ", func(p string) string { return fmt.Sprintf("%q)", p) }, func(n *compNode) string { return "echo " + n.flagNames(false) }, " ;;")
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_value_flags() {\n    case \"$1\" in\n")
	writeCases(w, t, "        ", func(p string) string { return fmt.Sprintf("%q)", p) }, func(n *compNode) string {
		if s := n.flagNames(true); s != "" {
			return "echo " + s
		}
		return ""
	}, " ;;")
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_values() {\n    case \"$1\" in\n")
	for _, f := range valueFlags() {
		fmt.Fprintf(w, "        %s) echo %s ;;\n", f, flagValues[f])
	}
	fmt.Fprint(w, `        --profile) [ "$2" = lint ] && echo default skills-ref ;;
    esac
}
`)
}

func writeBash(w io.Writer, t *compNode) error {
	fmt.Fprint(w, "# bash completion for skillopt; generated by `skillopt completion bash`.\n\n")
	writeShellLookups(w, t)
	fmt.Fprint(w, `
_skillopt() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local path="" i w s
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${COMP_WORDS[i]}"
        case "$w" in -*) continue ;; esac
        for s in $(__skillopt_subs "$path"); do
            if [ "$s" = "$w" ]; then
                path="${path:+$path }$w"
                break
            fi
        done
    done
    COMPREPLY=()
    case "$prev" in
    -*)
        for s in $(__skillopt_value_flags "$path"); do
            if [ "$s" = "$prev" ]; then
                local values
                values="$(__skillopt_values "$prev" "$path")"
                if [ -n "$values" ]; then
                    COMPREPLY=($(compgen -W "$values" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return 0
            fi
        done
        ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(__skillopt_flags "$path")" -- "$cur"))
        return 0
    fi
    local subs
    subs="$(__skillopt_subs "$path")"
    if [ -n "$subs" ]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}

complete -o bashdefault -o default -F _skillopt skillopt
`)
	return nil
}

func writeZsh(w io.Writer, t *compNode) error {
	fmt.Fprint(w, "#compdef skillopt\n# zsh completion for skillopt; generated by `skillopt completion zsh`.\n\n")
	writeShellLookups(w, t)
	fmt.Fprint(w, `
_skillopt() {
    local p="" w i
    local -a subs vflags values
    for ((i = 2; i < CURRENT; i++)); do
        w="${words[i]}"
        [[ "$w" == -* ]] && continue
        subs=(${=$(__skillopt_subs "$p")})
        if (( ${subs[(Ie)$w]} )); then
            p="${p:+$p }$w"
        fi
    done
    local prev="${words[CURRENT-1]}" cur="${words[CURRENT]}"
    if [[ "$prev" == -* ]]; then
        vflags=(${=$(__skillopt_value_flags "$p")})
        if (( ${vflags[(Ie)$prev]} )); then
            values=(${=$(__skillopt_values "$prev" "$p")})
            if (( ${#values} )); then
                compadd -- $values
            else
                _files
            fi
            return
        fi
    fi
    if [[ "$cur" == -* ]]; then
        compadd -- ${=$(__skillopt_flags "$p")}
        return
    fi
    subs=(${=$(__skillopt_subs "$p")})
    if (( ${#subs} )); then
        compadd -- $subs
    else
        _files
    fi
}

if [ "$funcstack[1]" = "_skillopt" ]; then
    _skillopt "$@"
else
    compdef _skillopt skillopt
fi
`)
	return nil
}

// fishQuote quotes s for fish: single quotes, with \ and ' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// firstSentence shortens a usage for a completion description.
func firstSentence(s string) string {
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	if len(s) > 70 {
		cut := 67
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

func writeFish(w io.Writer, t *compNode) error {
	fmt.Fprint(w, "# fish completion for skillopt; generated by `skillopt completion fish`.\n\n")
	fmt.Fprint(w, "function __skillopt_subs\n    switch \"$argv[1]\"\n")
	for _, n := range t.nodes() {
		if s := n.subNames(); s != "" {
			fmt.Fprintf(w, "        case %s\n            string split ' ' %s\n", fishQuote(n.path), fishQuote(s))
		}
	}
	fmt.Fprint(w, `    end
end

function __skillopt_path
    set -l path
    for w in (commandline -opc)[2..-1]
        string match -q -- '-*' $w; and continue
        if contains -- $w (__skillopt_subs (string join ' ' $path))
            set path $path $w
        end
    end
    string join ' ' $path
end

function __skillopt_at
    test "$(__skillopt_path)" = "$argv[1]"
end

complete -c skillopt -f
`)
	for _, n := range t.nodes() {
		cond := fishQuote("__skillopt_at " + fishQuote(n.path))
		for _, s := range n.subs {
			name := s.path[strings.LastIndex(s.path, " ")+1:]
			fmt.Fprintf(w, "complete -c skillopt -n %s -a %s -d %s\n", cond, fishQuote(name), fishQuote(firstSentence(s.usage)))
		}
		if len(n.subs) == 0 {
			fmt.Fprintf(w, "complete -c skillopt -n %s -F\n", cond)
		}
		for _, f := range n.flags {
			var opts []string
			for _, name := range f.names {
				if strings.HasPrefix(name, "--") {
					opts = append(opts, "-l "+fishQuote(name[2:]))
				} else {
					opts = append(opts, "-s "+fishQuote(name[1:]))
				}
			}
			if f.values {
				opts = append(opts, "-r")
				if v, ok := flagValues[f.names[0]]; ok {
					opts = append(opts, "-x -a "+fishQuote(v))
				} else if f.names[0] == "--profile" && n.path == "lint" {
					opts = append(opts, "-x -a "+fishQuote("default skills-ref"))
				} else {
					opts = append(opts, "-F")
				}
			}
			fmt.Fprintf(w, "complete -c skillopt -n %s %s -d %s\n", cond, strings.Join(opts, " "), fishQuote(firstSentence(f.usage)))
		}
	}
	return nil
}

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
func manFlags(b *strings.Builder, flags []cli.Flag) {
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		var names []string
		for _, n := range f.Names() {
			dash := "--"
			if len(n) == 1 {
				dash = "-"
			}
			names = append(names, `\fB`+roff(dash+n)+`\fR`)
		}
		line := strings.Join(names, ", ")
		if df.TakesValue() {
			line += ` \fIVALUE\fR`
		}
		usage := df.GetUsage()
		_, isBool := f.(*cli.BoolFlag)
		if def := df.GetDefaultText(); def != "" && !isBool && !strings.Contains(usage, "default") {
			usage += " (default: " + def + ")"
		}
		fmt.Fprintf(b, ".TP\n%s\n%s\n", line, roff(strings.ReplaceAll(usage, "`", "")))
	}
}

// manPage renders skillopt(1) from the commands.
func manPage(app *cli.App) string {
	var b strings.Builder
	b.WriteString(".TH SKILLOPT 1\n.SH NAME\nskillopt \\- " + roff(app.Usage) + "\n")
	b.WriteString(".SH SYNOPSIS\n\\fBskillopt\\fR [\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffBlock(&b, app.Description)
	b.WriteString(".SH GLOBAL OPTIONS\n")
	manFlags(&b, app.Flags)
	b.WriteString(".SH COMMANDS\n")
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			name := prefix + c.Name
			fmt.Fprintf(&b, ".SS \"%s\"\n", roff(strings.TrimSpace(name+" "+c.ArgsUsage)))
			b.WriteString(roff(c.Usage) + "\n")
			if c.Description != "" {
				b.WriteString(".PP\n")
				roffBlock(&b, c.Description)
			}
			// The global options are listed once, above.
			var own []cli.Flag
			for _, f := range c.Flags {
				global := false
				for _, g := range globalFlags() {
					global = global || f.Names()[0] == g.Names()[0]
				}
				if !global {
					own = append(own, f)
				}
			}
			if len(own) > 0 {
				b.WriteString(".PP\nOptions:\n.RS\n")
				manFlags(&b, own)
				b.WriteString(".RE\n")
			}
			walk(name+" ", c.Subcommands)
		}
	}
	walk("skillopt ", app.Commands)
	b.WriteString(".SH EXIT STATUS\n0: success, nothing found. 1: findings (an invalid capture, a broken invariant, a lint error). 2: usage error, bad configuration, unreadable or unrecognised input (wins over 1).\n")
	b.WriteString(".SH ENVIRONMENT\n.TP\n\\fBSKILLOPT_CONFIG\\fR\nthe skillopt.toml to use when \\fB\\-\\-config\\fR is not given\n.TP\n\\fBNO_COLOR\\fR\nturns colour off when \\fB\\-\\-color\\fR is auto\n")
	b.WriteString(".SH FILES\n.TP\n\\fBskillopt.toml\\fR\nthe configuration, found from the working directory up to the repository root or the home folder; \\fBskillopt init\\fR writes a commented one\n")
	b.WriteString(".SH SEE ALSO\n\\fBskillopt rules\\fR lists and explains every rule; \\fBskillopt completion\\fR prints shell completion scripts.\n")
	return b.String()
}
