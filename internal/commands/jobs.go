package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/batch"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/internal/gctune"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
)

// jsonl is the format of one JSON object a line, written as each input is
// done, in input order.
const jsonl = "jsonl"

// captureReportFormats are the formats of validate and check: a report's,
// and jsonl.
var captureReportFormats = append(slices.Clone(report.Formats), jsonl)

func jobsFlag() cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "inputs processed at once; the output is the same for any number (default: GOMAXPROCS, the cores the program may use)"}
}

// inputLog collects the input errors met on one file while it is processed
// on a worker; they are printed when the file's turn comes, so stderr is
// the same whatever the number of workers.
type inputLog struct{ errs []error }

func (l *inputLog) warn(err error) { l.errs = append(l.errs, err) }

// ruleFailed is env.ruleFailed for a worker: a rule failure is an input
// error of this file.
func (l *inputLog) ruleFailed(err error) bool {
	var re *rules.RuleError
	if errors.As(err, &re) {
		l.warn(err)
		return true
	}
	return false
}

// eachFile reads the CAPTURE arguments on --jobs workers and runs do on
// each file read, there too; emit gets every file's result on this
// goroutine in argument order, after the file's input errors were printed.
// A file that could not be read is an input error (exit 2) and the others
// go on; an error do or emit returns ends the run. Only the files under way
// are held, at most batch.Window of them.
func eachFile[R any](e *env, c *cli.Context, do func(f *capture.File, log *inputLog) (R, error), emit func(f *capture.File, r R) error) error {
	paths, opts, err := e.captureArgs(c)
	if err != nil {
		return err
	}
	gctune.ForInput(liveSize(paths, c.Int("jobs")), onePass(c))
	type out struct {
		f     *capture.File
		log   inputLog
		r     R
		fatal error
	}
	return batch.Ordered(context.Background(), c.Int("jobs"), paths, func(_ context.Context, p string) (out, error) {
		f, err := capture.ReadFile(p, e.stdin, opts)
		if err != nil {
			return out{}, err
		}
		o := out{f: f}
		o.log.errs = append(o.log.errs, f.Errs...)
		for _, capt := range f.Captures {
			schemas.Preload(string(capt.Provider))
		}
		o.r, o.fatal = do(f, &o.log)
		return o, nil
	}, func(i int, o out, err error) error {
		if e.skippedBeside(c, paths[i], err) {
			return nil
		}
		if err != nil {
			e.warnInput(err)
			return nil
		}
		for _, err := range o.log.errs {
			e.warnInput(err)
		}
		e.noteSkipped(o.f)
		if o.fatal != nil {
			return o.fatal
		}
		return emit(o.f, o.r)
	})
}

// liveSize is the most input bytes eachFile holds at once with jobs
// workers: the largest regular files among paths, as many as the results
// that may be under way (batch.Window), or all of them when there are
// fewer. The collector is paced by what is alive, not by the whole input:
// two thousand small captures are not one large one.
func liveSize(paths []string, jobs int) int {
	sizes := make([]int, 0, len(paths))
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			sizes = append(sizes, int(st.Size()))
		}
	}
	n := min(batch.Window(batch.Jobs(jobs)), len(sizes))
	if n < len(sizes) {
		slices.Sort(sizes)
		sizes = sizes[len(sizes)-n:]
	}
	total := 0
	for _, s := range sizes {
		total += s
	}
	return total
}

// writeLine writes v as one line of compact JSON, escaped for a terminal
// like every JSON output.
func (e *env) writeLine(v any) error {
	b, err := encodeLine(v)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

// encodeLine returns what writeLine writes for v. The workers of eachFile
// encode their own lines, so that the goroutine that writes them in input
// order only copies bytes and does not hold the other cores back.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escape.JSON(b.Bytes()), nil
}
