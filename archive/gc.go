package archive

import (
	"errors"
	"io/fs"
	"os"
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
