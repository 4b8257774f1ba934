package main

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
