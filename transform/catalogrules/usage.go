package catalogrules

import (
	"time"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/trace"
)

// ReadUsage reads the skill runs of execution traces and Pi sessions
// (files, or folders of *.json and *.jsonl, as trace reads them) as
// usage evidence, each run one use of its skill at the time it finished,
// decayed at now (catalog.DecayUsage). It returns the errors of the paths
// and files that could not be read; the usage of the others stands.
func ReadUsage(paths []string, now time.Time) (catalog.Usage, []error) {
	files, errs := trace.Expand(paths)
	sums, rerrs := trace.Load(files, nil, trace.Options{})
	errs = append(errs, rerrs...)
	uses := make([]catalog.Use, 0, len(sums))
	for _, s := range sums {
		u := catalog.Use{Skill: s.Skill}
		if s.Timestamp > 0 {
			u.At = time.UnixMilli(s.Timestamp)
		}
		uses = append(uses, u)
	}
	return catalog.DecayUsage(uses, now), errs
}
