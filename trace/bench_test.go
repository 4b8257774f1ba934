package trace

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// benchTrace returns a trace of about 20 KB in the router's layout
// (JSON.stringify with two-space indentation): ten tool calls with result
// previews of about 1,700 characters.
func benchTrace(skill string, i int) []byte {
	type call struct {
		Index         int            `json:"index"`
		ServerName    string         `json:"serverName"`
		ToolName      string         `json:"toolName"`
		Args          map[string]any `json:"args"`
		ResultPreview string         `json:"resultPreview"`
		Blocked       bool           `json:"blocked"`
		Timestamp     int64          `json:"timestamp"`
	}
	ts := int64(1767225600000 + 60_000*i)
	line := "func (s *Store) Load(ctx context.Context, key string) (*Item, error) { // \"cached\" path\n"
	preview := strings.Repeat(line, 1700/len(line))
	calls := make([]call, 10)
	for k := range calls {
		calls[k] = call{k, "auggie", "codebase-retrieval", map[string]any{"query": fmt.Sprintf("where is %s loaded, attempt %d", skill, k)}, preview, false, ts + int64(3000*k)}
	}
	stop, text := "completed", "Updated the loader and its tests; the store now returns a typed error when the key is missing."
	if i%7 == 3 {
		stop, text = "timeout", ""
	}
	tr := map[string]any{
		"skillName": skill, "timestamp": ts + 40_000, "model": "augment/anthropic/claude-sonnet-4-5",
		"brief":     map[string]any{"userGoal": "make the loader return typed errors", "constraints": []string{"keep the API"}, "knownContext": "store.go", "userClarifications": []string{}},
		"route":     map[string]any{"tier": "balanced", "complexity": "medium", "risk": "small_edit", "confidence": 0.8, "reason": "a local change"},
		"toolCalls": calls, "finalText": text, "stoppedReason": stop,
	}
	data, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkReport10k times `trace report` over 10,000 trace files of about
// 20 KB: listing, reading, classifying, regression detection and the
// report. The target is at most one second on two cores.
func BenchmarkReport10k(b *testing.B) {
	dir := b.TempDir()
	size := 0
	for i := range 10_000 {
		skill := fmt.Sprintf("skill-%02d", i%20)
		data := benchTrace(skill, i)
		size += len(data)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%d.json", skill, 1767225600000+60_000*i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(size)/10_000, "B/file")
	var live uint64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		paths, errs := Expand([]string{dir})
		if len(errs) > 0 || len(paths) != 10_000 {
			b.Fatalf("%d paths, %v", len(paths), errs)
		}
		sums, errs := Load(paths, nil, Options{})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		rep := Report(Histories(sums, DefaultWindow), ReportOptions{MaxTraces: 10, Inline: 5})
		if len(rep) != 20 {
			b.Fatalf("%d skills", len(rep))
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		runtime.KeepAlive(sums)
		runtime.KeepAlive(rep)
		b.StartTimer()
	}
	// What stays alive per run once everything is read (the summaries,
	// grouped): memory grows with the number of runs, not their size.
	b.ReportMetric(float64(live)/10_000, "live-B/run")
}
