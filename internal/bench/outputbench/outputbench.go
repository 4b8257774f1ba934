// Package outputbench runs the output reducers (SO302, SO301) over a folder
// of real command outputs and checks that the evidence listed beside each
// survives and that the archived original comes back byte for byte.
package outputbench

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/transform/output"
)

// Row is one output of the folder.
type Row struct {
	File          string   `json:"file"`
	BytesBefore   int      `json:"bytes_before"`
	BytesAfter    int      `json:"bytes_after"`
	SavedPct      float64  `json:"saved_pct"`
	Reducer       string   `json:"reducer"`
	Evidence      int      `json:"evidence"`
	EvidenceKept  int      `json:"evidence_kept"`
	Missing       []string `json:"missing,omitempty"`
	Recovery      string   `json:"recovery"`
	ReduceMillis  float64  `json:"reduce_ms"`
	ArchiveMillis float64  `json:"archive_ms"`
	Millis        float64  `json:"ms"`
}

// Totals sums the rows.
type Totals struct {
	Files         int     `json:"files"`
	Reduced       int     `json:"reduced"`
	BytesBefore   int     `json:"bytes_before"`
	BytesAfter    int     `json:"bytes_after"`
	SavedPct      float64 `json:"saved_pct"`
	MedianSaved   float64 `json:"median_saved_pct"`
	Evidence      int     `json:"evidence"`
	EvidenceKept  int     `json:"evidence_kept"`
	ExactRecovery int     `json:"exact_recovery"`
	MedianMillis  float64 `json:"median_ms"`
	MaxMillis     float64 `json:"max_ms"`
}

// Failed reports lost evidence or an inexact recovery.
func (t Totals) Failed() bool { return t.EvidenceKept < t.Evidence || t.ExactRecovery < t.Reduced }

// maxFile bounds one input file (a tool output or its evidence).
const maxFile = 64 << 20

// Files lists the output files of dir, recursively: every file but
// *.evidence, *.md and dot files, as relative names, sorted.
func Files(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".evidence") || strings.HasSuffix(p, ".md") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	slices.Sort(out)
	return out, nil
}

// ReadEvidence reads NAME.evidence: one string per line, blank lines and
// lines starting with "#" ignored. A missing file lists nothing.
func ReadEvidence(path string) ([]string, error) {
	data, err := untrusted.ReadFile(path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseEvidence(data), nil
}

// ParseEvidence splits the content of an evidence file into its strings.
func ParseEvidence(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// File reduces dir/name as a tool result with the triggers and
// thresholds of s, archives the original in store and reads it back.
func File(dir, name string, store *archive.Store, s *output.Settings) (Row, error) {
	path := filepath.Join(dir, name)
	data, err := untrusted.ReadFile(path, maxFile)
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", path, err)
	}
	if !utf8.Valid(data) {
		return Row{}, fmt.Errorf("%s: not UTF-8 text (a tool result is a JSON string)", path)
	}
	evidence, err := ReadEvidence(strings.TrimSuffix(path, filepath.Ext(path)) + ".evidence")
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", path, err)
	}
	text := string(data)
	row := Row{File: name, BytesBefore: len(data), BytesAfter: len(data), Reducer: "none", Recovery: "n/a", Evidence: len(evidence)}
	start := time.Now()
	red, ok := output.Reduce(text, s)
	reduced := time.Now()
	out := text
	if ok {
		h, err := store.Put(data)
		if err != nil {
			return Row{}, fmt.Errorf("%s: %w", path, err)
		}
		if h != red.Handle {
			return Row{}, fmt.Errorf("%s: archive returned handle %s, want %s", path, h, red.Handle)
		}
		out = red.Text
		row.Reducer = red.Reducer
		row.BytesAfter = len(out)
	}
	done := time.Now()
	row.ReduceMillis = bench.Millis(reduced.Sub(start))
	row.ArchiveMillis = bench.Millis(done.Sub(reduced))
	row.Millis = bench.Millis(done.Sub(start))
	row.SavedPct = bench.Pct(row.BytesBefore-row.BytesAfter, row.BytesBefore)
	for _, ev := range evidence {
		if strings.Contains(out, ev) {
			row.EvidenceKept++
		} else {
			row.Missing = append(row.Missing, ev)
		}
	}
	if ok {
		got, err := store.Get(red.Handle)
		switch {
		case err != nil:
			row.Recovery = "failed: " + err.Error()
		case !bytes.Equal(got, data):
			row.Recovery = "failed: differs"
		default:
			row.Recovery = "exact"
		}
	}
	return row, nil
}

// Sum totals rows.
func Sum(rows []Row) Totals {
	var t Totals
	var saved, ms []float64
	for _, r := range rows {
		t.Files++
		t.BytesBefore += r.BytesBefore
		t.BytesAfter += r.BytesAfter
		t.Evidence += r.Evidence
		t.EvidenceKept += r.EvidenceKept
		if r.Reducer != "none" {
			t.Reduced++
			if r.Recovery == "exact" {
				t.ExactRecovery++
			}
		}
		saved = append(saved, r.SavedPct)
		ms = append(ms, r.Millis)
		t.MaxMillis = max(t.MaxMillis, r.Millis)
	}
	t.SavedPct = bench.Pct(t.BytesBefore-t.BytesAfter, t.BytesBefore)
	t.MedianSaved = median(saved)
	t.MedianMillis = median(ms)
	return t
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
