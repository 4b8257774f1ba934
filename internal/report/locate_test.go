package report

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// TestLocate: a check finding is located in its capture's file when its
// pointer names a value of the capture as read; otherwise it keeps the
// pointer alone. File findings and unknown captures pass through.
func TestLocate(t *testing.T) {
	data := "{\"model\":\"m\",\n \"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}\n"
	f, err := capture.Read("c.json", []byte(data), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	diags := []rules.Diagnostic{
		{Rule: "SO1", Capture: "c.json", Pointer: "/messages/0/content", Message: "in both"},
		{Rule: "SO2", Capture: "c.json", Pointer: "/tools/0", Message: "only after the transform"},
		{Rule: "SO3", Capture: "c.json", Message: "whole body"},
		{Rule: "SK1", File: "x.md", Line: 3, Column: 4, Message: "a file"},
		{Rule: "SO4", Capture: "other.json", Pointer: "/a", Message: "unknown capture"},
	}
	got := Locate(diags, []*capture.File{f})
	hi := strings.Index(data, `"hi"`)
	col := hi - strings.IndexByte(data, '\n')
	want := []Diagnostic{
		{Rule: "SO1", Capture: "c.json", Pointer: "/messages/0/content", Message: "in both", File: "c.json", Line: 2, Column: col, Column16: col, Offset: hi, Exact: true},
		{Rule: "SO2", Capture: "c.json", Pointer: "/tools/0", Message: "only after the transform", File: "c.json"},
		{Rule: "SO3", Capture: "c.json", Message: "whole body", File: "c.json", Line: 1, Column: 1, Column16: 1, Offset: 0, Exact: true},
		{Rule: "SK1", File: "x.md", Line: 3, Column: 4, Message: "a file"},
		{Rule: "SO4", Capture: "other.json", Pointer: "/a", Message: "unknown capture"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got  %+v\nwant %+v", i, got[i], want[i])
		}
	}
}
