package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/skillopt/skillopt"

// benchCode reports whether an import path is internal/bench or one of its
// sub-packages.
func benchCode(path string) bool {
	return path == module+"/internal/bench" || strings.HasPrefix(path, module+"/internal/bench/")
}

// mayUseBench reports whether a package may import benchmark code: the
// command (its bench subcommand), the benchmark packages themselves and
// the helper programs under internal/cmd.
func mayUseBench(path string) bool {
	return path == module+"/cmd/skillopt" || benchCode(path) || strings.HasPrefix(path, module+"/internal/cmd/")
}

// TestProductDoesNotImportBench fails when a product package imports
// benchmark or synthetic-data code, or the test helpers of testfs,
// directly or through another package
// (go list's Deps are transitive and leave out test files).
func TestProductDoesNotImportBench(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(goTool, "list", "-json", module+"/...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := 0
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		if mayUseBench(p.ImportPath) {
			continue
		}
		for _, d := range p.Deps {
			if benchCode(d) {
				t.Errorf("%s depends on %s: product packages must not use benchmark code", p.ImportPath, d)
			}
			if d == module+"/internal/testfs" && p.ImportPath != d {
				t.Errorf("%s depends on %s, which only tests may use", p.ImportPath, d)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("go list found only %d packages", seen)
	}
}

// TestOnlyBenchCommandImportsBench: inside cmd/skillopt only the bench
// subcommand's files (bench*.go) import benchmark code.
func TestOnlyBenchCommandImportsBench(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "cmd", "skillopt", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command files: %v", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "bench") || strings.HasSuffix(base, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); benchCode(path) {
				t.Errorf("%s imports %s; only the bench subcommand's files may", base, path)
			}
		}
	}
}
