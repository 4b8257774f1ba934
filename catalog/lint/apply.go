package lint

// Applying fixes: the files rewritten, the leftover temporary files
// removed, or both shown as a unified diff instead.

import (
	"errors"
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/unified"
)

// Applied is what applying the fixes of a run did.
type Applied struct {
	// Fixed counts the findings resolved: by the files rewritten and by
	// the temporary files removed.
	Fixed int
	// Changed is set when there were fixes to write or a file was removed:
	// the skills must be linted again to report what is left.
	Changed bool
}

// Apply writes the fixes of the run atomically and removes the leftover
// temporary files (SK065). A file that cannot be written or removed is
// handed to warn and the others are still fixed; removed is told each file
// removed, in order.
func (r *Report) Apply(o FixOptions, warn func(error), removed func(path string)) Applied {
	var a Applied
	fixes, err := r.Fixes(o)
	if err != nil {
		warn(err)
	}
	for _, f := range fixes {
		if err := atomicfile.WriteFile(f.Path, f.After, 0o644); err != nil {
			if errors.Is(err, atomicfile.ErrReadOnly) {
				err = errors.New("the file is read-only")
			}
			warn(fmt.Errorf("%s: not fixed: %w", f.Path, err))
			continue
		}
		a.Fixed += f.Fixed
	}
	n := 0
	for _, p := range r.Removals() {
		if err := atomicfile.RemoveTemp(p); err != nil {
			warn(fmt.Errorf("%s: not removed: %w", p, err))
			continue
		}
		n++
		removed(p)
	}
	a.Fixed += n
	a.Changed = len(fixes) > 0 || n > 0
	return a
}

// DiffSummary is what a diff of the fixes would fix.
type DiffSummary struct {
	// Fixed counts the findings the fixes resolve, removals included, in
	// Files files.
	Fixed, Files int
	// Removals are the files a fix would remove; they have no diff.
	Removals []string
	// Unsafe counts the findings with an unsafe fix.
	Unsafe int
}

// Diff writes the fixes of the run to w as a unified diff, one file after
// the other, and writes nothing else. A problem computing the fixes is
// handed to warn; an error writing w ends the diff.
func (r *Report) Diff(w io.Writer, o FixOptions, warn func(error)) (DiffSummary, error) {
	var s DiffSummary
	fixes, err := r.Fixes(o)
	if err != nil {
		warn(err)
	}
	for _, f := range fixes {
		d := unified.Diff(f.Path, f.Path, string(f.Before), string(f.After), 3)
		if _, err := io.WriteString(w, d); err != nil {
			return s, err
		}
		s.Fixed += f.Fixed
	}
	s.Removals = r.Removals()
	s.Fixed += len(s.Removals)
	s.Files = len(fixes) + len(s.Removals)
	_, s.Unsafe = r.FixCounts()
	return s, nil
}
