package measure

import (
	"math"

	"github.com/skillopt/skillopt/measure/price"
)

// A prediction counts the prompt with skillopt's tokenizer, which is not
// every model's, and sees only what the capture holds (a Pi session has no
// system prompt and no tool declarations). Where the provider reported
// its own counts for earlier turns, the prediction is calibrated from
// them, never from the turn being predicted: the provider's count of a
// prompt that skillopt counts as x tokens is taken to be
//
//	f(x) = b + r·x
//
// with r the ratio of the provider's growth to skillopt's over the recent
// turns (the tokenizers' ratio on what the conversation adds) and b set so
// that f gives the provider's count of the latest earlier turn exactly (b
// is then what the capture does not show: the system prompt and tools, the
// provider's framing). A cache holds prefixes, so f maps the cached, the
// cached-and-written and the whole prompt, each a prefix of the next.

// calibrator learns f for one model from the turns it has seen.
type calibrator struct {
	// last is the latest earlier turn with usage: skillopt's count and
	// the provider's.
	ours, theirs int
	seen         bool
	// steps are the recent growths from one turn with usage to the next.
	steps []step
}

type step struct{ ours, theirs int }

// recentSteps is how many growths r is taken over.
const recentSteps = 16

// add learns from a turn skillopt counted as ours that the provider
// counted as theirs.
func (c *calibrator) add(ours, theirs int) {
	if c.seen {
		if d := ours - c.ours; d > 0 && theirs > c.theirs {
			c.steps = append(c.steps, step{d, theirs - c.theirs})
			if len(c.steps) > recentSteps {
				c.steps = c.steps[1:]
			}
		}
	}
	c.ours, c.theirs, c.seen = ours, theirs, true
}

// ratio is r: the recent growths' ratio when they are large enough to
// say, else the latest turn's whole ratio; 1 when neither is sensible.
func (c *calibrator) ratio() float64 {
	do, dt := 0, 0
	for _, s := range c.steps {
		do += s.ours
		dt += s.theirs
	}
	r := 0.0
	switch {
	case do >= 256:
		r = float64(dt) / float64(do)
	case c.ours > 0:
		r = float64(c.theirs) / float64(c.ours)
	}
	if r < 0.25 || r > 4 || math.IsNaN(r) {
		return 1
	}
	return r
}

// apply calibrates a side: its prefixes mapped by f, the cost recomputed
// at pr. It reports false (leaving s as it is) before the first turn with
// usage.
func (c *calibrator) apply(s *Side, pr *price.Price) bool {
	if !c.seen {
		return false
	}
	r := c.ratio()
	b := float64(c.theirs) - r*float64(c.ours)
	f := func(x int) int { return max(int(math.Round(b+r*float64(x))), 0) }
	input := f(s.Input)
	cached, written := 0, 0
	if s.Cached > 0 {
		cached = min(f(s.Cached), input)
	}
	if s.Written > 0 {
		written = min(f(s.Cached+s.Written), input) - cached
	}
	if s.Written1h > 0 && s.Written > 0 {
		s.Written1h = int(math.Round(float64(s.Written1h) * float64(written) / float64(s.Written)))
	}
	s.Input, s.Cached, s.Written = input, cached, max(written, 0)
	s.Uncached = s.Input - s.Cached - s.Written
	if pr != nil {
		out := -1
		if s.Output != nil {
			out = *s.Output
		}
		cost := pr.Cost(price.Tokens{Read: s.Cached, Write: s.Written, Write1h: s.Written1h, Uncached: s.Uncached, Output: out})
		s.Cost = &cost
	}
	s.Counts = "calibrated"
	return true
}
