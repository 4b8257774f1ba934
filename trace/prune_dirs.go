package trace

import (
	"fmt"
	"os"
)

// Pruned is retention over several folders: how many traces stay, and
// the ones deleted (or that would be, in a dry run), folder by folder.
type Pruned struct {
	Kept    int
	Deleted []PruneEntry
}

// Prune plans retention of keep traces per skill in each of dirs (see
// PlanPrune) and, when apply is set, deletes what each plan deletes (see
// PrunePlan.Apply). A name that is not a folder, a file that is no trace
// and a file that could not be deleted are returned as errors, in the
// order they were met; the other folders are still pruned.
func Prune(dirs []string, keep int, apply bool) (Pruned, []error) {
	var out Pruned
	var errs []error
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			errs = append(errs, fmt.Errorf("%s: not a directory", dir))
			continue
		}
		plan := PlanPrune(dir, keep)
		for _, err := range plan.Errors {
			errs = append(errs, fmt.Errorf("%w; not pruned", err))
		}
		out.Kept += len(plan.Keep)
		done := plan.Delete
		if apply {
			var failed []error
			done, failed = plan.Apply()
			errs = append(errs, failed...)
		}
		out.Deleted = append(out.Deleted, done...)
	}
	return out, errs
}
