package rules

// Kept is diags without the diagnostics of the rules l turns off (through
// a severity "off" or a disabled rule, by any reference form), in order.
// It reuses the storage of diags.
func (l *Levels) Kept(diags []Diagnostic) []Diagnostic {
	out := diags[:0]
	for _, d := range diags {
		if l != nil && l.Off[d.Rule] {
			continue
		}
		out = append(out, d)
	}
	return out
}
