package report

import (
	"fmt"
	"io"
)

// WouldFix is what `lint --diff` says beside its diff: the files a fix
// would remove, how many findings in how many files the fixes resolve,
// and, unless unsafe fixes were applied, how many more unsafe fixes would.
func WouldFix(w io.Writer, fixed, files int, removals []string, unsafe int, unsafeApplied bool) {
	for _, p := range removals {
		fmt.Fprintf(w, "would remove %s\n", p)
	}
	if fixed == 0 {
		fmt.Fprintln(w, "nothing to fix")
	} else {
		fmt.Fprintf(w, "would fix %s in %s\n", plural(fixed, "finding"), plural(files, "file"))
	}
	if unsafe > 0 && !unsafeApplied {
		fmt.Fprintf(w, "%s more with --unsafe-fixes\n", plural(unsafe, "finding"))
	}
}
