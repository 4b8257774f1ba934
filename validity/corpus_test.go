package validity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// Real requests are valid: none of the family's rules reports anything on
// the provider examples and captures of the shared corpus, except the
// findings testdata/corpus-invalid.txt lists for captures the provider
// rejects — and each of those is still reported.
func TestCorpusHasNoFindings(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	expected := corpusInvalid(t, filepath.Join("..", "testdata", "corpus-invalid.txt"))
	seen := map[string]bool{}
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
					rel, _ := filepath.Rel(root, c.Name)
					if key := filepath.ToSlash(rel) + " " + d.Rule; expected[key] {
						seen[key] = true
						continue
					}
					t.Errorf("%s: %s %s: %s", c.Name, d.Rule, d.Pointer, d.Message)
				}
			}
			return nil
		})
	}
	if n < 150 {
		t.Errorf("only %d captures checked", n)
	}
	for key := range expected {
		if !seen[key] {
			t.Errorf("corpus-invalid.txt lists %s, which is no longer reported", key)
		}
	}
}

// corpusInvalid reads the list of expected findings on corpus captures:
// "CAPTURE RULE reason" lines, keyed "CAPTURE RULE".
func corpusInvalid(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) < 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out[f[0]+" "+f[1]] = true
	}
	return out
}
