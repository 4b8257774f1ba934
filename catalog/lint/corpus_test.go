package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/catalog/lint"
	"github.com/skillopt/skillopt/internal/golden"
)

// TestLintCorpus lints the real skill repositories of the shared corpus:
// no rule fails, two runs give the same diagnostics, and the number of
// findings per rule and severity matches testdata/corpus-counts.txt
// (go test ./catalog/lint -run TestLintCorpus -update rewrites it).
func TestLintCorpus(t *testing.T) {
	if _, err := os.Stat(corpusSkills); err != nil {
		t.Skipf("shared corpus not found at %s", corpusSkills)
	}
	cfg := load(t, "")
	lintCorpus := func() *lint.Report {
		rep, err := run(t, cfg, lint.Options{Paths: []string{corpusSkills}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Errors) > 0 {
			t.Fatalf("input errors: %v", rep.Errors)
		}
		return rep
	}
	first, second := lintCorpus(), lintCorpus()
	if !reflect.DeepEqual(first.Diagnostics, second.Diagnostics) {
		t.Fatal("two runs over the corpus differ")
	}
	counts := map[string]int{}
	for _, d := range first.Diagnostics {
		if d.File == "" || d.Line < 1 || d.Column < 1 {
			t.Errorf("diagnostic without a position: %+v", d)
		}
		counts[d.Rule+" "+d.Severity.String()]++
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "skills %d, agents %d, diagnostics %d\n", first.Skills, first.Agents, len(first.Diagnostics))
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %d\n", k, counts[k])
	}
	got := b.String()
	golden.Check(t, filepath.Join("testdata", "corpus-counts.txt"), []byte(got))
}
