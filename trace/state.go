package trace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillopt/skillopt/internal/atomicfile"
)

// LoadState reads the alert state file at path; a missing file is an
// empty state.
func LoadState(path string) (State, error) {
	data, err := ReadBounded(path, nil, nil)
	if err != nil {
		if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) {
			return State{}, nil
		}
		return State{}, err
	}
	return ReadState(path, data)
}

// SaveState writes the alert state file at path atomically, creating its
// folder.
func SaveState(path string, st State) error {
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	if err == nil {
		err = atomicfile.WriteFile(path, st.Marshal(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("%s: write alert state: %w", path, err)
	}
	return nil
}
