// Package apply runs the rule pipeline over one capture file as
// `skillopt transform` does: every capture through the engine, the
// originals the output names written to the archive (and only those), the
// file rebuilt with the transformed bodies, written with its sidecar. It
// also refuses, before anything is written, the inputs that cannot be
// written back.
package apply

import (
	"errors"
	"fmt"
	"os"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// Run runs the pipeline over every capture of f, in order.
func Run(f *capture.File, pipeline []*rules.Rule, renv *rules.Env) ([]*rules.Result, error) {
	var out []*rules.Result
	for _, capt := range f.Captures {
		res, err := rules.Run(capt, pipeline, renv)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

// Kept runs the pipeline over f and writes to store the originals the
// results name, returning how many it wrote; envFor builds the rule
// environment whose originals go to a keeper. Originals are kept in
// memory while the rules run, so a rule that fails or a step the engine
// drops leaves nothing behind. When the archive cannot be written, the
// pipeline runs again against the store itself: each rule whose original
// cannot be stored keeps it, with a warning, and the output names only
// what is stored.
func Kept(f *capture.File, pipeline []*rules.Rule, store *archive.Store, envFor func(archive.Keeper) *rules.Env) ([]*rules.Result, int, error) {
	mem := archive.NewMemory(store)
	results, err := Run(f, pipeline, envFor(mem))
	if err != nil {
		return nil, 0, err
	}
	named := map[string]bool{}
	for _, res := range results {
		for _, h := range archive.FindHandles(string(res.Final.Body)) {
			named[h] = true
		}
	}
	archived, _, err := mem.Flush(store, func(h string) bool { return named[h] })
	if err == nil {
		return results, archived, nil
	}
	if results, err = Run(f, pipeline, envFor(store)); err != nil {
		return nil, 0, err
	}
	return results, countNamed(store, results), nil
}

// countNamed counts the distinct handles the results name that store
// holds.
func countNamed(store *archive.Store, results []*rules.Result) int {
	seen := map[string]bool{}
	for _, res := range results {
		for _, h := range archive.FindHandles(string(res.Final.Body)) {
			if !seen[h] && store.Has(h) {
				seen[h] = true
			}
		}
	}
	return len(seen)
}

// Rebuild is f with the final body of each result in the place of its
// capture's.
func Rebuild(f *capture.File, results []*rules.Result) []byte {
	bodies := map[*capture.Capture][]byte{}
	for _, res := range results {
		bodies[res.Original] = res.Final.Body
	}
	return f.Rebuild(bodies)
}

// Writable refuses an input whose transform cannot be written back: a
// host's session file (its requests are rebuilt from the conversation it
// holds, and a copy of the file would change nothing) and a VCR cassette
// (its bodies are converted from YAML).
func Writable(f *capture.File) error {
	name := escape.Text(f.Name)
	for _, c := range f.Captures {
		if c.Session == nil {
			continue
		}
		return fmt.Errorf("%s: a %s session file is input only: it holds the conversation, not the requests, so there is nothing to write back; nothing was written. "+
			"`skillopt diff %s` shows what the rules change in its last request, `skillopt measure --conversation %s` in every turn; "+
			"to get requests to transform, record the host with `skillopt record -o captures -- CMD` and transform captures/skillopt-record-TIME.jsonl",
			name, capture.HostName(c.Session.Host), name, name)
	}
	if f.IsCassette() {
		return fmt.Errorf("%s: a VCR cassette is read-only input for transform (its bodies are converted from YAML); "+
			"measure and validate read it; to transform one request, give transform its body as a JSON file", name)
	}
	return nil
}

// SidecarOut is where the sidecar of a bare body read with one goes
// (NAME.meta.json beside out), so that out is judged against the same
// endpoint as the input; "" when the input had none. It refuses to replace
// the input (in, "-" for standard input) or its sidecar, and a file force
// would be needed for, before anything is written.
func SidecarOut(f *capture.File, in, out string, force bool) (string, error) {
	if f.Sidecar == nil {
		return "", nil
	}
	side := capture.SidecarPath(out)
	if atomicfile.SameFile(side, f.Sidecar.Path) || in != "-" && atomicfile.SameFile(side, in) {
		return "", fmt.Errorf("refusing to overwrite the input's endpoint file %s; choose another -o", side)
	}
	if _, err := atomicfile.Check(side, force); err != nil {
		return "", fmt.Errorf("%s: %w", side, err)
	}
	return side, nil
}

// Write writes data to out atomically and, when side is not "", the
// sidecar of f for it (the sidecar goes with a bare body only, so data is
// the body). Errors name the file.
func Write(f *capture.File, data []byte, out, side string, force bool) error {
	opts := atomicfile.Options{Perm: 0o644, Force: force}
	if err := atomicfile.Write(out, data, opts); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if side != "" {
		if err := atomicfile.Write(side, f.Sidecar.For(data), opts); err != nil {
			return fmt.Errorf("%s: %w", side, err)
		}
	}
	return nil
}

// CheckPaths refuses, before anything is read or written, an input that
// is a folder (in, "-" for standard input), an empty output name, an
// output that is the input, and an output that cannot be replaced without
// force. Out "" or "-" is standard output; named reports whether -o was
// given at all.
func CheckPaths(in, out string, named, force bool) error {
	if in != "-" {
		if st, err := os.Stat(in); err == nil && st.IsDir() {
			return fmt.Errorf("%s: is a directory; transform takes one capture file", in)
		}
	}
	if named && out == "" {
		return errors.New("-o: an empty file name; give a file, or - (or no -o) for standard output")
	}
	if out == "" || out == "-" {
		return nil
	}
	if in != "-" && atomicfile.SameFile(in, out) {
		return fmt.Errorf("refusing to overwrite the input %s; choose another -o", in)
	}
	if _, err := atomicfile.Check(out, force); err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	return nil
}
