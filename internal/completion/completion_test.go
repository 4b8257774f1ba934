package completion

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tree is a small program: two commands, one with subcommands, a global
// flag, per-command values of one flag and a flag whose values are the
// same everywhere.
func tree() *Command {
	global := func() []Flag {
		return []Flag{
			{Names: []string{"--format"}, Usage: "output format", TakesValue: true, Values: []string{"text", "json"}, Default: `"text"`, Global: true},
			{Names: []string{"--quiet", "-q"}, Usage: "print less", Switch: true, Global: true},
		}
	}
	help := Flag{Names: []string{"--help", "-h"}, Usage: "show help", Global: true}
	lint := &Command{Name: "lint", Usage: "lint skills; fix some", ArgsUsage: "PATH...", Description: "Lints.\n.Leading dot, a-hyphen and ü.", Flags: append([]Flag{
		{Names: []string{"--select"}, Usage: "rules to run", TakesValue: true},
		{Names: []string{"--profile"}, Usage: "rule profile (default: default)", TakesValue: true, Values: []string{"default", "strict"}},
		{Names: []string{"--color"}, Usage: "colour", TakesValue: true, Values: []string{"auto", "never"}},
	}, append(global(), help)...)}
	lint.Flags[3].Values = []string{"text", "json", "sarif"}
	search := &Command{Name: "search", Usage: "search the catalog", ArgsUsage: "QUERY", Flags: append([]Flag{
		{Names: []string{"--limit"}, Usage: "most results", TakesValue: true, Default: "10"},
		{Names: []string{"--profile"}, Usage: "card profile file", TakesValue: true},
		{Names: []string{"--color"}, Usage: "colour", TakesValue: true, Values: []string{"auto", "never"}},
	}, append(global(), help)...)}
	catalog := &Command{Name: "catalog", Usage: "work on catalogs", Flags: append(global(), help), Subs: []*Command{search}}
	return &Command{Usage: "a test program", Description: "It tests.", Flags: append(global(), help), Subs: []*Command{lint, catalog}}
}

// TestBash sources the bash script and asks it for completions as bash
// would: commands, subcommands after skipped flags, the flags of the
// command at hand, fixed values by command, and file names elsewhere.
func TestBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	var out bytes.Buffer
	if err := Bash(&out, tree()); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "skillopt.bash")
	if err := os.WriteFile(script, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "afile"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		words     []string // the command line; the last word is being completed
		want, not []string
	}{
		{[]string{"skillopt", ""}, []string{"lint", "catalog"}, []string{"search", "afile"}},
		{[]string{"skillopt", "ca"}, []string{"catalog"}, []string{"lint"}},
		{[]string{"skillopt", "--format", "json", "catalog", ""}, []string{"search"}, []string{"lint"}},
		{[]string{"skillopt", "lint", "--"}, []string{"--select", "--profile", "--format", "--quiet", "--help"}, []string{"--limit"}},
		{[]string{"skillopt", "lint", "--format", ""}, []string{"text", "json", "sarif"}, nil},
		{[]string{"skillopt", "catalog", "search", "--format", ""}, []string{"text", "json"}, []string{"sarif"}},
		{[]string{"skillopt", "lint", "--profile", ""}, []string{"default", "strict"}, []string{"afile"}},
		{[]string{"skillopt", "catalog", "search", "--profile", ""}, []string{"afile"}, []string{"default"}},
		{[]string{"skillopt", "catalog", "search", "--color", "n"}, []string{"never"}, []string{"auto"}},
		{[]string{"skillopt", "catalog", "search", "--limit", ""}, []string{"afile"}, nil},
		{[]string{"skillopt", "lint", ""}, []string{"afile"}, []string{"lint", "--select"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.words, " "), func(t *testing.T) {
			var words []string
			for _, w := range tc.words {
				words = append(words, "'"+w+"'")
			}
			prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" +
				strconv.Itoa(len(tc.words)-1) + "\n_skillopt\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
			cmd.Dir = dir
			got, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s", err, got)
			}
			offered := map[string]bool{}
			for _, w := range strings.Split(strings.TrimSpace(string(got)), "\n") {
				offered[w] = true
			}
			for _, w := range tc.want {
				if !offered[w] {
					t.Errorf("%q not offered; got %q", w, got)
				}
			}
			for _, w := range tc.not {
				if offered[w] {
					t.Errorf("%q offered; got %q", w, got)
				}
			}
		})
	}
}

// TestScripts checks the zsh and fish scripts line by line where they
// carry the tree, and that each parses when the shell is installed.
func TestScripts(t *testing.T) {
	var zsh, fish bytes.Buffer
	if err := Zsh(&zsh, tree()); err != nil {
		t.Fatal(err)
	}
	if err := Fish(&fish, tree()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#compdef skillopt\n",
		`        "catalog") echo search ;;` + "\n",
		`            "lint") echo text json sarif ;;` + "\n",
		"        --color) echo auto never ;;\n",
	} {
		if !strings.Contains(zsh.String(), want) {
			t.Errorf("zsh script lacks %q", want)
		}
	}
	for _, want := range []string{
		`complete -c skillopt -n '__skillopt_at \'\'' -a 'lint' -d 'lint skills'` + "\n",
		`complete -c skillopt -n '__skillopt_at \'lint\'' -F` + "\n",
		`complete -c skillopt -n '__skillopt_at \'lint\'' -l 'format' -r -x -a 'text json sarif' -d 'output format'` + "\n",
		`complete -c skillopt -n '__skillopt_at \'catalog search\'' -l 'profile' -r -F -d 'card profile file'` + "\n",
		`complete -c skillopt -n '__skillopt_at \'lint\'' -l 'quiet' -s 'q' -d 'print less'` + "\n",
	} {
		if !strings.Contains(fish.String(), want) {
			t.Errorf("fish script lacks %q", want)
		}
	}
	for sh, script := range map[string]*bytes.Buffer{"zsh": &zsh, "fish": &fish} {
		path, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		f := filepath.Join(t.TempDir(), "script")
		if err := os.WriteFile(f, script.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		flag := "-n"
		if sh == "fish" {
			flag = "--no-execute"
		}
		if out, err := exec.Command(path, flag, f).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its script: %v: %s", sh, err, out)
		}
	}
}

// TestMan: the page lists the global options once, each command with its
// own options only, and escapes what roff would act on.
func TestMan(t *testing.T) {
	var out bytes.Buffer
	if err := Man(&out, tree()); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{
		".TH SKILLOPT 1\n.SH NAME\nskillopt \\- a test program\n",
		".SH GLOBAL OPTIONS\n.TP\n\\fB\\-\\-format\\fR \\fIVALUE\\fR\noutput format (default: \"text\")\n.TP\n\\fB\\-\\-quiet\\fR, \\fB\\-q\\fR\nprint less\n",
		".SS \"skillopt lint PATH...\"\nlint skills; fix some\n.PP\n.nf\nLints.\n\\&.Leading dot, a\\-hyphen and \\[u00FC].\n.fi\n",
		".TP\n\\fB\\-\\-profile\\fR \\fIVALUE\\fR\nrule profile (default: default)\n",
		".SS \"skillopt catalog search QUERY\"\n",
		"\\fB\\-\\-limit\\fR \\fIVALUE\\fR\nmost results (default: 10)\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `\fB\-\-format\fR`); n != 1 {
		t.Errorf("--format listed %d times, want once (global)", n)
	}
	if strings.Contains(page, ".SS \"skillopt catalog\"\nwork on catalogs\n.PP\nOptions:") {
		t.Error("a command with only global flags lists options")
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"short":                      "short",
		"first; second":              "first",
		strings.Repeat("é", 40):      strings.Repeat("é", 33) + "...",
		strings.Repeat("a", 71):      strings.Repeat("a", 67) + "...",
		strings.Repeat("a", 70) + "": strings.Repeat("a", 70),
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
