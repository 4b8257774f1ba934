package output

import (
	"testing"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/capture"
)

func TestFileMemory(t *testing.T) {
	env, _ := outEnv(t, nil)
	data := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	f, err := capture.Read("body.json", data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms := FileMemory(f, archive.Off, env.Options)
	maxEntries, maxBytes := MemoryLimits(env.Options)
	if len(ms) != len(f.Captures) || len(ms) == 0 {
		t.Fatalf("%d memories for %d captures", len(ms), len(f.Captures))
	}
	if m := ms[0]; m.MaxEntries != maxEntries || m.MaxBytesPerRun != maxBytes || len(m.Entries) != 0 || m.Entries == nil {
		t.Errorf("memory %+v", m)
	}
}
