package render

import (
	"testing"

	"github.com/skillopt/skillopt/trace"
)

func TestPruneOf(t *testing.T) {
	if got := PruneOf(trace.Pruned{}, 3, false); got.Delete == nil || got.Keep != 3 || got.Apply {
		t.Errorf("empty: %+v (the JSON needs \"delete\": [])", got)
	}
	got := PruneOf(trace.Pruned{Kept: 2, Deleted: []trace.PruneEntry{{File: "a_1.json", Skill: "a", Timestamp: 1}}}, 2, true)
	want := Prune{Apply: true, Keep: 2, Kept: 2, Delete: []PruneFile{{File: "a_1.json", Skill: "a", Timestamp: 1}}}
	if got.Apply != want.Apply || got.Kept != want.Kept || len(got.Delete) != 1 || got.Delete[0] != want.Delete[0] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
