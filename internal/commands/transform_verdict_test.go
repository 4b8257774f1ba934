package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// validateVerdict runs validate --format json on path and returns each
// capture's verdict in order and the number of error findings; ok is false
// when validate could not read the file (exit 2).
func validateVerdict(t *testing.T, path string) (verdicts []bool, errors int, ok bool) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"skillopt", "validate", "--format", "json", path}, nil, &stdout, &stderr); code == 2 {
		return nil, 0, false
	}
	var rep struct {
		Inputs []struct {
			Valid *bool `json:"valid"`
		} `json:"inputs"`
		Diagnostics []struct {
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%s: validate report: %v\n%s", path, err, stdout.Bytes())
	}
	for _, in := range rep.Inputs {
		verdicts = append(verdicts, in.Valid != nil && *in.Valid)
	}
	for _, d := range rep.Diagnostics {
		if d.Severity == "error" {
			errors++
		}
	}
	return verdicts, errors, true
}

// TestCorpusTransformKeepsVerdict: on every capture file of the shared
// corpus that validate reads (Pi captures, provider examples, host
// sessions), validate of transform -o's output says what validate of the
// input says (host session files and cassettes are input only and left out): the same verdict for every capture, and no new error. A bare
// body read with a NAME.meta.json keeps its endpoint through the sidecar
// transform writes beside its output.
func TestCorpusTransformKeepsVerdict(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	var files []string
	for _, sub := range []string{"captures", "provider-examples", "sessions"} {
		fs, _ := capture.Expand([]string{filepath.Join(root, sub)})
		files = append(files, fs...)
	}
	out := t.TempDir()
	checked, sidecars := 0, 0
	for i, p := range files {
		want, wantErrs, ok := validateVerdict(t, p)
		if !ok {
			continue // not a capture validate reads
		}
		if f, err := capture.ReadFile(p, nil, capture.Options{}); err == nil && (f.IsCassette() || len(f.Captures) > 0 && f.Captures[0].Session != nil) {
			continue // a host session file or a cassette is input only; transform refuses it
		}
		dst := filepath.Join(out, strings.ReplaceAll(filepath.Base(p), ".", "_")+"-"+strconv.Itoa(i)+filepath.Ext(p))
		var stdout, stderr bytes.Buffer
		if code := run([]string{"skillopt", "transform", "--no-archive", "-o", dst, p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: transform exit %d: %s", p, code, stderr.String())
			continue
		}
		if _, err := os.Stat(capture.SidecarPath(dst)); err == nil {
			sidecars++
		}
		got, gotErrs, ok := validateVerdict(t, dst)
		switch {
		case !ok:
			t.Errorf("%s: validate cannot read the transform's output", p)
		case len(got) != len(want):
			t.Errorf("%s: %d captures validated after transform, %d before", p, len(got), len(want))
		default:
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("%s: capture %d valid %v after transform, %v before", p, k+1, got[k], want[k])
				}
			}
			if gotErrs > wantErrs {
				t.Errorf("%s: %d errors after transform, %d before", p, gotErrs, wantErrs)
			}
		}
		checked++
	}
	t.Logf("%d capture files checked, %d with a sidecar", checked, sidecars)
	if checked < 150 {
		t.Errorf("only %d capture files checked", checked)
	}
}
