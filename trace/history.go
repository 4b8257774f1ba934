package trace

import (
	"io"
	"runtime"
	"sort"
	"sync"
)

// Summary is what reports and alerts keep of a run: a few numbers and its
// verdict, so that memory grows with the number of runs, not their size.
type Summary struct {
	File          string
	Source        string
	Skill         string
	Timestamp     int64
	StoppedReason string
	Calls         int
	DurationMs    int64
	Clean         bool
	// Verdict is the run's own classification, the same as trace view's.
	Verdict Verdict
	// History is the judgement of the run against the runs of its skill
	// before it, set by Histories (NoRegression until then); Streak is
	// the number of consecutive runs that are not clean it ends, when
	// History is Regression.
	History Judgement
	Streak  int
}

// Summarize classifies a run and keeps its summary.
func Summarize(r *Run, o Options) Summary {
	return Summary{
		File:          r.File,
		Source:        r.Source,
		Skill:         r.Skill,
		Timestamp:     r.Timestamp,
		StoppedReason: r.StoppedReason,
		Calls:         len(r.Calls),
		DurationMs:    r.DurationMs(),
		Clean:         r.Clean(),
		Verdict:       Classify(r, o),
		History:       NoRegression,
	}
}

// Load reads every path (see Expand) on all processors, one file at a
// time per worker, and returns the summaries of their runs in path order
// and the errors of the files that could not be read, also in path order.
// Memory held at once is a buffer per worker plus the summaries.
func Load(paths []string, stdin io.Reader, o Options) ([]Summary, []error) {
	type slot struct {
		sums []Summary
		err  error
	}
	slots := make([]slot, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := range next {
				data, err := ReadBounded(paths[i], stdin, buf)
				if err != nil {
					slots[i].err = err
					continue
				}
				if paths[i] != "-" {
					buf = data
				}
				runs, err := Read(displayName(paths[i]), data)
				if err != nil {
					slots[i].err = err
					continue
				}
				sums := make([]Summary, len(runs))
				for j, r := range runs {
					sums[j] = Summarize(r, o)
				}
				slots[i].sums = sums
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	var sums []Summary
	var errs []error
	for _, s := range slots {
		sums = append(sums, s.sums...)
		if s.err != nil {
			errs = append(errs, s.err)
		}
	}
	return sums, errs
}

// History is the runs of one skill, newest first.
type History struct {
	Skill string
	Runs  []Summary
}

// Histories groups summaries by skill (sorted by name), orders each
// skill's runs newest first (by timestamp, then file name, both
// descending) and judges every run against the runs before it (History);
// the runs' own verdicts are left as they are.
func Histories(sums []Summary, window int) []History {
	by := map[string][]Summary{}
	for _, s := range sums {
		by[s.Skill] = append(by[s.Skill], s)
	}
	out := make([]History, 0, len(by))
	for skill, runs := range by {
		sort.Slice(runs, func(i, j int) bool {
			if runs[i].Timestamp != runs[j].Timestamp {
				return runs[i].Timestamp > runs[j].Timestamp
			}
			return runs[i].File > runs[j].File
		})
		clean := make([]bool, len(runs))
		for i := range runs {
			clean[i] = runs[i].Clean
		}
		for i := range runs {
			runs[i].History, runs[i].Streak = JudgeHistory(runs[i].Verdict, clean[i], clean[i+1:], window)
		}
		out = append(out, History{skill, runs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Skill < out[j].Skill })
	return out
}
