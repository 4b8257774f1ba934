package report

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/rules"
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

// WithFixes is the report's diagnostics of a lint run's findings, each
// marked "safe" or "unsafe" when fixable says it has a fix, and how many
// have a safe one. The list is empty, not nil, without findings.
func WithFixes(diags []rules.Diagnostic, fixable func(rules.Diagnostic) (ok, unsafe bool)) (out []Diagnostic, safe int) {
	out = make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		rd := FromRule(d)
		if ok, unsafe := fixable(d); ok {
			rd.Fix = "safe"
			if unsafe {
				rd.Fix = "unsafe"
			} else {
				safe++
			}
		}
		out = append(out, rd)
	}
	return out, safe
}
