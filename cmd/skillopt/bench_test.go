package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

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
