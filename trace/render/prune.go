package render

import "github.com/skillopt/skillopt/trace"

// PruneOf is the result of a retention run with keep traces per skill,
// applied or planned.
func PruneOf(p trace.Pruned, keep int, apply bool) Prune {
	out := Prune{Apply: apply, Keep: keep, Kept: p.Kept, Delete: []PruneFile{}}
	for _, d := range p.Deleted {
		out.Delete = append(out.Delete, PruneFile{File: d.File, Skill: d.Skill, Timestamp: d.Timestamp})
	}
	return out
}
