package report

import (
	"testing"

	"github.com/skillopt/skillopt/rules"
)

// Finish lists each consequence right after its cause; one whose cause is
// not in the report stays in position order.
func TestFinishCausesFirst(t *testing.T) {
	r := &Report{Diagnostics: []Diagnostic{
		{Rule: "SO502", Severity: rules.Error, Capture: "c", Pointer: "/messages/1/content/0", Line: 3, CauseRule: "SO502", CausePointer: "/messages/2/content/0"},
		{Rule: "SO501", Severity: rules.Error, Capture: "c", Pointer: "/tools/0/name", Line: 1},
		{Rule: "SO502", Severity: rules.Error, Capture: "c", Pointer: "/messages/2/content/0", Line: 4},
		{Rule: "SO503", Severity: rules.Error, Capture: "c", Pointer: "/messages/5", Line: 6, CauseRule: "SO503", CausePointer: "/messages/6"},
		{Rule: "SO502", Severity: rules.Error, Capture: "d", Pointer: "/messages/2/content/0", Line: 2},
	}}
	r.Finish()
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Capture+d.Pointer)
	}
	want := []string{"c/tools/0/name", "d/messages/2/content/0", "c/messages/2/content/0", "c/messages/1/content/0", "c/messages/5"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
