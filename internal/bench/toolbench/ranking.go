package toolbench

import (
	"slices"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/transform/tools"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/config"
)

// Ranking is the time to plan one request (human text, history, ranking,
// decision) over a catalog of Tools declarations.
type Ranking struct {
	Tools int `json:"tools"`
	// ColdMicros builds the index from the request's declarations;
	// WarmMicros finds it cached (consecutive requests of one session).
	ColdMicros float64 `json:"cold_us"`
	WarmMicros float64 `json:"warm_us"`
}

// rankingRuns is the number of timed plans per figure.
const rankingRuns = 51

// TimeRanking measures planning an Anthropic request of n tools made from
// tools (see Scaled) with prompt. Reading the request is not timed.
//
// A cold request must not find its index cached: every cold run declares
// a tool set the cache has not seen (see variantOf).
func TimeRanking(specs []capture.ToolSpec, n int, prompt string, cfg *config.Config) (Ranking, error) {
	scaled := Scaled(specs, n)
	r := Ranking{Tools: len(scaled)}
	if len(scaled) == 0 {
		return r, nil
	}
	cold := make([]*capture.Capture, rankingRuns)
	for i := range cold {
		c, err := Capture(capture.Anthropic, variantOf(scaled, i), prompt)
		if err != nil {
			return r, err
		}
		cold[i] = c
	}
	k := 0
	r.ColdMicros = bench.MedianMicros(rankingRuns, func() {
		tools.Decide(cold[k], tools.FromSet(cfg.Options))
		k++
	}, nil)
	c, err := Capture(capture.Anthropic, scaled, prompt)
	if err != nil {
		return r, err
	}
	tools.Decide(c, tools.FromSet(cfg.Options))
	var next *capture.Capture
	r.WarmMicros = bench.MedianMicros(rankingRuns, func() { tools.Decide(next, tools.FromSet(cfg.Options)) }, func() {
		next, _ = c.WithBody(c.Body)
	})
	return r, nil
}

// variantOf returns tools with the last description ending in whitespace
// that spells v (spaces and tabs for its binary digits): a tool set whose
// bytes differ from every other variant's, so no index cached for one
// serves another, while not one indexed term differs.
func variantOf(tools []capture.ToolSpec, v int) []capture.ToolSpec {
	out := slices.Clone(tools)
	if len(out) == 0 {
		return out
	}
	digits := strings.NewReplacer("0", " ", "1", "\t").Replace(strconv.FormatUint(uint64(v), 2))
	out[len(out)-1].Description += " " + digits
	return out
}
