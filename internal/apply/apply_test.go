package apply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

const body = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`

func read(t *testing.T, files map[string]string, name string) *capture.File {
	t.Helper()
	dir := t.TempDir()
	for n, data := range files {
		p := filepath.Join(dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := capture.ReadFile(filepath.Join(dir, name), nil, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestKeptWithoutRulesChangesNothing(t *testing.T) {
	f := read(t, map[string]string{"body.json": body}, "body.json")
	store := archive.Open(filepath.Join(t.TempDir(), "archive"))
	var keepers []archive.Keeper
	results, archived, err := Kept(f, nil, store, func(k archive.Keeper) *rules.Env {
		keepers = append(keepers, k)
		return &rules.Env{}
	})
	if err != nil {
		t.Fatal(err)
	}
	if archived != 0 || len(results) != len(f.Captures) || len(keepers) != 1 {
		t.Fatalf("%d results, %d archived, %d environments", len(results), archived, len(keepers))
	}
	if got := string(Rebuild(f, results)); got != body {
		t.Errorf("rebuilt %s, want the input", got)
	}
}

func TestWritable(t *testing.T) {
	if err := Writable(read(t, map[string]string{"body.json": body}, "body.json")); err != nil {
		t.Errorf("a request body: %v", err)
	}
}

func TestSidecarOut(t *testing.T) {
	bare := read(t, map[string]string{"body.json": body}, "body.json")
	if side, err := SidecarOut(bare, "body.json", "out.json", false); side != "" || err != nil {
		t.Errorf("no sidecar: got %q, %v", side, err)
	}
	meta := `{"url":"http://127.0.0.1:8000/v1/chat/completions"}`
	f := read(t, map[string]string{"x.json": body, "meta/x.meta.json": meta}, "x.json")
	if f.Sidecar == nil {
		t.Skip("the body was read without its sidecar")
	}
	out := filepath.Join(t.TempDir(), "out.json")
	side, err := SidecarOut(f, "x.json", out, false)
	if err != nil || side != capture.SidecarPath(out) {
		t.Errorf("got %q, %v; want %s", side, err, capture.SidecarPath(out))
	}
	if err := Write(f, []byte(body), out, side, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(side); err != nil {
		t.Errorf("no sidecar written: %v", err)
	}
	// The input's own sidecar is never the output's.
	own := strings.TrimSuffix(f.Sidecar.Path, ".meta.json") + ".json"
	if _, err := SidecarOut(f, "x.json", own, false); err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("replacing the input's sidecar: %v", err)
	}
}

func TestCheckPaths(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro.json")
	if err := os.WriteFile(ro, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in, out string
		named, force  bool
		want          string // an error substring; "" for none
	}{
		{name: "stdout", in: in, out: ""},
		{name: "dash", in: in, out: "-", named: true},
		{name: "stdin to a file", in: "-", out: filepath.Join(dir, "out.json"), named: true},
		{name: "a folder", in: dir, out: "", want: "is a directory"},
		{name: "empty -o", in: in, out: "", named: true, want: "-o: an empty file name"},
		{name: "the input", in: in, out: in, named: true, want: "refusing to overwrite the input"},
		{name: "read-only", in: in, out: ro, named: true, want: "ro.json: "},
		{name: "read-only forced", in: in, out: ro, named: true, force: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckPaths(tc.in, tc.out, tc.named, tc.force)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
