package measure_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

// TestChainsAgreeOnRealSessions: on the real Pi sessions of the corpus,
// with the default pipeline and with head/tail history (which rewrites
// what earlier turns sent), the report read off a few transformed turns
// is the report of transforming every turn. The sessions are cut to their
// first lines to keep the every-turn side short (SKILLOPT_LONG_TESTS=1:
// whole).
func TestChainsAgreeOnRealSessions(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "provider-examples", "pi")
	files, _ := filepath.Glob(filepath.Join(dir, "*session*.jsonl"))
	if len(files) == 0 {
		t.Skipf("no Pi sessions in %s", dir)
	}
	counter, err := tokens.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("SKILLOPT_LONG_TESTS") == "" {
			data = firstLines(data, 100)
		}
		f, err := capture.Read(filepath.Base(path), data, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, strategy := range []string{"recent", "head-tail"} {
			cfg := config.Default()
			toml := "[output]\nhistory_strategy = \"" + strategy + "\"\n"
			if err := config.DecodeWith("skillopt.toml", []byte(toml), cfg, ruleset.Registry().Binding()); err != nil {
				t.Fatal(err)
			}
			cfg.Archive.Dir = t.TempDir()
			pipeline, err := ruleset.Pipeline(config.DefaultPipeline(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			env := ruleset.Env(cfg, pipeline)
			ruleset.SetArchive(env, env.Archive, true)
			run := func(c *capture.Capture) *rules.Result {
				res, err := rules.Run(c, pipeline, env)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			ins, errs := measure.Inputs([]*capture.File{f})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			chained, err := measure.Requests(ins, run)
			if err != nil {
				t.Fatal(err)
			}
			every := make([]measure.Request, len(ins))
			for i := range ins {
				c, err := ins[i].Materialize()
				if err != nil {
					t.Fatal(err)
				}
				every[i] = measure.Request{Name: ins[i].Name, Result: run(c), Vendor: ins[i].Vendor, Model: ins[i].Model, Usage: ins[i].Usage, Time: ins[i].Time, Compaction: ins[i].Compaction}
			}
			opts := measure.ConversationOptions{Encoding: "o200k_base", Counter: counter}
			a, err := measure.Converse(chained, opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := measure.Converse(every, opts)
			if err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("%s, %s history: the chained report differs from every turn's", path, strategy)
			}
			t.Logf("%s, %s history: %d turns agree", filepath.Base(path), strategy, len(a.Turns))
		}
	}
}

func firstLines(data []byte, n int) []byte {
	k := 0
	for i, c := range data {
		if c == '\n' {
			if k++; k == n {
				return data[:i+1]
			}
		}
	}
	return data
}
