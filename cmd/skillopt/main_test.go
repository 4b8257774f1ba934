package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/skillopt/skillopt/internal/commands"
	"github.com/skillopt/skillopt/internal/golden"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillopt": func() { os.Exit(commands.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
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
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"gencapture": genCapture},
		RequireExplicitExec: true,
		// -update rewrites the files that cmp compares stdout or stderr
		// with; review the diff.
		UpdateScripts: golden.Update(),
	})
}

// genCapture writes a capture too large to keep in a script:
//
//	gencapture FILE enum FROM COUNT    a tool whose schema has an enum of
//	                                   COUNT numbers from FROM
//	gencapture FILE prompt WORD COUNT  a system prompt of COUNT lines
//	                                   "WORD N"
func genCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: gencapture FILE enum FROM COUNT | gencapture FILE prompt WORD COUNT")
	}
	count, err := strconv.Atoi(args[3])
	ts.Check(err)
	var b strings.Builder
	switch args[1] {
	case "enum":
		from, err := strconv.Atoi(args[2])
		ts.Check(err)
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"tools":[{"name":"pick","input_schema":{"type":"object","properties":{"v":{"enum":[`)
		for k := range count {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(from + k))
		}
		b.WriteString(`]}}}}],"messages":[{"role":"user","content":"hi"}]}`)
	case "prompt":
		b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"`)
		for k := range count {
			fmt.Fprintf(&b, `%s %d\n`, args[2], k)
		}
		b.WriteString(`","messages":[{"role":"user","content":"hi"}]}`)
	default:
		ts.Fatalf("gencapture: unknown kind %q", args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}
