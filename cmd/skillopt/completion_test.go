package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBashCompletion sources the generated bash script and asks it for
// completions as bash would: commands, subcommands after skipped flags,
// flags of the command at hand, fixed flag values, and nothing offered
// where file names belong.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"skillopt", "completion", "bash"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	script := filepath.Join(t.TempDir(), "skillopt.bash")
	if err := os.WriteFile(script, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		words []string // the command line; the last word is being completed
		want  []string // each must be offered
		not   []string // none may be offered
	}{
		{[]string{"skillopt", "mea"}, []string{"measure"}, []string{"lint"}},
		{[]string{"skillopt", ""}, []string{"measure", "catalog", "completion", "man", "lint"}, []string{"help"}},
		{[]string{"skillopt", "catalog", "s"}, []string{"search"}, []string{"measure"}},
		{[]string{"skillopt", "--format", "json", "catalog", "b"}, []string{"build", "browse"}, []string{"search"}},
		{[]string{"skillopt", "lint", "--se"}, []string{"--select"}, []string{"--limit"}},
		{[]string{"skillopt", "catalog", "search", "--li"}, []string{"--limit"}, []string{"--select"}},
		{[]string{"skillopt", "lint", "--format", ""}, []string{"text", "json", "sarif", "github"}, []string{"lint"}},
		{[]string{"skillopt", "lint", "--profile", ""}, []string{"default", "skills-ref"}, nil},
		{[]string{"skillopt", "measure", "--color", "a"}, []string{"auto", "always"}, []string{"never"}},
		{[]string{"skillopt", "completion", "--"}, []string{"--help"}, []string{"--select"}},
		{[]string{"skillopt", "lint", "no-such-"}, nil, []string{"measure", "--select"}},
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
			cmd.Dir = t.TempDir()
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
