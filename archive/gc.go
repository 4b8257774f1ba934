package archive

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// RemoveTemps removes the temporary files of stale (found by Store.Stale
// or StaleIn) and returns those it removed. A file already gone is
// skipped; one that cannot be removed is an error, and the others are
// still removed.
func RemoveTemps(stale []TempFile) ([]TempFile, []error) {
	removed := []TempFile{}
	var errs []error
	for _, st := range stale {
		if err := os.Remove(st.Path); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		removed = append(removed, st)
	}
	return removed, errs
}

// StaleWith returns the temporary files of writers that died last
// modified before cutoff: the archive's own (see Store.Stale), then those
// directly in each of dirs (see StaleIn), in that order.
func (s *Store) StaleWith(cutoff time.Time, dirs []string) ([]TempFile, error) {
	stale, err := s.Stale(cutoff)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		more, err := StaleIn(d, cutoff)
		if err != nil {
			return nil, err
		}
		stale = append(stale, more...)
	}
	return stale, nil
}
