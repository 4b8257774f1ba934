package catalogbench

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/internal/escape"

	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/measure/units"
)

// WriteText writes rows as a table, followed by what the session columns
// count and where the peak was read.
func WriteText(w io.Writer, rows []Row) error {
	head := []string{"skills", "native B", "compact B", "tag B", "cumulative compact", "cumulative tag", "saving", fmt.Sprintf("%d-page saving", BrowsePages), "pagination", "snapshot ms", "warm ms", "prefetch ms", "request B", "prefetch B", "first ms", "fresh first ms", "peak MiB"}
	sources := slices.ContainsFunc(rows, func(r Row) bool { return r.Source != "" })
	if sources {
		head = append([]string{"capture"}, head...)
	}
	table := [][]string{head}
	for _, r := range rows {
		many := fmt.Sprintf("%.1f %%", r.ManyPageSaving)
		if r.BrowsedPages < BrowsePages {
			many += fmt.Sprintf(" (%d %s)", r.BrowsedPages, plural(r.BrowsedPages, "page"))
		}
		fresh := "-"
		if r.FreshProcessFirstMS != nil {
			fresh = fmt.Sprintf("%.2f", *r.FreshProcessFirstMS)
		}
		line := []string{units.Thousands(r.Skills), units.Thousands(r.NativeBytes), units.Thousands(r.CompactBytes), units.Thousands(r.TagBytes),
			units.Thousands(r.CumulativeCompact), units.Thousands(r.CumulativeTag), fmt.Sprintf("%.1f %%", r.CumulativeSaving), many,
			units.Thousands(r.PaginatedOnce) + "/" + units.Thousands(r.Skills), fmt.Sprintf("%.2f", r.SnapshotMS), fmt.Sprintf("%.2f", r.WarmMS),
			fmt.Sprintf("%.2f", r.WarmPrefetchMS), units.Thousands(int(r.RequestAllocBytes)), units.Thousands(int(r.PrefetchAllocBytes)),
			fmt.Sprintf("%.2f", r.FirstRequestMS), fresh, fmt.Sprintf("%.1f", r.PeakMiB)}
		if sources {
			line = append([]string{escape.Text(r.Source)}, line...)
		}
		table = append(table, line)
	}
	if err := bench.WriteTable(w, table); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	r := rows[0]
	_, err := fmt.Fprintf(w, "\nsessions: %d requests with the compact index, %d of them carrying one %s skill load; %d with the tag directory (a browse first); one more per further page of the %d-page browse\npeak: resident set size, %s\n",
		r.CompactRequests, r.CompactRequests-1, units.Size(LoadBytes), r.TagRequests, BrowsePages, peakNote(r.PeakSource))
	if err != nil {
		return err
	}
	var ratios []string
	for _, r := range rows {
		if r.SystemSHA256MS > 0 {
			ratios = append(ratios, fmt.Sprintf("%.1f× at %s", r.WarmToSHA256, units.Thousands(r.Skills)))
		}
	}
	if len(ratios) > 0 {
		_, err = fmt.Fprintf(w, "prefetch ms against one SHA-256 pass over the system prompt: %s\n", strings.Join(ratios, ", "))
	}
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func peakNote(source string) string {
	switch source {
	case "VmHWM since reset":
		return "Linux VmHWM, reset before each size"
	case "VmHWM":
		return "Linux VmHWM of the whole process so far (the reset was refused)"
	case "ru_maxrss":
		return "getrusage ru_maxrss of the whole process so far"
	}
	return "not available on this system"
}

// WriteStartup writes the start-up comparison, or why there is none.
func WriteStartup(w io.Writer, s *Startup, note string) error {
	if s == nil {
		_, err := fmt.Fprintf(w, "start-up: %s\n", note)
		return err
	}
	_, err := fmt.Fprintf(w, "start-up: skillopt --version %.2f ms, an empty Go program %.2f ms (%.2f×); cold transform --rules SO101,SO103 of %s skills %.2f ms (medians of %d alternating runs)\n",
		s.VersionMS, s.EmptyMS, s.Ratio, units.Thousands(s.ColdTransformSkills), s.ColdTransformMS, s.Runs)
	return err
}

// Report is a run of bench catalog: a row per size and the start-up
// comparison (nil, with StartupNote saying why, when not measured), in
// its JSON shape.
type Report struct {
	Rows         []Row    `json:"rows"`
	StartupRatio *float64 `json:"startup_ratio"`
	Startup      *Startup `json:"startup"`
	StartupNote  string   `json:"startup_note,omitempty"`
}

// NewReport is the report of rows and a start-up comparison.
func NewReport(rows []Row, start *Startup, note string) *Report {
	r := &Report{Rows: rows, Startup: start, StartupNote: note}
	if start != nil {
		r.StartupRatio = &start.Ratio
	}
	return r
}

// WriteReport writes the rows as a table and the start-up comparison.
func WriteReport(w io.Writer, r *Report) error {
	if err := WriteText(w, r.Rows); err != nil {
		return err
	}
	return WriteStartup(w, r.Startup, r.StartupNote)
}
