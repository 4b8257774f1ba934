package report

import (
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Locate converts the diagnostics of the rule engine for a report. A
// capture finding gets its capture's file and, when its pointer names a
// value of the capture as read, that value's position in the file; a
// pointer that only the transformed body has stays a pointer.
func Locate(diags []rules.Diagnostic, files []*capture.File) []Diagnostic {
	type origin struct {
		c   *capture.Capture
		src *Source
	}
	byName := map[string]origin{}
	for _, f := range files {
		src := NewSource(f.Data)
		for _, c := range f.Captures {
			if _, dup := byName[c.Name]; !dup {
				byName[c.Name] = origin{c, src}
			}
		}
	}
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		rd := FromRule(d)
		if o, ok := byName[d.Capture]; ok && d.File == "" {
			rd.File = o.c.File.Name
			if i, err := o.c.Doc.Lookup(d.Pointer); err == nil {
				off, exact := o.c.FileOffset(int(o.c.Doc.Nodes[i].Start))
				o.src.Place(&rd, off, exact)
			}
		}
		out = append(out, rd)
	}
	return out
}
