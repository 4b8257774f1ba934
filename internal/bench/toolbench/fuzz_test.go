package toolbench

import (
	"io/fs"
	"testing"
)

// FuzzParseSet: any three files either load into a set whose labels all
// name catalog tools and whose ids are unique, or give an error; nothing
// panics.
func FuzzParseSet(f *testing.F) {
	f.Add([]byte(`[{"name":"a","description":"x","parameters":{"type":"object"}}]`), []byte(`[{"id":"p1","prompt":"do it","needs":["a"]}]`), []byte(`[]`))
	f.Add([]byte(`[{"name":"a"},{"name":"b"}]`), []byte(``), []byte(`[{"id":"p1","prompt":"x","needs":[]},{"id":"p2","prompt":"y","needs":["b","a"]}]`))
	f.Add([]byte("[\n{\"name\":\"a\",\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}]"), []byte(`[{"id":"p1","needs":["c"]}]`), []byte(`[{"id":"p1"}]`))
	f.Fuzz(func(t *testing.T, catalog, heldout, tuned []byte) {
		files := map[string][]byte{CatalogFile: catalog, HeldOutFile: heldout, TunedFile: tuned}
		for name, data := range files {
			if len(data) == 0 {
				delete(files, name)
			}
		}
		set, err := parseSet("fuzz", func(name string) ([]byte, error) {
			if data, ok := files[name]; ok {
				return data, nil
			}
			return nil, fs.ErrNotExist
		})
		if err != nil {
			return
		}
		names := map[string]bool{}
		for _, tool := range set.Tools {
			if tool.Name == "" || names[tool.Name] {
				t.Fatalf("tool name %q empty or repeated", tool.Name)
			}
			names[tool.Name] = true
		}
		ids := map[string]bool{}
		for _, p := range append(append([]Prompt{}, set.HeldOut...), set.Tuned...) {
			if p.ID == "" || ids[p.ID] {
				t.Fatalf("prompt id %q empty or repeated", p.ID)
			}
			ids[p.ID] = true
			for _, n := range p.Needs {
				if !names[n] {
					t.Fatalf("prompt %q needs undeclared %q", p.ID, n)
				}
			}
		}
		if len(ids) == 0 {
			t.Fatal("a set without prompts loaded")
		}
	})
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\n\nx")
	for _, tt := range []struct{ off, line, col int }{
		{1, 1, 1}, {2, 1, 2}, {4, 2, 1}, {5, 2, 2}, {8, 4, 1}, {0, 1, 1}, {99, 4, 2},
	} {
		if line, col := lineCol(data, tt.off); line != tt.line || col != tt.col {
			t.Errorf("lineCol(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
	}
}
