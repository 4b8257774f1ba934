package validity

import (
	"strconv"
	"strings"
)

// Finding is one error of a capture as Causes sees it: the rule that
// reported it ("schema" for the provider's schema), where, and whether
// that is a scalar (a string, number, boolean or null).
type Finding struct {
	Rule, Pointer string
	Scalar        bool
}

// pairingRules report both sides of a broken tool call: the call left
// unanswered in one turn and the answer that names no call in the next.
var pairingRules = map[string]bool{"SO502": true, "SO503": true, "SO504": true, "SO505": true}

// Causes finds the errors of one capture that follow from another of its
// errors, so that a report leads with the root cause: cause[i] is the
// index of the finding finding i follows from, or -1, and dup[i] is set
// when finding i says again what its cause says (drop it). The relations
// are decided from the rules and pointers alone:
//
//   - an error of a request-validity rule at, or inside, the element a
//     schema error rejects follows from the schema error (the element is
//     malformed; what the rule says of it is a consequence), and one at
//     the very scalar the schema rejects is a duplicate: both say the
//     value is wrong, which one change fixes;
//   - of a pairing rule's two errors on adjacent turns of the same list
//     (messages, contents, input), the one on the earlier turn (a call
//     left unanswered) follows from the one on the later turn, where the
//     answer was changed, dropped or misnamed.
//
// A finding never follows from itself or from a consequence, so the
// relation has no chains.
func Causes(fs []Finding) (cause []int, dup []bool) {
	cause, dup = make([]int, len(fs)), make([]bool, len(fs))
	for i := range cause {
		cause[i] = -1
	}
	for i, f := range fs {
		if f.Rule == "schema" {
			continue
		}
		for j, g := range fs {
			if g.Rule == "schema" && within(f.Pointer, g.Pointer) {
				cause[i], dup[i] = j, f.Scalar && f.Pointer == g.Pointer
				break
			}
		}
		if cause[i] >= 0 || !pairingRules[f.Rule] {
			continue
		}
		list, turn, ok := turnOf(f.Pointer)
		if !ok {
			continue
		}
		for j, g := range fs {
			if g.Rule != f.Rule {
				continue
			}
			if l, t, ok := turnOf(g.Pointer); ok && l == list && t == turn+1 {
				cause[i] = j
				break
			}
		}
	}
	// A cause that is itself a consequence gives way to its own cause's
	// order only: keep the relation one level deep.
	for i, c := range cause {
		if c >= 0 && cause[c] >= 0 {
			cause[i] = -1
		}
	}
	return cause, dup
}

// within reports whether pointer p is q or inside it. The whole body ("")
// is no element: an error there says nothing about one.
func within(p, q string) bool {
	return q != "" && (p == q || strings.HasPrefix(p, q+"/"))
}

// turnOf splits a pointer into a turn list ("/messages", "/contents",
// "/input") and the turn's index.
func turnOf(p string) (list string, turn int, ok bool) {
	for _, l := range []string{"/messages/", "/contents/", "/input/"} {
		if rest, found := strings.CutPrefix(p, l); found {
			num, _, _ := strings.Cut(rest, "/")
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 {
				return "", 0, false
			}
			return l[:len(l)-1], n, true
		}
	}
	return "", 0, false
}
