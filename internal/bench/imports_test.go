package bench

import (
	"go/parser"
	"go/token"
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

// TestOnlyBenchCommandImportsBench: inside internal/commands only the bench
// subcommand's files (bench*.go) import benchmark code. (That no other
// product package depends on it is a rule of internal/archtest.)
func TestOnlyBenchCommandImportsBench(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "commands", "*.go"))
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
