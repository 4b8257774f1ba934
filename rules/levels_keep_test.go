package rules

import (
	"fmt"
	"testing"
)

func TestLevelsKept(t *testing.T) {
	diags := func() []Diagnostic {
		return []Diagnostic{{Rule: "SO101"}, {Rule: "SO401"}, {Rule: "SO102"}, {Rule: "SO401"}}
	}
	ids := func(ds []Diagnostic) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Rule)
		}
		return fmt.Sprint(out)
	}
	l := &Levels{Off: map[string]bool{"SO401": true}}
	if got := ids(l.Kept(diags())); got != "[SO101 SO102]" {
		t.Errorf("kept %s", got)
	}
	var none *Levels
	if got := ids(none.Kept(diags())); got != "[SO101 SO401 SO102 SO401]" {
		t.Errorf("no levels kept %s", got)
	}
}
