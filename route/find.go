package route

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// MaxSettingsBytes bounds a .pi/settings.json.
const MaxSettingsBytes = 4 << 20

// ReadSettings reads and parses the settings file at path. A file that
// cannot be read is an error naming it; bad settings are Errors, one per
// problem.
func ReadSettings(path string) (*Settings, error) {
	data, err := untrusted.ReadFile(path, MaxSettingsBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return Parse(path, data)
}

// FindSettings looks for .pi/settings.json in dir and its parents, up to
// the first that holds .git or is the home folder (dir alone when none
// is); the path is relative to dir when it can be, "" when there is none.
func FindSettings(dir string) string {
	home, _ := os.UserHomeDir()
	var dirs []string
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || d == home {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if top == "" {
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		p := filepath.Join(d, ".pi", "settings.json")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			if rel, err := filepath.Rel(dir, p); err == nil {
				return rel
			}
			return p
		}
	}
	return ""
}
