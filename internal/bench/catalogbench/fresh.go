package catalogbench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/gctune"
)

// FirstResult is what a fresh process reports of its first request.
type FirstResult struct {
	FirstMS float64 `json:"first_ms"`
	// Prefetched says whether SO103 added its overlay: the request was
	// the real work, not an early refusal.
	Prefetched bool `json:"prefetched"`
}

// FirstInProcess is the child of a fresh-process measurement: it reads
// the capture file at path, sets the garbage-collector limits transform
// sets for that input, then times the first SO101 + SO103 request as
// Transformer prepares it, the process's one-time work (the registry, the
// provider's schema, the catalog's parsing and search structures)
// included, and writes a FirstResult as JSON to w.
func FirstInProcess(path string, provider capture.Provider, w io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	gctune.ForInput(len(data), true)
	start := time.Now()
	t, err := NewTransformer(prefetchRules, provider)
	if err != nil {
		return err
	}
	_, res, err := t.Transform(filepath.Base(path), data)
	d := time.Since(start)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(FirstResult{FirstMS: bench.Millis(d), Prefetched: prefetched(res)})
}

// ChildCommand returns a fresh-process runner for Options.Fresh: it runs
// the executable exe (argv[0] name) with args, then the file's path and
// its provider, with env (nil: this process's environment), and reads the
// FirstResult the child writes on standard output (see FirstInProcess).
func ChildCommand(exe, name string, env []string, args ...string) func(path string, provider capture.Provider) (float64, error) {
	return func(path string, provider capture.Provider) (float64, error) {
		c := exec.Command(exe, append(append([]string(nil), args...), path, string(provider))...)
		c.Args[0] = name
		if env != nil {
			c.Env = env
		}
		var stderr strings.Builder
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			return 0, fmt.Errorf("fresh process: %w: %s", err, firstLine([]byte(stderr.String())))
		}
		var r FirstResult
		if err := json.Unmarshal(out, &r); err != nil {
			return 0, fmt.Errorf("fresh process: %w: %s", err, firstLine(out))
		}
		if !r.Prefetched {
			return 0, fmt.Errorf("fresh process: %s: the first request got no prefetch overlay", filepath.Base(path))
		}
		return r.FirstMS, nil
	}
}

// freshFirst runs firstRounds fresh processes, each on a file holding the
// next variant of the request, and returns the median time.
func freshFirst(v *Variants, fresh func(string, capture.Provider) (float64, error)) (float64, error) {
	dir, err := os.MkdirTemp("", "skillopt-bench-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	ts := make([]time.Duration, firstRounds)
	for i := range ts {
		path := filepath.Join(dir, fmt.Sprintf("request-%d.json", i))
		if err := os.WriteFile(path, v.Next(), 0o600); err != nil {
			return 0, err
		}
		ms, err := fresh(path, v.Provider)
		if err != nil {
			return 0, err
		}
		ts[i] = time.Duration(ms * float64(time.Millisecond))
	}
	return median(ts), nil
}
