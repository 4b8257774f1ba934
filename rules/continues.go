package rules

import (
	"bytes"

	"github.com/skillopt/skillopt/capture"
)

// TurnPrefix is what a request of a conversation repeats for the request
// after it, as captured and in the order a prompt cache reads it: its
// tool declarations, its system text and its messages, with the
// cache_control markers left out (they move from turn to turn). These are
// the parts SO405 compares.
type TurnPrefix struct {
	Decls  [][]byte
	System []byte
	Msgs   [][]byte
}

// PrefixOf returns a request's TurnPrefix.
func PrefixOf(c *capture.Capture) TurnPrefix {
	p := partsOf(c)
	t := TurnPrefix{Decls: p.decls, System: p.system, Msgs: make([][]byte, len(p.msgs))}
	for i, m := range p.msgs {
		t.Msgs[i] = stripCacheControl(c.Doc, m)
	}
	return t
}

// ContinuedBy reports whether next is a later turn of the conversation
// whose latest request is p: the same system text; the same tool
// declarations, or those with more among them (a tool search or a
// deferred tool the conversation activates adds its declaration); and
// messages that start with every message of p, which has at least one.
func (p TurnPrefix) ContinuedBy(next TurnPrefix) bool {
	if len(p.Msgs) == 0 || len(next.Msgs) < len(p.Msgs) || !bytes.Equal(p.System, next.System) {
		return false
	}
	for i, m := range p.Msgs {
		if !bytes.Equal(m, next.Msgs[i]) {
			return false
		}
	}
	// p's declarations, in order, among next's.
	k := 0
	for _, d := range next.Decls {
		if k < len(p.Decls) && bytes.Equal(d, p.Decls[k]) {
			k++
		}
	}
	return k == len(p.Decls)
}
