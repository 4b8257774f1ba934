package validity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// Real requests are valid: none of the family's rules reports anything on
// the provider examples and captures of the shared corpus.
func TestCorpusHasNoFindings(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	n := 0
	for _, sub := range []string{"provider-examples", "captures"} {
		filepath.WalkDir(filepath.Join(root, sub), func(p string, de os.DirEntry, err error) error {
			if err != nil || de.IsDir() || strings.HasSuffix(p, ".meta.json") {
				return nil
			}
			switch filepath.Ext(p) {
			case ".json", ".jsonl", ".har":
			default:
				return nil
			}
			f, err := capture.ReadFile(p, nil, capture.Options{})
			if err != nil {
				return nil // not a capture (manifests, sources)
			}
			for _, c := range f.Captures {
				n++
				diags, err := Check(c, nil)
				if err != nil {
					t.Error(err)
				}
				for _, d := range diags {
					t.Errorf("%s: %s %s: %s", c.Name, d.Rule, d.Pointer, d.Message)
				}
			}
			return nil
		})
	}
	if n < 150 {
		t.Errorf("only %d captures checked", n)
	}
}
