package measure

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/rules"
)

// chainSession is a Pi session of n assistant turns, each answering a user
// message of text.
func chainSession(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}` + "\n")
	parent := "null"
	for i := range n {
		u, a := fmt.Sprintf("u%d", i), fmt.Sprintf("a%d", i)
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%s,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"question %d: %s"}]}}`+"\n", u, parent, i, strings.Repeat("word ", 40))
		fmt.Fprintf(&b, `{"type":"message","id":%q,"parentId":%q,"timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"answer %d"}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0}}}`+"\n", a, u, i)
		parent = fmt.Sprintf("%q", a)
	}
	return b.Bytes()
}

// rewrite returns a transformer that replaces "word" by "WORD" in the
// entries where pick says so, as a rule would.
func rewrite(t *testing.T, pick func(entry, entries int) bool, runs *int) Transformer {
	return func(c *capture.Capture) *rules.Result {
		*runs++
		d := c.Doc
		n := d.Len(0)
		var parts [][]byte
		k := 0
		for e := range d.Children(0) {
			raw := d.Raw(e)
			if pick(k, n) {
				raw = bytes.ReplaceAll(raw, []byte("word"), []byte("WORD"))
			}
			parts = append(parts, raw)
			k++
		}
		body := append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']')
		final, err := c.WithBody(body)
		if err != nil {
			t.Fatal(err)
		}
		return &rules.Result{Original: c, Final: final}
	}
}

// TestChainMatchesEveryTurn: the turns of a session chain read off a few
// transformed turns are what transforming every turn gives — for rules
// that keep the prefix, that change everything once from some turn on,
// and (by falling back) for one that follows the newest message.
func TestChainMatchesEveryTurn(t *testing.T) {
	const turns = 40
	f, err := capture.Read("s.jsonl", chainSession(turns), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		pick func(entry, entries int) bool
		// most is the most turns the chain may transform whole.
		most int
	}{
		{"nothing", func(int, int) bool { return false }, 12},
		{"every entry", func(int, int) bool { return true }, 12},
		{"from the 25th request on", func(_, n int) bool { return n >= 2*25-1 }, 12},
		{"the newest entry only", func(e, n int) bool { return e == n-1 }, turns},
	}
	for _, tc := range cases {
		ins, errs := Inputs([]*capture.File{f})
		if len(errs) > 0 || len(ins) != turns || ins[0].Chain == nil || ins[0].Chain != ins[turns-1].Chain {
			t.Fatalf("%d inputs, %v", len(ins), errs)
		}
		runs := 0
		chained, err := Requests(ins, rewrite(t, tc.pick, &runs))
		if err != nil {
			t.Fatal(err)
		}
		if runs > tc.most {
			t.Errorf("%s: %d turns transformed whole, at most %d expected", tc.name, runs, tc.most)
		}
		every := make([]Request, len(ins))
		all := 0
		for i := range ins {
			c, err := ins[i].Materialize()
			if err != nil {
				t.Fatal(err)
			}
			every[i] = Request{Name: ins[i].Name, Result: rewrite(t, tc.pick, &all)(c), Vendor: ins[i].Vendor, Model: ins[i].Model, Usage: ins[i].Usage}
		}
		a, b := converse(t, chained, ConversationOptions{}), converse(t, every, ConversationOptions{})
		if got, want := jsonOf(t, a), jsonOf(t, b); got != want {
			t.Errorf("%s: the chain's report differs from every turn's:\n%s\n%s", tc.name, got, want)
		}
	}
}

// TestCalibration: a provider that counts every prompt as 1,500 tokens
// more than 0.9 of skillopt's count is predicted exactly from the second
// turn with usage on, and no turn is calibrated from its own usage.
func TestCalibration(t *testing.T) {
	var c calibrator
	side := func(input, cached int) Side { return Side{Input: input, Cached: cached, Written: input - cached} }
	s := side(1000, 0)
	if c.apply(&s, nil) || s.Input != 1000 {
		t.Fatalf("calibrated before any usage: %+v", s)
	}
	provider := func(x int) int { return 1500 + x*9/10 }
	c.add(1000, provider(1000))
	for _, x := range []int{3000, 8000, 20000} {
		s := side(x, x-1000)
		if !c.apply(&s, nil) || s.Counts != "calibrated" {
			t.Fatalf("%d: not calibrated", x)
		}
		if x > 3000 && (s.Input != provider(x) || s.Cached != provider(x-1000) || s.Cached+s.Written+s.Uncached != s.Input) {
			t.Errorf("%d: %+v, want input %d, cached %d", x, s, provider(x), provider(x-1000))
		}
		c.add(x, provider(x))
	}
}
