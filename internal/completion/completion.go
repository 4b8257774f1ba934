// Package completion writes shell completion scripts (bash, zsh, fish) and
// the manual page of a command tree. The tree is plain data: the command
// line builds it from its own command definitions, so that the scripts and
// the page always describe the binary that prints them.
package completion

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Command is a command of the tree: the program itself at the root (Name
// empty), its commands and their subcommands.
type Command struct {
	// Name is the command's own name ("search" in "catalog search").
	Name string
	// Usage is its one-line summary, ArgsUsage its arguments ("QUERY")
	// and Description the longer text of its help.
	Usage, ArgsUsage, Description string
	// Flags are the flags the command accepts, global ones included.
	Flags []Flag
	// Subs are its subcommands, in the order help lists them.
	Subs []*Command

	path string
}

// Flag is a flag of a command.
type Flag struct {
	// Names are the flag's spellings with their dashes ("--quiet", "-q").
	Names []string
	// Usage is the flag's help text.
	Usage string
	// TakesValue marks a flag that is followed by a value.
	TakesValue bool
	// Values are the values the flag accepts when they form a fixed set;
	// completion offers file names for a value flag without them.
	Values []string
	// Default is the default a manual page shows ("" for none).
	Default string
	// Switch marks a boolean flag, whose default the page leaves out.
	Switch bool
	// Global marks a flag of every command, which the page lists once.
	Global bool
}

// prepare sets the command paths ("catalog search") of the tree.
func (c *Command) prepare(parent string) {
	c.path = parent
	for _, s := range c.Subs {
		p := s.Name
		if parent != "" {
			p = parent + " " + s.Name
		}
		s.prepare(p)
	}
}

// nodes lists the tree in depth-first order.
func (c *Command) nodes() []*Command {
	out := []*Command{c}
	for _, s := range c.Subs {
		out = append(out, s.nodes()...)
	}
	return out
}

func (c *Command) subNames() string {
	var names []string
	for _, s := range c.Subs {
		names = append(names, s.Name)
	}
	return strings.Join(names, " ")
}

func (c *Command) flagNames(valuesOnly bool) string {
	var names []string
	for _, f := range c.Flags {
		if !valuesOnly || f.TakesValue {
			names = append(names, f.Names...)
		}
	}
	return strings.Join(names, " ")
}

// valueArm is what one flag's fixed values are, by command path: either
// the same everywhere the flag has them (all) or per command (by).
type valueArm struct {
	flag  string
	all   string
	paths []string
	by    map[string]string
}

// valueArms lists the flags with fixed values, sorted by name. A flag
// whose values are the same on every command that takes it gets one arm;
// else its values are looked up by command path.
func valueArms(root *Command) []valueArm {
	byFlag := map[string]map[string]string{}
	takers := map[string]int{}
	var order []string
	for _, n := range root.nodes() {
		for _, f := range n.Flags {
			if !f.TakesValue {
				continue
			}
			name := f.Names[0]
			takers[name]++
			if len(f.Values) == 0 {
				continue
			}
			if byFlag[name] == nil {
				byFlag[name] = map[string]string{}
				order = append(order, name)
			}
			byFlag[name][n.path] = strings.Join(f.Values, " ")
		}
	}
	sort.Strings(order)
	var out []valueArm
	for _, name := range order {
		by := byFlag[name]
		arm := valueArm{flag: name, by: by}
		same := len(by) == takers[name]
		for _, v := range by {
			if arm.all == "" {
				arm.all = v
			}
			same = same && v == arm.all
		}
		if same {
			arm.by = nil
		} else {
			arm.all = ""
			for _, n := range root.nodes() {
				if _, ok := by[n.path]; ok {
					arm.paths = append(arm.paths, n.path)
				}
			}
		}
		out = append(out, arm)
	}
	return out
}

// writeCases writes a shell case statement over command paths, one arm per
// node whose text is not empty.
func writeCases(w io.Writer, root *Command, text func(*Command) string) {
	for _, n := range root.nodes() {
		if s := text(n); s != "" {
			fmt.Fprintf(w, "        %q) %s ;;\n", n.path, s)
		}
	}
}

// writeShellLookups writes the functions bash and zsh share: the
// subcommands, flags, value-taking flags and flag values of a command path.
func writeShellLookups(w io.Writer, root *Command) {
	fmt.Fprint(w, "__skillopt_subs() {\n    case \"$1\" in\n")
	writeCases(w, root, func(n *Command) string {
		if s := n.subNames(); s != "" {
			return "echo " + s
		}
		return ""
	})
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_flags() {\n    case \"$1\" in\n")
	writeCases(w, root, func(n *Command) string { return "echo " + n.flagNames(false) })
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_value_flags() {\n    case \"$1\" in\n")
	writeCases(w, root, func(n *Command) string {
		if s := n.flagNames(true); s != "" {
			return "echo " + s
		}
		return ""
	})
	fmt.Fprint(w, "    esac\n}\n\n__skillopt_values() {\n    case \"$1\" in\n")
	for _, a := range valueArms(root) {
		if a.by == nil {
			fmt.Fprintf(w, "        %s) echo %s ;;\n", a.flag, a.all)
			continue
		}
		fmt.Fprintf(w, "        %s)\n            case \"$2\" in\n", a.flag)
		for _, p := range a.paths {
			fmt.Fprintf(w, "            %q) echo %s ;;\n", p, a.by[p])
		}
		fmt.Fprint(w, "            esac\n            ;;\n")
	}
	fmt.Fprint(w, "    esac\n}\n")
}

// Bash writes the bash completion script of the tree.
func Bash(w io.Writer, root *Command) error {
	root.prepare("")
	fmt.Fprint(w, "# bash completion for skillopt; generated by `skillopt completion bash`.\n\n")
	writeShellLookups(w, root)
	_, err := io.WriteString(w, bashMain)
	return err
}

const bashMain = `
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
`

// Zsh writes the zsh completion script of the tree.
func Zsh(w io.Writer, root *Command) error {
	root.prepare("")
	fmt.Fprint(w, "#compdef skillopt\n# zsh completion for skillopt; generated by `skillopt completion zsh`.\n\n")
	writeShellLookups(w, root)
	_, err := io.WriteString(w, zshMain)
	return err
}

const zshMain = `
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
`

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

// Fish writes the fish completion script of the tree.
func Fish(w io.Writer, root *Command) error {
	root.prepare("")
	fmt.Fprint(w, "# fish completion for skillopt; generated by `skillopt completion fish`.\n\n")
	fmt.Fprint(w, "function __skillopt_subs\n    switch \"$argv[1]\"\n")
	for _, n := range root.nodes() {
		if s := n.subNames(); s != "" {
			fmt.Fprintf(w, "        case %s\n            string split ' ' %s\n", fishQuote(n.path), fishQuote(s))
		}
	}
	fmt.Fprint(w, fishMain)
	for _, n := range root.nodes() {
		cond := fishQuote("__skillopt_at " + fishQuote(n.path))
		for _, s := range n.Subs {
			fmt.Fprintf(w, "complete -c skillopt -n %s -a %s -d %s\n", cond, fishQuote(s.Name), fishQuote(firstSentence(s.Usage)))
		}
		if len(n.Subs) == 0 {
			fmt.Fprintf(w, "complete -c skillopt -n %s -F\n", cond)
		}
		for _, f := range n.Flags {
			fmt.Fprintf(w, "complete -c skillopt -n %s %s -d %s\n", cond, fishFlag(f), fishQuote(firstSentence(f.Usage)))
		}
	}
	return nil
}

// fishFlag is the options of fish's complete for one flag: its names and
// what its value may be.
func fishFlag(f Flag) string {
	var opts []string
	for _, name := range f.Names {
		if long, ok := strings.CutPrefix(name, "--"); ok {
			opts = append(opts, "-l "+fishQuote(long))
		} else {
			opts = append(opts, "-s "+fishQuote(name[1:]))
		}
	}
	if f.TakesValue {
		opts = append(opts, "-r")
		if len(f.Values) > 0 {
			opts = append(opts, "-x -a "+fishQuote(strings.Join(f.Values, " ")))
		} else {
			opts = append(opts, "-F")
		}
	}
	return strings.Join(opts, " ")
}

const fishMain = `    end
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
`
