package commands

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// commandPaths lists the commands of the app that run something (not those
// that only group others), as paths: "catalog search".
func commandPaths(cmds []*cli.Command, prefix string) []string {
	var out []string
	for _, c := range cmds {
		if c.Hidden || c.Name == "help" {
			continue
		}
		p := strings.TrimSpace(prefix + " " + c.Name)
		if len(c.Subcommands) == 0 {
			out = append(out, p)
		}
		out = append(out, commandPaths(c.Subcommands, p)...)
	}
	return out
}

// listed parses "a, b or c" (and "a, b, c") into its words.
func listed(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ReplaceAll(s, " or ", ","), func(r rune) bool { return r == ',' }) {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, strings.Fields(w)[0])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

var formatUsage = regexp.MustCompile(`--format value +output format: ([a-z, ]+?)(?: \(|\n)`)

// described is the formats the "Formats:" sentences of a help text name:
// each sentence runs to a full stop or semicolon outside parentheses, and
// what is in parentheses describes a format.
func described(help string) []string {
	var out []string
	for rest := help; ; {
		_, after, ok := strings.Cut(rest, "Formats: ")
		if !ok {
			break
		}
		var b strings.Builder
		depth := 0
	scan:
		for i, r := range after {
			switch {
			case r == '(':
				depth++
			case r == ')':
				depth--
			case depth == 0 && (r == '.' || r == ';'):
				rest = after[i:]
				break scan
			case depth == 0:
				b.WriteRune(r)
			}
		}
		out = append(out, listed(b.String())...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// required are the flags a command cannot run without.
var required = map[string][]string{"catalog loadout": {"--agent", "agent.md"}}

// TestFormatsListed: for each command, the formats its --help names (on
// the --format flag and in any "Formats:" sentence of its description) and
// those its shell completion offers are exactly the formats it accepts;
// a format it does not support is a usage error before anything else.
func TestFormatsListed(t *testing.T) {
	t.Chdir(t.TempDir()) // init writes skillopt.toml here
	var none bytes.Buffer
	paths := commandPaths(newApp(&env{stdout: &none, stderr: &none}).Commands, "")
	if len(paths) < 30 {
		t.Fatalf("only %d commands: %q", len(paths), paths)
	}
	completed := completionValues(t, paths)
	missing := filepath.Join(t.TempDir(), "missing.toml")
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			words := append(append([]string{"skillopt"}, strings.Fields(p)...), required[p]...)
			var accepted []string
			for _, f := range append(slices.Clone(allFormats), "bogus") {
				var out, errOut bytes.Buffer
				run(append(slices.Clone(words), "--config", missing, "--format", f), strings.NewReader(""), &out, &errOut)
				if !strings.Contains(errOut.String(), "unsupported --format") {
					accepted = append(accepted, f)
				}
			}
			slices.Sort(accepted)
			if slices.Contains(accepted, "bogus") {
				t.Fatalf("--format bogus is not refused first; accepted %q", accepted)
			}
			if len(accepted) == 0 {
				t.Fatal("no format accepted")
			}
			var out, errOut bytes.Buffer
			if code := run(append(slices.Clone(words), "--help"), nil, &out, &errOut); code != 0 {
				t.Fatalf("--help: exit %d: %s", code, errOut.String())
			}
			help := out.String()
			m := formatUsage.FindStringSubmatch(help)
			if m == nil {
				t.Fatalf("no --format in help:\n%s", help)
			}
			if got := listed(m[1]); !slices.Equal(got, accepted) {
				t.Errorf("--format in help lists %q, the command accepts %q", got, accepted)
			}
			if d := described(help); d != nil && !slices.Equal(d, accepted) {
				t.Errorf("the description lists %q, the command accepts %q", d, accepted)
			}
			if completed != nil {
				if got := completed[p]; !slices.Equal(got, accepted) {
					t.Errorf("completion offers %q, the command accepts %q", got, accepted)
				}
			}
		})
	}
}

// completionValues asks the generated bash script which values it offers
// after --format on each command path; nil without bash.
func completionValues(t *testing.T, paths []string) map[string][]string {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Log("bash not found: completion not checked")
		return nil
	}
	var script, errOut bytes.Buffer
	if code := run([]string{"skillopt", "completion", "bash"}, nil, &script, &errOut); code != 0 {
		t.Fatalf("completion bash: exit %d: %s", code, errOut.String())
	}
	prog := script.String() + "\n"
	for _, p := range paths {
		prog += "echo \"" + p + ":$(__skillopt_values --format '" + p + "')\"\n"
	}
	got, err := exec.Command(bash, "--norc", "--noprofile", "-c", prog).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		p, values, _ := strings.Cut(line, ":")
		out[p] = listed(strings.ReplaceAll(values, " ", ","))
	}
	return out
}
