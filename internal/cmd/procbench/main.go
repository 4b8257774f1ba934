// Command procbench times whole processes.
//
//	procbench [-runs 15] [-warmup 3] [-name NAME] -- CMD ARGS...
//
// runs CMD warmup times untimed and then runs times timed, with standard
// input, output and error connected to the null device, and prints one JSON
// line {"name","runs","median_ms","min_ms","peak_rss_kib"}; peak_rss_kib is
// the largest maximum resident set size of the timed runs.
//
//	procbench -compare FILE.jsonl
//
// reads such lines and prints a table with each row's median and peak RSS
// relative to the row named "baseline" (the last one, if there are several).
//
// Exit status: 2 for bad usage, 1 when a command fails or the comparison
// input is unusable, 0 otherwise.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// BaselineName is the row name -compare divides by.
const BaselineName = "baseline"

// Result is one benchmark line.
type Result struct {
	Name       string  `json:"name"`
	Runs       int     `json:"runs"`
	MedianMS   float64 `json:"median_ms"`
	MinMS      float64 `json:"min_ms"`
	PeakRSSKiB int64   `json:"peak_rss_kib"`
}

type options struct {
	runs    int
	warmup  int
	name    string
	compare string
	command []string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "procbench:", err)
		return 2
	}
	if o.compare != "" {
		if err := compare(o.compare, stdout); err != nil {
			fmt.Fprintln(stderr, "procbench:", err)
			return 1
		}
		return 0
	}
	res, err := bench(o)
	if err != nil {
		fmt.Fprintln(stderr, "procbench:", err)
		return 1
	}
	line, _ := json.Marshal(res)
	fmt.Fprintf(stdout, "%s\n", line)
	return 0
}

func parseArgs(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("procbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.runs, "runs", 15, "timed runs")
	fs.IntVar(&o.warmup, "warmup", 3, "untimed runs before the timed ones")
	fs.StringVar(&o.name, "name", "", "row name (default: the command's base name)")
	fs.StringVar(&o.compare, "compare", "", "print a comparison table of the JSON lines in `FILE.jsonl` (- for standard input)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: procbench [-runs N] [-warmup N] [-name NAME] -- CMD ARGS...\n       procbench -compare FILE.jsonl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.command = fs.Args()
	if o.compare != "" {
		if len(o.command) > 0 {
			return o, errors.New("-compare takes no command")
		}
		return o, nil
	}
	switch {
	case len(o.command) == 0:
		return o, errors.New("no command given (put it after --)")
	case o.runs < 1:
		return o, fmt.Errorf("-runs must be at least 1, got %d", o.runs)
	case o.warmup < 0:
		return o, fmt.Errorf("-warmup must not be negative, got %d", o.warmup)
	}
	if o.name == "" {
		o.name = filepath.Base(o.command[0])
	}
	return o, nil
}

// bench runs the command and summarises the timed runs.
func bench(o options) (Result, error) {
	times := make([]time.Duration, 0, o.runs)
	var peak int64
	for i := 0; i < o.warmup+o.runs; i++ {
		d, rss, err := runOnce(o.command)
		if err != nil {
			return Result{}, fmt.Errorf("%s: command failed: %s: %w", o.name, strings.Join(o.command, " "), err)
		}
		if i >= o.warmup {
			times = append(times, d)
			peak = max(peak, rss)
		}
	}
	slices.Sort(times)
	return Result{
		Name:       o.name,
		Runs:       o.runs,
		MedianMS:   millis(median(times)),
		MinMS:      millis(times[0]),
		PeakRSSKiB: peak,
	}, nil
}

// runOnce runs the command once and returns its wall time and peak RSS in KiB.
func runOnce(command []string) (time.Duration, int64, error) {
	cmd := exec.Command(command[0], command[1:]...)
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	return elapsed, maxRSSKiB(cmd.ProcessState), nil
}

// median returns the median of sorted durations.
func median(sorted []time.Duration) time.Duration {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// millis converts d to milliseconds rounded to microseconds.
func millis(d time.Duration) float64 {
	return math.Round(float64(d)/1e3) / 1e3
}

// readResults parses JSON lines, skipping blank ones.
func readResults(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var res Result
		if err := json.Unmarshal(text, &res); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if res.Name == "" {
			return nil, fmt.Errorf("line %d: no name", line)
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

func compare(file string, w io.Writer) error {
	var r io.Reader = os.Stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	rows, err := readResults(r)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return writeTable(w, rows)
}

// writeTable prints rows with their median and peak RSS relative to the
// last row named BaselineName.
func writeTable(w io.Writer, rows []Result) error {
	base := -1
	for i, r := range rows {
		if r.Name == BaselineName {
			base = i
		}
	}
	if base < 0 {
		return fmt.Errorf("no row named %q", BaselineName)
	}
	b := rows[base]
	table := [][]string{{"name", "runs", "median_ms", "min_ms", "peak_rss_kib", "median_vs_baseline", "rss_vs_baseline"}}
	for _, r := range rows {
		table = append(table, []string{
			r.Name,
			strconv.Itoa(r.Runs),
			strconv.FormatFloat(r.MedianMS, 'f', 3, 64),
			strconv.FormatFloat(r.MinMS, 'f', 3, 64),
			strconv.FormatInt(r.PeakRSSKiB, 10),
			ratio(r.MedianMS, b.MedianMS),
			ratio(float64(r.PeakRSSKiB), float64(b.PeakRSSKiB)),
		})
	}
	widths := make([]int, len(table[0]))
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	var out strings.Builder
	for _, row := range table {
		// The name column is left-aligned, the numbers right-aligned.
		fmt.Fprintf(&out, "%-*s", widths[0], row[0])
		for i := 1; i < len(row); i++ {
			fmt.Fprintf(&out, "  %*s", widths[i], row[i])
		}
		out.WriteByte('\n')
	}
	_, err := io.WriteString(w, out.String())
	return err
}

func ratio(x, base float64) string {
	if base <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x/base)
}
