package measure_test

import (
	"fmt"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/rules"
)

// BenchmarkConversationTurns times what `measure --conversation` does with
// a Pi session of 100, 500 and 2,000 turns (synth.PiSession): reading its
// turns, the default pipeline (measure's dry run, schema validation
// included) and the cache-true account. ns/turn and B/turn stay flat as
// the session grows.
func BenchmarkConversationTurns(b *testing.B) {
	counter, err := tokens.New("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	pipeline, err := ruleset.Pipeline(config.DefaultPipeline(), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, turns := range []int{100, 500, 2000} {
		data := synth.PiSession(turns)
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			cfg := config.Default()
			cfg.Archive.Dir = b.TempDir()
			env := ruleset.Env(cfg, pipeline)
			ruleset.SetArchive(env, env.Archive, true)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				f, err := capture.Read("session.jsonl", data, capture.Options{})
				if err != nil {
					b.Fatal(err)
				}
				ins, errs := measure.Inputs([]*capture.File{f})
				if len(errs) > 0 || len(ins) != turns {
					b.Fatalf("%d turns, %v", len(ins), errs)
				}
				reqs, err := measure.Requests(ins, func(c *capture.Capture) *rules.Result {
					res, err := rules.Run(c, pipeline, env)
					if err != nil {
						b.Fatal(err)
					}
					return res
				})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := measure.Converse(reqs, measure.ConversationOptions{Encoding: "o200k_base", Counter: counter, Pipeline: pipeline}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(turns), "ns/turn")
		})
	}
}
