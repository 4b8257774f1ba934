package outputbench

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure/units"
)

// WriteText writes the rows as a table (file names left-aligned, counts
// with thousands separators), the totals, and every lost evidence string.
// lost colours an evidence count that lost something.
func WriteText(w io.Writer, rows []Row, t Totals, lost func(string) string) error {
	table := [][]string{{"file", "before", "after", "saved", "reducer", "evidence", "recovery", "reduce ms", "archive ms"}}
	for _, r := range rows {
		ev := fmt.Sprintf("%d/%d", r.EvidenceKept, r.Evidence)
		if r.EvidenceKept < r.Evidence {
			ev = lost(ev)
		}
		table = append(table, []string{escape.Text(r.File), units.Thousands(r.BytesBefore), units.Thousands(r.BytesAfter), fmt.Sprintf("%.1f %%", r.SavedPct),
			r.Reducer, ev, r.Recovery, fmt.Sprintf("%.2f", r.ReduceMillis), fmt.Sprintf("%.2f", r.ArchiveMillis)})
	}
	if err := bench.WriteTable(w, table, 4, 6); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d outputs, %d reduced: %s → %s bytes (%.1f %% saved, median %.1f %%); evidence kept %d/%d; exact recovery %d/%d; time median %.2f ms, max %.2f ms\n",
		t.Files, t.Reduced, units.Thousands(t.BytesBefore), units.Thousands(t.BytesAfter), t.SavedPct, t.MedianSaved, t.EvidenceKept, t.Evidence, t.ExactRecovery, t.Reduced, t.MedianMillis, t.MaxMillis)
	for _, r := range rows {
		for _, m := range r.Missing {
			fmt.Fprintf(w, "%s: evidence lost: %q\n", escape.Text(r.File), m)
		}
	}
	return nil
}

// WriteMarkdown writes the rows and totals as a Markdown table.
func WriteMarkdown(w io.Writer, rows []Row, t Totals) error {
	fmt.Fprintf(w, "| file | before | after | saved | reducer | evidence | recovery | reduce ms | archive ms |\n| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |\n")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %.1f %% | %s | %d/%d | %s | %.2f | %.2f |\n", escape.Markdown(r.File), units.Thousands(r.BytesBefore), units.Thousands(r.BytesAfter), r.SavedPct, r.Reducer, r.EvidenceKept, r.Evidence, r.Recovery, r.ReduceMillis, r.ArchiveMillis)
	}
	_, err := fmt.Fprintf(w, "| **total** (%d) | %s | %s | %.1f %% | %d reduced | %d/%d | %d/%d exact | median %.2f | max %.2f |\n",
		t.Files, units.Thousands(t.BytesBefore), units.Thousands(t.BytesAfter), t.SavedPct, t.Reduced, t.EvidenceKept, t.Evidence, t.ExactRecovery, t.Reduced, t.MedianMillis, t.MaxMillis)
	return err
}

// Report is a run of bench output in its JSON shape: a row per file and
// the totals.
type Report struct {
	Rows   []Row  `json:"rows"`
	Totals Totals `json:"totals"`
}
