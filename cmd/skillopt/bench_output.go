package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/transform"
)

// benchOutputRow is one output of the corpus.
type benchOutputRow struct {
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

type benchOutputTotals struct {
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

func benchOutputCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "output",
		Usage:     "output-reduction benchmark over a folder of real command outputs",
		ArgsUsage: "DIR",
		Description: "Reduces every output file in DIR (any file but *.evidence and *.md, read recursively)\n" +
			"the way SO302 and SO301 reduce a tool result with the configured [output] triggers and\n" +
			"thresholds, stores the original in the archive, and reports per file: bytes before and\n" +
			"after (recovery label included), the reducer used, how many of the evidence strings listed\n" +
			"in NAME.evidence (one per line; # comments) are still present, whether `archive get`\n" +
			"gives back the original byte for byte, and the time to reduce and to archive (the archive\n" +
			"write includes fsync). Exit 1 if any evidence string is lost or any recovery is not exact.\n" +
			"The archive is a temporary folder unless --archive is given.\n\n" +
			"Formats: text, json ({\"rows\":[…],\"totals\":{…}}), markdown.\n\n" +
			"Examples:\n" +
			"  skillopt bench output testdata/outputs\n" +
			"  skillopt bench output --format markdown testdata/outputs",
		Flags: []cli.Flag{archiveFlag()},
		Action: func(c *cli.Context) error {
			if err := e.setup(c, "text", "json", "markdown"); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageErr("bench output: want exactly one DIR, got %d arguments", c.NArg())
			}
			dir := c.Args().First()
			files, err := outputFiles(dir)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if len(files) == 0 {
				return usageErr("bench output: %s holds no output files", dir)
			}
			archDir := ""
			if c.IsSet("archive") {
				archDir = c.String("archive")
			} else {
				archDir, err = os.MkdirTemp("", "skillopt-bench-archive-")
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				defer os.RemoveAll(archDir)
			}
			store := archive.Open(archDir)
			var rows []benchOutputRow
			for _, f := range files {
				row, err := benchOutputFile(dir, f, store, e)
				if err != nil {
					e.warnInput(err)
					continue
				}
				rows = append(rows, row)
			}
			tot := benchOutputSum(rows)
			switch e.format {
			case "json":
				if err := writeJSON(e, struct {
					Rows   []benchOutputRow  `json:"rows"`
					Totals benchOutputTotals `json:"totals"`
				}{rows, tot}); err != nil {
					return err
				}
			case "markdown":
				benchOutputMarkdown(e, rows, tot)
			default:
				benchOutputText(e, rows, tot)
			}
			if tot.EvidenceKept < tot.Evidence || tot.ExactRecovery < tot.Reduced {
				return e.finish(findings)
			}
			return e.finish(nil)
		},
	}
}

// maxBenchFile bounds one benchmark input file (a tool output or its
// evidence).
const maxBenchFile = 64 << 20

// outputFiles lists the output files of dir (relative names, sorted).
func outputFiles(dir string) ([]string, error) {
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
	sort.Strings(out)
	return out, nil
}

// readEvidence reads NAME.evidence: one string per line, blank lines and
// lines starting with "#" ignored.
func readEvidence(path string) ([]string, error) {
	data, err := untrusted.ReadFile(path, maxBenchFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

func benchOutputFile(dir, name string, store *archive.Store, e *env) (benchOutputRow, error) {
	path := filepath.Join(dir, name)
	data, err := untrusted.ReadFile(path, maxBenchFile)
	if err != nil {
		return benchOutputRow{}, fmt.Errorf("%s: %v", path, err)
	}
	if !utf8.Valid(data) {
		return benchOutputRow{}, fmt.Errorf("%s: not UTF-8 text (a tool result is a JSON string)", path)
	}
	evidence, err := readEvidence(strings.TrimSuffix(path, filepath.Ext(path)) + ".evidence")
	if err != nil {
		return benchOutputRow{}, fmt.Errorf("%s: %v", path, err)
	}
	text := string(data)
	row := benchOutputRow{File: name, BytesBefore: len(data), BytesAfter: len(data), Reducer: "none", Recovery: "n/a", Evidence: len(evidence)}
	start := time.Now()
	red, ok := transform.ReduceOutput(text, e.cfg.Output)
	reduced := time.Now()
	out := text
	if ok {
		h, err := store.Put(data)
		if err != nil {
			return benchOutputRow{}, fmt.Errorf("%s: %v", path, err)
		}
		if h != red.Handle {
			return benchOutputRow{}, fmt.Errorf("%s: archive returned handle %s, want %s", path, h, red.Handle)
		}
		out = red.Text
		row.Reducer = red.Reducer
		row.BytesAfter = len(out)
	}
	done := time.Now()
	row.ReduceMillis = outputMillis(reduced.Sub(start))
	row.ArchiveMillis = outputMillis(done.Sub(reduced))
	row.Millis = outputMillis(done.Sub(start))
	row.SavedPct = outputPct(row.BytesBefore-row.BytesAfter, row.BytesBefore)
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

func outputMillis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func outputPct(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(int(float64(part)*1000/float64(whole)+0.5)) / 10
}

func benchOutputSum(rows []benchOutputRow) benchOutputTotals {
	var t benchOutputTotals
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
	t.SavedPct = outputPct(t.BytesBefore-t.BytesAfter, t.BytesBefore)
	t.MedianSaved = outputMedian(saved)
	t.MedianMillis = outputMedian(ms)
	return t
}

func outputMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64{}, xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func benchOutputText(e *env, rows []benchOutputRow, t benchOutputTotals) {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "file\tbefore\tafter\tsaved\treducer\tevidence\trecovery\treduce ms\tarchive ms\t")
	for _, r := range rows {
		ev := fmt.Sprintf("%d/%d", r.EvidenceKept, r.Evidence)
		if r.EvidenceKept < r.Evidence {
			ev = e.paint(red, ev)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f %%\t%s\t%s\t%s\t%.2f\t%.2f\t\n", r.File, r.BytesBefore, r.BytesAfter, r.SavedPct, r.Reducer, ev, r.Recovery, r.ReduceMillis, r.ArchiveMillis)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "\n%d outputs, %d reduced: %d → %d bytes (%.1f %% saved, median %.1f %%); evidence kept %d/%d; exact recovery %d/%d; time median %.2f ms, max %.2f ms\n",
		t.Files, t.Reduced, t.BytesBefore, t.BytesAfter, t.SavedPct, t.MedianSaved, t.EvidenceKept, t.Evidence, t.ExactRecovery, t.Reduced, t.MedianMillis, t.MaxMillis)
	for _, r := range rows {
		for _, m := range r.Missing {
			fmt.Fprintf(e.stdout, "%s: evidence lost: %q\n", r.File, m)
		}
	}
}

func benchOutputMarkdown(e *env, rows []benchOutputRow, t benchOutputTotals) {
	fmt.Fprintf(e.stdout, "| file | before | after | saved | reducer | evidence | recovery | reduce ms | archive ms |\n| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |\n")
	for _, r := range rows {
		fmt.Fprintf(e.stdout, "| %s | %d | %d | %.1f %% | %s | %d/%d | %s | %.2f | %.2f |\n", r.File, r.BytesBefore, r.BytesAfter, r.SavedPct, r.Reducer, r.EvidenceKept, r.Evidence, r.Recovery, r.ReduceMillis, r.ArchiveMillis)
	}
	fmt.Fprintf(e.stdout, "| **total** (%d) | %d | %d | %.1f %% | %d reduced | %d/%d | %d/%d exact | median %.2f | max %.2f |\n",
		t.Files, t.BytesBefore, t.BytesAfter, t.SavedPct, t.Reduced, t.EvidenceKept, t.Evidence, t.ExactRecovery, t.Reduced, t.MedianMillis, t.MaxMillis)
}
