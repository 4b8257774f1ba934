package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillopt": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line end-to-end scripts in testdata/script.
// Each script gets $EXAMPLES (the repository's example captures) and, when
// present, $CORPUS (the shared corpus beside the repository).
func TestScripts(t *testing.T) {
	examples, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "examples"))
	corpus, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			env.Setenv("NO_COLOR", "1")
			if _, err := os.Stat(corpus); err == nil {
				env.Setenv("CORPUS", corpus)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "corpus" {
				_, err := os.Stat(corpus)
				return err == nil, nil
			}
			return false, nil
		},
		RequireExplicitExec: true,
		// SKILLOPT_UPDATE_SCRIPTS=1 rewrites the files that cmp compares
		// stdout or stderr with; review the diff.
		UpdateScripts: os.Getenv("SKILLOPT_UPDATE_SCRIPTS") != "",
	})
}
