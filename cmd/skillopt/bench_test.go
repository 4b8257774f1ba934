package main

import (
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
