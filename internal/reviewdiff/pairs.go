package reviewdiff

import (
	"bytes"
	"fmt"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// Transformed pairs each capture of a run with its transform, the rules'
// changes listed by pointer.
func Transformed(results []*rules.Result) []Pair {
	var pairs []Pair
	for _, r := range results {
		name := r.Original.Name
		changes := []Change{}
		for _, ch := range r.Changes() {
			changes = append(changes, Change{Capture: name, Pointer: ch.Pointer, BytesBefore: ch.BytesBefore, BytesAfter: ch.BytesAfter, Rule: ch.Rule})
		}
		pairs = append(pairs, Pair{Name: name, A: r.Original, B: r.Final, NameA: name + " (original)", NameB: name + " (transformed)", Changes: changes})
	}
	return pairs
}

// Between pairs the captures of two files in order; files that hold
// different numbers of captures are an error.
func Between(fa, fb *capture.File) ([]Pair, error) {
	if len(fa.Captures) != len(fb.Captures) {
		return nil, fmt.Errorf("%s holds %d captures but %s holds %d", fa.Name, len(fa.Captures), fb.Name, len(fb.Captures))
	}
	var pairs []Pair
	for i := range fa.Captures {
		a, b := fa.Captures[i], fb.Captures[i]
		pairs = append(pairs, Pair{Name: a.Name + " → " + b.Name, A: a, B: b, NameA: a.Name, NameB: b.Name})
	}
	return pairs, nil
}

// Differ tells whether the bodies of any pair differ.
func Differ(pairs []Pair) bool {
	for _, p := range pairs {
		if !bytes.Equal(p.A.Body, p.B.Body) {
			return true
		}
	}
	return false
}
