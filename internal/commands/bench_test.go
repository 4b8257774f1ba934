package commands

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/bench/catalogbench"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// BenchmarkMeasure runs `skillopt measure` in-process on a synthetic
// 10,000-skill capture (about 3 MB).
func BenchmarkMeasure(b *testing.B) {
	body, err := synth.Capture("anthropic", synth.Skills(10000, 1), 1)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "c.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, enc := range []string{"none", "o200k_base"} {
		b.Run(enc, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if code := run([]string{"skillopt", "measure", "--encoding", enc, path}, nil, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// TestBenchCatalogMatchesTransform: the catalog bytes `bench catalog`
// reports are the bytes `skillopt transform` writes for the same synthetic
// capture: the compact index with SO101, the tag directory with SO102 and
// the same cards.
func TestBenchCatalogMatchesTransform(t *testing.T) {
	for _, n := range []int{40, 355} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			in, err := catalogbench.NewInput(n, 3)
			if err != nil {
				t.Fatal(err)
			}
			row, err := catalogbench.Run(n, 3, 8)
			if err != nil {
				t.Fatal(err)
			}
			if row.NativeBytes+row.OtherBytes != len(in.Body) {
				t.Fatalf("native %d + other %d != body %d", row.NativeBytes, row.OtherBytes, len(in.Body))
			}
			dir := t.TempDir()
			path := func(name string) string { return filepath.Join(dir, name) }
			if err := os.WriteFile(path("c.json"), in.Body, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := in.Profile.Save(path("cards.json")); err != nil {
				t.Fatal(err)
			}
			// With current cards SO101 leaves the catalog to SO102.
			if err := os.WriteFile(path("plain.toml"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path("cards.toml"), []byte("[catalog]\nprofile = \"cards.json\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				rule, config string
				want         int
			}{{"SO101", "plain.toml", row.CompactBytes}, {"SO102", "cards.toml", row.TagBytes}} {
				out := path(tc.rule + ".json")
				var stderr strings.Builder
				if code := run([]string{"skillopt", "transform", "--config", path(tc.config), "--rules", tc.rule, "-o", out, path("c.json")}, nil, io.Discard, &stderr); code != 0 {
					t.Fatalf("transform --rules %s: exit %d: %s", tc.rule, code, stderr.String())
				}
				got, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if catalogBytes := len(got) - row.OtherBytes; catalogBytes != tc.want {
					t.Errorf("%s: transform gives %d catalog bytes, bench reports %d", tc.rule, catalogBytes, tc.want)
				}
			}
			if row.TagBytes >= row.CompactBytes {
				t.Errorf("tag directory %d bytes, compact index %d: SO102 fell back?", row.TagBytes, row.CompactBytes)
			}
		})
	}
}

// TestBenchTransformerIsTransform: what bench catalog times writes the
// bytes `skillopt transform --no-archive --rules SO101,SO103` writes, for
// requests that differ in their latest human text, and reports the same
// dropped steps.
func TestBenchTransformerIsTransform(t *testing.T) {
	in, err := catalogbench.NewInput(355, 2)
	if err != nil {
		t.Fatal(err)
	}
	v, err := catalogbench.NewVariants(in.Name, in.Body, in.Provider, in.Skills, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := catalogbench.NewTransformer([]string{"SO101", "SO103"}, in.Provider)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// An empty configuration file: the defaults, as without one.
	if err := os.WriteFile(filepath.Join(dir, "none.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range v.Len() {
		body := v.Next()
		want, res, err := tr.Transform(in.Name, body)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || len(res[0].Steps) != 2 || !res[0].Steps[1].Applied {
			t.Fatalf("request %d: prefetch not applied", i)
		}
		path, out := filepath.Join(dir, "c.json"), filepath.Join(dir, "out.json")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		if code := run([]string{"skillopt", "transform", "--config", filepath.Join(dir, "none.toml"), "--no-archive", "--rules", "SO101,SO103", "-o", out, path}, nil, io.Discard, &stderr); code != 0 {
			t.Fatalf("transform: exit %d: %s", code, stderr.String())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("request %d: transform writes %d bytes, the bench's transformer %d", i, len(got), len(want))
		}
	}
}
