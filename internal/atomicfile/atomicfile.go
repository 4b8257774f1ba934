// Package atomicfile writes files so that readers see either the old
// content or the complete new content, never a partial write.
//
// Every temporary file skillopt creates, here and in the archive, is named
// TempPrefix + a base name + "." + random digits, in the directory of the
// file it will become, so a writer killed before its rename leaves a file
// that is recognisable as garbage (see IsTemp) and that `skillopt archive
// gc` removes.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// TempPrefix starts the name of every temporary file skillopt writes.
const TempPrefix = ".skillopt-tmp-"

// StaleAfter is how long a temporary file may go unmodified before it is
// taken for the leftover of a writer that died: a live writer modifies its
// file at least once per write and renames it away as soon as it is
// complete.
const StaleAfter = time.Hour

// ErrNotRegular reports a target that exists but is not a regular file (a
// symbolic link, directory, FIFO, socket or device).
var ErrNotRegular = errors.New("not a regular file")

// ErrReadOnly reports a regular target without write permission.
var ErrReadOnly = errors.New("read-only")

// IsTemp reports whether a file name (not a path) is one of skillopt's
// temporary files.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, TempPrefix) && len(name) > len(TempPrefix)
}

// TempOf returns the base name a temporary file of CreateTemp was made
// for (".skillopt-tmp-SKILL.md.123" gives "SKILL.md"), and whether name
// has exactly that form: TempPrefix, a base name, a dot and the decimal
// digits CreateTemp chooses.
func TempOf(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, TempPrefix)
	dot := strings.LastIndexByte(rest, '.')
	if !ok || dot <= 0 || dot == len(rest)-1 {
		return "", false
	}
	for _, c := range rest[dot+1:] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return rest[:dot], true
}

// RemoveTemp removes a leftover temporary file: path must name, by its
// base name, a temporary file of CreateTemp (see TempOf) and be a regular
// file, not a symbolic link; anything else is refused.
func RemoveTemp(path string) error {
	if _, ok := TempOf(filepath.Base(path)); !ok {
		return errors.New("not a temporary file of skillopt's")
	}
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("is not a regular file, %w", ErrNotRegular)
	}
	return os.Remove(path)
}

// CreateTemp creates a new temporary file in dir for a file named base,
// with mode 0600.
func CreateTemp(dir, base string) (*os.File, error) {
	return os.CreateTemp(dir, TempPrefix+strings.ReplaceAll(base, "*", "_")+".*")
}

// Options tune Write.
type Options struct {
	// Perm is the mode of a file that does not exist yet; an existing file
	// keeps its own mode.
	Perm os.FileMode
	// Force replaces a read-only file.
	Force bool
}

// Target describes what Check found at a path.
type Target struct {
	Exists bool
	Mode   os.FileMode // permission bits of an existing file
}

// Check reports whether path may be replaced by Write: it must not exist
// (in an existing folder), or be a regular file (a symbolic link is refused, not followed) that is
// writable unless force is set. The errors wrap ErrNotRegular and
// ErrReadOnly.
func Check(path string, force bool) (Target, error) {
	st, err := os.Lstat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return Target{}, err
		}
		// A new file: its folder must exist, or the write fails only
		// after the work is done.
		dir := filepath.Dir(path)
		if dst, err := os.Stat(dir); err != nil || !dst.IsDir() {
			return Target{}, fmt.Errorf("folder %s does not exist", dir)
		}
		return Target{}, nil
	}
	switch m := st.Mode(); {
	case m&fs.ModeSymlink != 0:
		return Target{}, fmt.Errorf("is a symbolic link, %w; name the file it points to, or remove the link", ErrNotRegular)
	case m.IsDir():
		return Target{}, fmt.Errorf("is a directory, %w", ErrNotRegular)
	case !m.IsRegular():
		return Target{}, fmt.Errorf("is a %s, %w", kind(m), ErrNotRegular)
	case m.Perm()&0o200 == 0 && !force:
		return Target{}, fmt.Errorf("is %w (mode %04o); use --force to replace it", ErrReadOnly, m.Perm())
	}
	return Target{Exists: true, Mode: st.Mode().Perm()}, nil
}

func kind(m os.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// WriteFile writes data to path atomically; see Write. perm is the mode
// of a new file.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, data, Options{Perm: perm})
}

// Write writes data to a temporary file in path's directory, syncs it and
// renames it over path. What is at path must pass Check: a symbolic link,
// FIFO or device is refused rather than replaced by a regular file, and a
// read-only file is refused unless o.Force is set. An existing file keeps
// its permission bits.
func Write(path string, data []byte, o Options) (err error) {
	if _, err := Check(path, o.Force); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := CreateTemp(dir, base)
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	// Check again just before the rename: the target may have changed
	// while the data was written. The mode is taken from this look, so an
	// existing file keeps the mode it has now.
	t, err := Check(path, o.Force)
	if err != nil {
		return err
	}
	perm := o.Perm
	if t.Exists {
		perm = t.Mode
	}
	if err = os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// SameFile reports whether a and b name the same existing file, following
// symbolic links (so a link to a file and a hard link to it both count).
func SameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(sa, sb)
}

// Stale is a leftover temporary file.
type Stale struct {
	Path     string    `json:"path"`
	Bytes    int64     `json:"bytes"`
	Modified time.Time `json:"modified"`
}

// FindStale returns the temporary files directly in dir (not below it)
// last modified before cutoff. A missing directory has none.
func FindStale(dir string, cutoff time.Time) ([]Stale, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []Stale
	for _, en := range entries {
		if !IsTemp(en.Name()) || !en.Type().IsRegular() {
			continue
		}
		info, err := en.Info()
		if err != nil {
			continue // removed meanwhile: its writer finished
		}
		if info.ModTime().Before(cutoff) {
			out = append(out, Stale{Path: filepath.Join(dir, en.Name()), Bytes: info.Size(), Modified: info.ModTime().UTC()})
		}
	}
	return out, nil
}
