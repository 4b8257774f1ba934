package commands

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusFiles lists every capture file of the shared corpus, skipping the
// test when the corpus is absent.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared corpus not present at %s", root)
	}
	var files []string
	for _, sub := range []string{"captures", "provider-examples"} {
		filepath.WalkDir(filepath.Join(root, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".json", ".jsonl", ".har":
				if !strings.HasSuffix(p, ".meta.json") && filepath.Base(p) != "MANIFEST.json" {
					files = append(files, p)
				}
			}
			return nil
		})
	}
	if len(files) < 150 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	return files
}

// TestCorpusMeasureSums: every capture's section bytes add up to its size,
// and every Pi capture has its skill catalog and human text found.
func TestCorpusMeasureSums(t *testing.T) {
	n := 0
	for _, p := range corpusFiles(t) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"skillopt", "measure", "--format", "json", "--encoding", "none", p}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: exit %d: %s", p, code, stderr.String())
			continue
		}
		var rep struct {
			Captures []struct {
				Name     string
				Provider string
				Bytes    int
				Sections []struct {
					Kind  string
					Bytes int
				}
				Skills struct{ Count int }
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, c := range rep.Captures {
			n++
			sum, human := 0, 0
			for _, s := range c.Sections {
				sum += s.Bytes
				if s.Kind == "human" {
					human += s.Bytes
				}
			}
			if sum != c.Bytes {
				t.Errorf("%s: sections sum to %d, body is %d bytes", c.Name, sum, c.Bytes)
			}
			if strings.Contains(p, "pi-0.73.1") && (c.Skills.Count != 13 || human == 0) {
				t.Errorf("%s: %d skills, %d human bytes; want the 13-skill catalog and human text", c.Name, c.Skills.Count, human)
			}
		}
	}
	t.Logf("%d captures measured", n)
}

// TestCorpusValidates: every corpus capture validates against the schema
// of the provider it is detected as and passes the request-validity rules,
// except the findings testdata/corpus-invalid.txt lists for captures the
// provider rejects.
func TestCorpusValidates(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"skillopt", "validate", "--format", "json"}, corpusFiles(t)...)
	code := run(args, nil, &stdout, &stderr)
	if code == 2 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var res struct {
		Diagnostics []struct {
			Rule, Severity, Capture, Pointer, Message string
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	expected := map[string]bool{}
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus-invalid.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.Fields(line); len(f) >= 3 && !strings.HasPrefix(f[0], "#") {
			expected[f[0]+" "+f[1]] = true
		}
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	errs := 0
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		errs++
		rel, _ := filepath.Rel(root, d.Capture)
		if !expected[filepath.ToSlash(rel)+" "+d.Rule] {
			t.Errorf("%s: %s %s: %s", d.Capture, d.Rule, d.Pointer, d.Message)
		}
	}
	if (errs > 0) != (code == 1) {
		t.Errorf("exit %d with %d errors", code, errs)
	}
}

// TestCorpusCatalogRules: SO101 on every real Pi capture keeps every
// invariant, and each result still validates for its provider.
func TestCorpusCatalogRules(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared corpus not present")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"skillopt", "check", "--rules", "SO101", dir}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("check exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	out := t.TempDir()
	for _, f := range files {
		o := filepath.Join(out, filepath.Base(f))
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"skillopt", "transform", "--rules", "SO101", f, "-o", o}, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: transform exit %d: %s", f, code, stderr.String())
		}
		orig, _ := os.ReadFile(f)
		got, _ := os.ReadFile(o)
		if len(got) >= len(orig) || !bytes.Contains(got, []byte("skill-optimizer:auto:v2")) || bytes.Contains(got, []byte("<available_skills>")) {
			t.Errorf("%s: not compacted (%d → %d bytes)", f, len(orig), len(got))
		}
		// The sidecar metadata (endpoint and headers) goes with the output,
		// and the provider is the one the original was detected as.
		base := strings.TrimSuffix(filepath.Base(f), ".json") + ".meta.json"
		if meta, err := os.ReadFile(filepath.Join(dir, "meta", base)); err == nil {
			os.MkdirAll(filepath.Join(out, "meta"), 0o755)
			os.WriteFile(filepath.Join(out, "meta", base), meta, 0o644)
		}
		stdout.Reset()
		run([]string{"skillopt", "measure", "--format", "json", "--encoding", "none", f}, nil, &stdout, &stderr)
		var rep struct{ Captures []struct{ Provider string } }
		json.Unmarshal(stdout.Bytes(), &rep)
		stdout.Reset()
		if code := run([]string{"skillopt", "validate", "--provider", rep.Captures[0].Provider, o}, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%s: transformed body invalid:\n%s", f, stdout.String())
		}
	}
}
