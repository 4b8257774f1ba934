package report

import (
	"strings"
	"testing"

	"github.com/skillopt/skillopt/rules"
)

func TestWouldFix(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		fixed, files, unsafe int
		removals             []string
		applied              bool
		want                 string
	}{
		{name: "nothing", want: "nothing to fix\n"},
		{name: "one", fixed: 1, files: 1, want: "would fix 1 finding in 1 file\n"},
		{name: "removals", fixed: 3, files: 2, removals: []string{"a/.skillopt-tmp-x.1"},
			want: "would remove a/.skillopt-tmp-x.1\nwould fix 3 findings in 2 files\n"},
		{name: "unsafe left", unsafe: 2, want: "nothing to fix\n2 findings more with --unsafe-fixes\n"},
		{name: "unsafe applied", fixed: 2, files: 1, unsafe: 2, applied: true, want: "would fix 2 findings in 1 file\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			WouldFix(&b, tc.fixed, tc.files, tc.removals, tc.unsafe, tc.applied)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

func TestWithFixes(t *testing.T) {
	if out, safe := WithFixes(nil, nil); out == nil || len(out) != 0 || safe != 0 {
		t.Errorf("no findings: %v, %d", out, safe)
	}
	diags := []rules.Diagnostic{{Rule: "SK030", Message: "a"}, {Rule: "SK013", Message: "b"}, {Rule: "SK001", Message: "c"}}
	fixable := func(d rules.Diagnostic) (bool, bool) {
		switch d.Rule {
		case "SK030":
			return true, false
		case "SK013":
			return true, true
		}
		return false, false
	}
	out, safe := WithFixes(diags, fixable)
	if safe != 1 || len(out) != 3 || out[0].Fix != "safe" || out[1].Fix != "unsafe" || out[2].Fix != "" || out[2].Rule != "SK001" {
		t.Errorf("got %+v, %d safe", out, safe)
	}
}
