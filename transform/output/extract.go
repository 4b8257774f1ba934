package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/measure/units"
)

// An extraction is a shortened copy of a tool output written elsewhere (by
// a model told to keep only the lines that matter). It takes the output's
// place only when it passes every guard of reduce.CheckExtract; otherwise
// the output goes to the smart reduction, then stays as it was.

// The guards of an extraction, in the order they are checked.
const (
	GuardSubsequence = reduce.GuardSubsequence
	GuardEvidence    = reduce.GuardEvidence
	GuardSavings     = reduce.GuardSavings
	GuardArchive     = reduce.GuardArchive
)

// MaxExtractBytes bounds a candidate file the rule or the command reads.
const MaxExtractBytes = 64 << 20

// Extraction is the verdict of the guards on one candidate.
type Extraction struct {
	Accepted bool   `json:"accepted"`
	Refused  string `json:"refused,omitempty"`
	Handle   string `json:"handle"`
	// Reducer names the reduction whose protected evidence the candidate
	// must keep, and Evidence how many strings that is.
	Reducer  string `json:"evidence_of"`
	Evidence int    `json:"evidence"`
	// The first candidate line that is not the next verbatim line of the
	// original, and the original line the one before it matched.
	Line     int    `json:"line,omitempty"`
	LineText string `json:"line_text,omitempty"`
	Matched  int    `json:"after_original_line,omitempty"`
	// Missing evidence, with the original line holding each.
	Missing []MissingEvidence `json:"missing,omitempty"`
	// Sizes: the original, the returned text (candidate and recovery
	// label) and the saving both thresholds require.
	OriginalBytes int     `json:"original_bytes"`
	ReturnedBytes int     `json:"returned_bytes,omitempty"`
	NeedBytes     int     `json:"need_saved_bytes,omitempty"`
	MinSavedBytes int     `json:"min_saved_bytes"`
	MinSavedRatio float64 `json:"min_saved_ratio"`
	ArchiveErr    string  `json:"archive_error,omitempty"`
	// Text is what is returned in the original's place when accepted.
	Text string `json:"-"`
}

// MissingEvidence is a protected evidence string a candidate lacks.
type MissingEvidence struct {
	Line int    `json:"original_line"`
	Text string `json:"text"`
}

// Saved returns the bytes the returned text saves (0 when the savings
// were not computed).
func (x Extraction) Saved() int {
	if x.ReturnedBytes == 0 {
		return 0
	}
	return x.OriginalBytes - x.ReturnedBytes
}

// CheckExtract runs the extraction guards over candidate as a shortened
// copy of original with the reduction settings s (nil: the defaults).
// keep archives the original and reads it back; it is called only when
// the other guards accept, and its error refuses the candidate.
func CheckExtract(original, candidate string, s *Settings, keep func(original string) error) Extraction {
	if s == nil {
		s = Defaults
	}
	v := reduce.CheckExtract(original, candidate, handleOf(original), reduceOptions(s), thresholds(s), keep)
	x := Extraction{
		Accepted: v.Accepted, Refused: v.Refused, Handle: v.Handle, Reducer: v.Reducer, Evidence: v.Evidence,
		Line: v.Line, LineText: v.LineText, Matched: v.Matched,
		OriginalBytes: v.OriginalBytes, ReturnedBytes: v.ReturnedBytes, NeedBytes: v.NeedBytes,
		MinSavedBytes: s.MinSavedBytes, MinSavedRatio: s.MinSavedRatio, ArchiveErr: v.ArchiveErr, Text: v.Text,
	}
	for _, m := range v.Missing {
		x.Missing = append(x.Missing, MissingEvidence{Line: m.Line, Text: m.Text})
	}
	return x
}

// Recoverable returns a keep function for CheckExtract that archives the
// original in k and reads it back, requiring the exact bytes.
func Recoverable(k archive.Keeper) func(string) error {
	return func(original string) error {
		h, err := k.Put([]byte(original))
		if err != nil {
			return err
		}
		got, err := k.Get(h)
		if err != nil {
			return err
		}
		if string(got) != original {
			return fmt.Errorf("%s reads back %d bytes, not the %d stored", h, len(got), len(original))
		}
		return nil
	}
}

// Archived returns a keep function for CheckExtract that requires the
// original to be in st already, verified.
func Archived(st *archive.Store) func(string) error {
	return func(original string) error {
		h := handleOf(original)
		got, err := st.Get(h)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Dir(), err)
		}
		if string(got) != original {
			return fmt.Errorf("%s does not hold the original's bytes", h)
		}
		return nil
	}
}

// CandidateName is the file name under output.extract_dir of the
// candidate extraction of text: the 43 characters of its handle after
// sko:, then .txt.
func CandidateName(text string) string {
	return strings.TrimPrefix(handleOf(text), archive.Prefix) + ".txt"
}

// readCandidate reads the candidate extraction of text from dir; ok is
// false when there is none.
func readCandidate(dir, text string) (string, bool, error) {
	data, err := untrusted.ReadFile(filepath.Join(dir, CandidateName(text)), MaxExtractBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(data), true, nil
}

// Why says in one line why a refused extraction was refused.
func (x Extraction) Why() string {
	switch x.Refused {
	case GuardSubsequence:
		return fmt.Sprintf("line %d of the extraction is not the next verbatim line of the original after line %d", x.Line, x.Matched)
	case GuardEvidence:
		m := x.Missing[0]
		more := ""
		if len(x.Missing) > 1 {
			more = fmt.Sprintf(" and %d more", len(x.Missing)-1)
		}
		return fmt.Sprintf("protected evidence of line %d of the original is missing%s", m.Line, more)
	case GuardSavings:
		return fmt.Sprintf("saves %s B of %s B, short of the %s B required (min_saved_bytes %s, min_saved_ratio %g)",
			units.Thousands(x.Saved()), units.Thousands(x.OriginalBytes), units.Thousands(x.NeedBytes), units.Thousands(x.MinSavedBytes), x.MinSavedRatio)
	case GuardArchive:
		return "the original is not recoverable from the archive: " + x.ArchiveErr
	}
	return ""
}

// WriteExtractText prints a verdict for people: accepted with its saving,
// or the guard that refused and where.
func WriteExtractText(w io.Writer, x Extraction, quiet bool) error {
	var b strings.Builder
	if x.Accepted {
		if !quiet {
			fmt.Fprintf(&b, "accepted: %s B → %s B (saves %s B, %s), %d evidence strings of %s kept, original %s\n",
				units.Thousands(x.OriginalBytes), units.Thousands(x.ReturnedBytes), units.Thousands(x.Saved()),
				units.PercentText(x.Saved(), x.OriginalBytes), x.Evidence, x.Reducer, x.Handle)
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "refused by the %s guard: %s\n", x.Refused, x.Why())
	switch x.Refused {
	case GuardSubsequence:
		fmt.Fprintf(&b, "  candidate line %d: %s\n", x.Line, escape.Text(x.LineText))
	case GuardEvidence:
		for i, m := range x.Missing {
			if i == 20 {
				fmt.Fprintf(&b, "  … %d more\n", len(x.Missing)-i)
				break
			}
			fmt.Fprintf(&b, "  original line %d: %s\n", m.Line, escape.Text(m.Text))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteExtractJSON prints a verdict as one JSON object.
func WriteExtractJSON(w io.Writer, x Extraction) error {
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(escape.JSON(data), '\n'))
	return err
}
