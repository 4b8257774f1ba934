package ruleset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// TestCorpusTransformsStayValid: on every real request of the shared
// corpus, the default pipeline and each rule family alone produce requests
// the provider accepts — no transform is dropped by the validity guard,
// and the result has no problem the original did not have.
func TestCorpusTransformsStayValid(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	var files []string
	for _, sub := range []string{"provider-examples", "captures"} {
		filepath.WalkDir(filepath.Join(root, sub), func(p string, de os.DirEntry, err error) error {
			if err == nil && !de.IsDir() && !strings.HasSuffix(p, ".meta.json") && (filepath.Ext(p) == ".json" || filepath.Ext(p) == ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	pipelines := map[string][]string{"default": {"SO1", "SO2", "SO3"}, "catalog": {"SO1", "SO103"}, "tools": {"SO2"}, "native-tools": {"SO202"}, "output": {"SO3"}}
	for name, refs := range pipelines {
		pipeline, err := Pipeline(refs, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg := config.Default()
		cfg.Archive.Dir = t.TempDir()
		env := Env(cfg, pipeline)
		n := 0
		for _, p := range files {
			f, err := capture.ReadFile(p, nil, capture.Options{})
			if err != nil {
				continue
			}
			for _, c := range f.Captures {
				n++
				res, err := rules.Run(c, pipeline, env)
				if err != nil {
					t.Errorf("%s %s: %v", name, c.Name, err)
					continue
				}
				for _, st := range res.Steps {
					if strings.Contains(st.Dropped, "provider would reject") || strings.Contains(st.Dropped, "no longer validates") {
						t.Errorf("%s %s: %s dropped: %s", name, c.Name, st.Rule.ID, st.Dropped)
					}
				}
				before, _ := Validate(c, env)
				after, _ := Validate(res.Final, env)
				if len(after) > len(before) {
					t.Errorf("%s %s: %d problems after the pipeline, %d before: %v", name, c.Name, len(after), len(before), after)
				}
			}
		}
		if n < 150 {
			t.Errorf("%s: only %d captures", name, n)
		}
	}
}
