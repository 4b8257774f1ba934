package reduce

import (
	"math"
	"strings"
)

// The guards an extraction passes, in the order they are checked. An
// extraction is a shortened copy of an output that something else (a
// model, a person) wrote; it is returned in place of the output only when
// every guard accepts it, and otherwise the output goes to the smart
// reducers, then stays as it is.
const (
	// GuardSubsequence: every line of the extraction is a line of the
	// original, verbatim, in the original's order.
	GuardSubsequence = "subsequence"
	// GuardEvidence: every protected evidence string of the original (as
	// the smart reduction would protect it) is in the extraction.
	GuardEvidence = "evidence"
	// GuardSavings: the returned text, recovery label included, clears
	// both saving thresholds.
	GuardSavings = "savings"
	// GuardArchive: the original is archived and reads back exactly.
	GuardArchive = "archive"
)

// ExtractReducer is the name the recovery label of an accepted extraction
// gives its reducer.
const ExtractReducer = "extract"

// EvidenceLine is a protected evidence string and the 1-based line of the
// original that holds it.
type EvidenceLine struct {
	Line int
	Text string
}

// Extract is the guards' verdict on one candidate extraction.
type Extract struct {
	Accepted bool
	// Refused names the first guard that refused the candidate ("" when
	// accepted).
	Refused string
	// Reducer is the reducer whose protected evidence was required, and
	// Evidence how many distinct evidence strings it names.
	Reducer  string
	Evidence int
	// Line is the 1-based line of the candidate that is not the next
	// verbatim line of the original (GuardSubsequence), LineText that
	// line, and Matched the original's line the line before it matched
	// (0: none did).
	Line     int
	LineText string
	Matched  int
	// Missing are the evidence strings the candidate lacks (GuardEvidence).
	Missing []EvidenceLine
	// OriginalBytes and ReturnedBytes are the sizes of the original and of
	// the text returned in its place (candidate and recovery label); the
	// saving must be at least NeedBytes.
	OriginalBytes, ReturnedBytes, NeedBytes int
	Thresholds                              Thresholds
	// Handle names the original in the archive; ArchiveErr is why it could
	// not be kept or read back (GuardArchive).
	Handle     string
	ArchiveErr string
	// Text is the text returned in place of the original when accepted.
	Text string
}

// Saved returns the bytes the returned text saves.
func (e Extract) Saved() int { return e.OriginalBytes - e.ReturnedBytes }

// CheckExtract runs the guards over candidate as an extraction of
// original, in order: ordered verbatim subsequence, protected evidence,
// saving thresholds, recoverable archive. Lines compare without their line
// terminators (a CRLF original may be quoted with LF). The evidence is the
// one the smart reduction of original protects (the generic reducer's when
// no reducer shortens it). keep is asked to archive the original under
// handle only when the first three guards accept; its error refuses the
// candidate. Apart from keep the function is pure.
func CheckExtract(original, candidate, handle string, o Options, t Thresholds, keep func(original string) error) Extract {
	v := Extract{OriginalBytes: len(original), Thresholds: t, Handle: handle}
	d := newDoc(original)
	name, ev := smartEvidence(d, o)
	v.Reducer, v.Evidence = name, len(ev)

	cand := splitLines(candidate)
	if at, matched := subsequence(d, cand); at >= 0 {
		v.Refused, v.Line, v.LineText, v.Matched = GuardSubsequence, at+1, cand[at], matched
		return v
	}
	if miss := Missing(ev, candidate); len(miss) > 0 {
		v.Refused = GuardEvidence
		at := linesOf(d, miss)
		for _, m := range miss {
			v.Missing = append(v.Missing, EvidenceLine{Line: at[m], Text: m})
		}
		return v
	}
	out := candidate
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	out += SmartLabel(ExtractReducer, d.n(), len(original), handle)
	v.ReturnedBytes = len(out)
	v.NeedBytes = max(1, t.MinSavedBytes, int(math.Ceil(t.MinSavedRatio*float64(len(original)))))
	if !t.Clears(len(original), len(out)) {
		v.Refused = GuardSavings
		return v
	}
	if keep == nil {
		v.Refused, v.ArchiveErr = GuardArchive, "no archive"
		return v
	}
	if err := keep(original); err != nil {
		v.Refused, v.ArchiveErr = GuardArchive, err.Error()
		return v
	}
	v.Accepted, v.Text = true, out
	return v
}

// smartEvidence returns the reducer the smart reduction of d uses (the
// generic one when none shortens it) and the evidence it protects.
func smartEvidence(d *doc, o Options) (string, []string) {
	name := generic.name
	if res, ok := Reduce(d.text, o); ok {
		name = res.Reducer
	}
	r, _ := byName(name)
	return name, planWith(r, d, o).evidenceOf(d)
}

// splitLines returns the lines of s without their terminators; a final
// line terminator does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// subsequence returns the index of the first candidate line that is not
// the next line of d in order, and the 1-based line of d the line before
// it matched; -1 when every line matches. A greedy walk is exact: taking
// the earliest match of each line never rules out a later one.
func subsequence(d *doc, cand []string) (at, matched int) {
	j := 0
	for i, c := range cand {
		for j < d.n() && d.raw(j) != c {
			j++
		}
		if j == d.n() {
			return i, matched
		}
		j++
		matched = j
	}
	return -1, matched
}

// linesOf returns the 1-based line of d that first holds each of strs
// (absent: none does). Most evidence strings are whole lines, found by
// one walk; the others are searched for line by line.
func linesOf(d *doc, strs []string) map[string]int {
	at := make(map[string]int, len(strs))
	want := make(map[string]bool, len(strs))
	for _, s := range strs {
		want[s] = true
	}
	for i := 0; i < d.n(); i++ {
		if l := d.raw(i); want[l] && at[l] == 0 {
			at[l] = i + 1
		}
	}
	for _, s := range strs {
		for i := 0; at[s] == 0 && i < d.n(); i++ {
			if strings.Contains(d.raw(i), s) {
				at[s] = i + 1
			}
		}
	}
	return at
}
