package route

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindSettings(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		t.Helper()
		mk(filepath.Dir(p))
		if err := os.WriteFile(filepath.Join(root, p), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// repo/.git bounds the search; repo/.pi/settings.json is found from a
	// folder below; outside/.pi/settings.json is a folder, not a file.
	mk("repo/.git")
	write("repo/.pi/settings.json")
	mk("repo/a/b")
	mk("outside/.pi/settings.json")
	mk("lone/x")
	write("lone/.pi/settings.json")
	for _, tc := range []struct{ dir, want string }{
		{"repo", filepath.Join(".pi", "settings.json")},
		{"repo/a/b", filepath.Join("..", "..", ".pi", "settings.json")},
		{"outside", ""},
		// Without .git above it, only the folder itself is searched.
		{"lone/x", ""},
	} {
		if got := FindSettings(filepath.Join(root, tc.dir)); got != tc.want {
			t.Errorf("FindSettings(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}
