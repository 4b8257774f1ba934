package ruleset

import (
	"encoding/json"
	"fmt"

	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/rules"
)

// piConversations returns the real Pi conversations of the shared corpus:
// for each wire format, its turns in order.
func piConversations(t *testing.T) map[string][]string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "captures", "pi-0.73.1")
	files, _ := filepath.Glob(filepath.Join(dir, "pi-*-*-[0-9]*.json"))
	if len(files) == 0 {
		t.Skipf("no Pi conversations in %s", dir)
	}
	convs := map[string][]string{}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		i := strings.LastIndexByte(base, '-')
		convs[base[:i]] = append(convs[base[:i]], f)
	}
	for k, fs := range convs {
		sort.Slice(fs, func(a, b int) bool {
			var x, y int
			fmt.Sscanf(fs[a][strings.LastIndexByte(fs[a], '-')+1:], "%d", &x)
			fmt.Sscanf(fs[b][strings.LastIndexByte(fs[b], '-')+1:], "%d", &y)
			return x < y
		})
		convs[k] = fs
	}
	return convs
}

// prefixParts is a request in the order a prompt cache reads it: the tool
// declarations, the system text, then each message; every part is compared
// without its cache_control markers (they move from turn to turn) and
// counted by its bytes as sent.
type prefixParts struct {
	canon []string
	size  []int
}

func partsOfCapture(t *testing.T, c *capture.Capture) prefixParts {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(c.Body, &body); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(c.Body, &raw)
	var p prefixParts
	add := func(v any, n int) {
		b, _ := json.Marshal(dropCacheControl(v))
		p.canon = append(p.canon, string(b))
		p.size = append(p.size, n)
	}
	add(body["tools"], len(raw["tools"]))
	sys := []any{}
	n := 0
	for _, k := range []string{"system", "systemInstruction", "instructions"} {
		sys = append(sys, body[k])
		n += len(raw[k])
	}
	list := "messages"
	switch c.Provider {
	case capture.OpenAIResponses:
		list = "input"
	case capture.Gemini:
		list = "contents"
	}
	var msgs []json.RawMessage
	json.Unmarshal(raw[list], &msgs)
	var decoded []any
	json.Unmarshal(raw[list], &decoded)
	// Leading system and developer messages are instructions.
	k := 0
	for ; k < len(decoded); k++ {
		m, _ := decoded[k].(map[string]any)
		if m["role"] != "system" && m["role"] != "developer" {
			break
		}
		sys = append(sys, m)
		n += len(msgs[k])
	}
	add(sys, n)
	for ; k < len(decoded); k++ {
		add(decoded[k], len(msgs[k]))
	}
	return p
}

func dropCacheControl(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "cache_control")
		for k, e := range x {
			x[k] = dropCacheControl(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropCacheControl(e)
		}
	}
	return v
}

// turnCost is one turn under a simple prompt-cache model: the leading parts
// equal to the previous turn's are read from cache, the rest is written.
type turnCost struct {
	cached, written int
	parts           int // leading parts read from cache
}

// cost weighs bytes as Anthropic bills tokens: a cache read at 0.1 of the
// input price, a 5-minute cache write at 1.25.
func (c turnCost) cost() float64 { return 0.1*float64(c.cached) + 1.25*float64(c.written) }

func cacheTurns(turns []prefixParts) []turnCost {
	out := make([]turnCost, len(turns))
	for k, p := range turns {
		same := 0
		if k > 0 {
			prev := turns[k-1]
			for same < len(p.canon) && same < len(prev.canon) && p.canon[same] == prev.canon[same] {
				same++
			}
		}
		out[k].parts = same
		for i, n := range p.size {
			if i < same {
				out[k].cached += n
			} else {
				out[k].written += n
			}
		}
	}
	return out
}

// TestPiConversationsKeepTheirCachedPrefix: on every real Pi conversation,
// the default pipeline gives each turn the tool declarations, system text
// and messages the previous turn sent, except on at most one turn, whose
// change (retrieve_output comes with the first reductions) the rules that
// made it justify (rules.Step.PrefixChange); every later turn extends it.
// No cross-capture invariant reports an error, and the conversation costs
// less under a prompt-cache model.
func TestPiConversationsKeepTheirCachedPrefix(t *testing.T) {
	convs := piConversations(t)
	pipeline, err := Pipeline(config.DefaultPipeline(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	invariants, _ := Invariants(nil, nil)
	names := make([]string, 0, len(convs))
	for k := range convs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		files := convs[name]
		cfg := config.Default()
		cfg.Archive.Dir = t.TempDir()
		env := Env(cfg, pipeline)
		var batch []*rules.Result
		var before, after []prefixParts
		for _, path := range files {
			f, err := capture.ReadFile(path, nil, capture.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := rules.Run(f.Captures[0], pipeline, env)
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, res)
			before = append(before, partsOfCapture(t, res.Original))
			after = append(after, partsOfCapture(t, res.Final))
		}
		// Declarations go in front of the host's last tool breakpoint, so
		// the cached prefix still covers every tool.
		for _, res := range batch {
			if od, fd := res.Original.Doc, res.Final.Doc; res.Original.Provider == capture.Anthropic {
				lastHas := func(d *capture.Doc) bool {
					last := capture.NoNode
					for t := range d.Children(d.Get(0, "tools")) {
						last = t
					}
					return d.Get(last, "cache_control") != capture.NoNode
				}
				if lastHas(od) && !lastHas(fd) {
					t.Errorf("%s: a declaration follows the last tool breakpoint", res.Original.Name)
				}
			}
		}
		breaks := 0
		for k, res := range batch[1:] {
			prev := after[k]
			kept := true
			for i := range prev.canon {
				if i >= len(after[k+1].canon) || after[k+1].canon[i] != prev.canon[i] {
					kept = false
					break
				}
			}
			if kept {
				continue
			}
			breaks++
			justified := false
			for _, s := range res.Steps {
				justified = justified || s.Applied && s.PrefixChange != ""
			}
			if !justified {
				t.Errorf("%s: turn %d changes what turn %d sent, and no rule says why", name, k+2, k+1)
			}
		}
		if breaks > 1 {
			t.Errorf("%s: %d turns change what the turn before sent; at most one may", name, breaks)
		}
		diags, err := rules.VerifyBatch(batch, invariants, env)
		for _, d := range diags {
			if d.Severity == rules.Error {
				t.Errorf("%s: cross-capture invariant: %+v", name, d)
			}
		}
		if err != nil {
			t.Error(err)
		}
		cb, ca := cacheTurns(before), cacheTurns(after)
		var costB, costA float64
		var line strings.Builder
		for k := range cb {
			costB += cb[k].cost()
			costA += ca[k].cost()
			fmt.Fprintf(&line, " turn %d: cached %d→%d written %d→%d;", k+1, cb[k].cached, ca[k].cached, cb[k].written, ca[k].written)
		}
		t.Logf("%s:%s cost %.0f → %.0f byte-units (%.1f %%)", name, line.String(), costB, costA, 100*(costA-costB)/costB)
		if costA > costB {
			t.Errorf("%s: the pipeline raises the conversation's cost from %.0f to %.0f byte-units", name, costB, costA)
		}
	}
}

// TestHostToolNamesNotTakenOver: when a real Pi request already declares a
// tool of the host named skill_search or retrieve_output, the default
// pipeline adds no second one and never points the model at the host's
// tool: the native catalog stays, and no recovery label names a handle.
func TestHostToolNamesNotTakenOver(t *testing.T) {
	convs := piConversations(t)
	pipeline, err := Pipeline(config.DefaultPipeline(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	host := map[string]capture.ToolSpec{
		"skill_search":    {Name: "skill_search", Description: "Search the staff directory by skill.", Parameters: []byte(`{"type":"object","properties":{"skill":{"type":"string"}}}`)},
		"retrieve_output": {Name: "retrieve_output", Description: "Fetch the stored log of a CI job by id.", Parameters: []byte(`{"type":"object","properties":{"job":{"type":"string"}}}`)},
	}
	for _, name := range []string{"pi-anthropic-messages-small", "pi-openai-completions-small", "pi-google-generative-ai-small"} {
		files := convs[name]
		f, err := capture.ReadFile(files[len(files)-1], nil, capture.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for tool, spec := range host {
			c := f.Captures[0]
			ins, err := c.ToolInsertion(spec)
			if err != nil {
				t.Fatal(err)
			}
			next, _, err := rules.Apply(c, []rules.Edit{{Pointer: ins.Pointer, Append: ins.Append, Insert: ins.Insert, NewJSON: ins.JSON}})
			if err != nil {
				t.Fatal(err)
			}
			cfg := config.Default()
			cfg.Archive.Dir = t.TempDir()
			res, err := rules.Run(next, pipeline, Env(cfg, pipeline))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, tn := range res.Final.ToolNames() {
				if tn == tool {
					n++
				}
			}
			body := string(res.Final.Body)
			switch {
			case n != 1:
				t.Errorf("%s with a host %s: %d tools of that name", name, tool, n)
			case tool == "skill_search" && strings.Contains(body, "Use skill_search"):
				t.Errorf("%s: the catalog points the model at the host's skill_search", name)
			case tool == "retrieve_output" && strings.Contains(body, "sko:"):
				t.Errorf("%s: a recovery label points the model at the host's retrieve_output", name)
			}
		}
	}
}
