package measure

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillopt/skillopt/capture"
)

// Input is one request of a conversation as read from the captures, before
// any rule ran: its body, the cache and price family it is billed under,
// and the provider's usage when the capture carries it.
type Input struct {
	Name string
	// Capture is the request; nil for a turn of a session chain, which is
	// the first Len entries of Chain's tip (see Materialize).
	Capture       *capture.Capture
	Chain         *Chain
	Len           int
	Vendor, Model string
	Usage         *Usage
	// Time is when the request was sent or answered, as the file says
	// (zero when it does not); Compaction marks the first request after
	// the host compacted the conversation.
	Time       time.Time
	Compaction bool
	// Lead is the latest earlier request among the inputs to the same
	// model, from another conversation (set by Split on a conversation's
	// first request): where a cold start departs from it.
	Lead *capture.Capture
	// seq is the input's place among the inputs Split was given.
	seq int
}

// Chain is successive requests of a session of which each repeats the one
// before it and adds to it: every turn is a prefix of the longest, the tip,
// a Pi message list. Measuring a chain transforms a few of its turns, not
// every one (see Requests).
type Chain struct {
	Tip *capture.Capture
	// ends[i] is where entry i of the tip ends in its body.
	ends []int
	// open is where the list starts in the tip's body and tail what
	// closes it after an entry; tail nil: the tip is a Pi message list
	// (open 1, tail "]").
	open int
	tail []byte
	// from is the capture of the session file the chain was read from.
	from *capture.Capture
}

// Materialize returns the request of an input: its capture, or for a turn
// of a chain a Pi message list of the tip's first Len entries.
func (in *Input) Materialize() (*capture.Capture, error) {
	if in.Capture != nil || in.Chain == nil {
		return in.Capture, nil
	}
	tip := in.Chain.Tip
	n := in.Len
	if n >= len(in.Chain.ends) {
		return tip, nil
	}
	if in.Chain.tail != nil {
		cut := in.Chain.open
		if n > 0 {
			cut = in.Chain.ends[n-1]
		}
		body := make([]byte, 0, cut+len(in.Chain.tail))
		c, err := tip.WithBody(append(append(body, tip.Body[:cut]...), in.Chain.tail...))
		if err == nil {
			c.Name = in.Name
		}
		return c, err
	}
	if n <= 0 {
		c, err := tip.WithBody([]byte("[]"))
		if err == nil {
			c.Name = in.Name
		}
		return c, err
	}
	body := make([]byte, 0, in.Chain.ends[n-1]+1)
	body = append(body, tip.Body[:in.Chain.ends[n-1]]...)
	body = append(body, ']')
	c, err := tip.WithBody(body)
	if err != nil {
		return nil, err
	}
	c.Name = in.Name
	return c, nil
}

// Inputs turns captures into the successive requests of one conversation:
// each capture is a request, in the order given, except a Pi session,
// whose every assistant turn is a request made of the session before it.
// HAR entries bring the provider's usage from their responses, session
// turns from the assistant message. A session that holds no assistant
// turn is reported and left out.
func Inputs(files []*capture.File) ([]Input, []error) {
	var out []Input
	var errs []error
	for _, f := range files {
		var har *capture.Doc
		for _, c := range f.Captures {
			if c.Session != nil {
				out = append(out, hostTurns(c)...)
				continue
			}
			if c.Envelope == capture.EnvPiSession {
				turns, err := SessionTurns(c)
				if err != nil {
					errs = append(errs, &capture.Error{File: c.Name, Err: err})
					continue
				}
				out = append(out, turns...)
				continue
			}
			in := Input{Name: c.Name, Capture: c, Time: c.Time}
			in.Vendor, in.Model = capture.VendorOf(c)
			if c.Envelope == capture.EnvHAR {
				if har == nil {
					har, _ = capture.Parse(f.Data)
				}
				in.Usage = harUsage(har, c.Name)
			}
			if c.Response != nil {
				in.Usage = exchangeUsage(c.Response)
			}
			out = append(out, in)
		}
	}
	return out, errs
}

// hostTurns are the requests of a conversation read from a host's
// session file (Claude Code, Codex): one a turn, each the first entries
// of its segment's tip, with the usage the file holds.
func hostTurns(c *capture.Capture) []Input {
	var out []Input
	s := c.Session
	file := c.Name
	if c.File != nil {
		file = c.File.Name
	}
	for k, seg := range s.Segments {
		ch := &Chain{Tip: seg.Tip, ends: seg.Ends, open: seg.Open, tail: seg.Tail, from: c}
		vendor, _ := capture.VendorOf(seg.Tip)
		for j, t := range seg.Turns {
			in := Input{Name: fmt.Sprintf("%s:%d", file, t.Line), Chain: ch, Len: t.Items, Vendor: vendor, Model: t.Model, Time: t.Time}
			// A segment after the first starts at a compaction.
			in.Compaction = k > 0 && j == 0
			if in.Model == "" {
				_, in.Model = capture.VendorOf(seg.Tip)
			}
			in.Usage = hostUsage(s.Host, t.Usage)
			out = append(out, in)
		}
	}
	return out
}

// hostUsage reads the usage a session file holds for a turn: an Anthropic
// usage object (Claude Code), a Codex token_count's last_token_usage,
// whose input_tokens count its cached_input_tokens, or a Gemini CLI
// message's tokens.
func hostUsage(host string, raw []byte) *Usage {
	d, err := capture.Parse(raw)
	if err != nil || d.Kind(0) != capture.Object {
		return nil
	}
	if host == capture.HostGeminiCLI {
		return geminiCLIUsage(d)
	}
	if host == capture.HostCodex {
		in, okIn := intMember(d, 0, "input_tokens")
		out, okOut := intMember(d, 0, "output_tokens")
		if !okIn || !okOut || in+out == 0 {
			return nil
		}
		cached, _ := intMember(d, 0, "cached_input_tokens")
		cached = min(cached, in)
		return &Usage{Source: "codex session", Input: in, Cached: cached, Uncached: in - cached, Output: out}
	}
	f := usageFields{}
	f.read(d, 0)
	u := f.usage()
	if u == nil || u.Input+u.Output == 0 {
		return nil
	}
	u.Source = "claude code session"
	return u
}

// geminiCLIUsage reads a Gemini CLI message's tokens, the response's
// usageMetadata under other names: input is promptTokenCount (cached
// ones included) and tool toolUsePromptTokenCount, both prompt tokens;
// cached is cachedContentTokenCount, output candidatesTokenCount and
// thoughts thoughtsTokenCount, billed as output.
func geminiCLIUsage(d *capture.Doc) *Usage {
	in, okIn := intMember(d, 0, "input")
	out, okOut := intMember(d, 0, "output")
	if !okIn || !okOut || in+out == 0 {
		return nil
	}
	tool, _ := intMember(d, 0, "tool")
	in += tool
	cached, _ := intMember(d, 0, "cached")
	cached = min(cached, in)
	think, _ := intMember(d, 0, "thoughts")
	return &Usage{Source: "gemini cli session", Input: in, Cached: cached, Uncached: in - cached, Output: out + think}
}

// SessionTurns splits a Pi session (read as one capture holding the
// session's lines) into requests: for every assistant message, the context
// Pi built from the session before it (the path from the root to the
// message's parent, with a compaction's summary in place of what it
// compacted), as a Pi message list. The request carries the assistant
// message's provider, model and usage.
func SessionTurns(c *capture.Capture) ([]Input, error) {
	d := c.Doc
	if d.Kind(0) != capture.Array {
		return nil, fmt.Errorf("not a Pi session")
	}
	pe := readPiEntries(d)
	entries := pe.entries
	lines := entryLines(c)
	var out []Input
	// The path and context of the previous turn, the index of each path
	// entry in the path, and the turns of the chain being built.
	w := &piWalk{onPath: map[int]int{}}
	var ctx []int
	var chain []int
	flush := func() error {
		if len(chain) == 0 {
			return nil
		}
		tip, ends := contextBody(d, entries, ctx)
		tc, err := c.WithBody(tip)
		if err != nil {
			return err
		}
		tc.Name = out[chain[len(chain)-1]].Name
		ch := &Chain{Tip: tc, ends: ends}
		for _, k := range chain {
			out[k].Chain = ch
		}
		chain = chain[:0]
		return nil
	}
	for i, e := range entries {
		msg := d.Get(e, "message")
		if !d.StrIs(d.Get(e, "type"), "message") || !d.StrIs(d.Get(msg, "role"), "assistant") {
			continue
		}
		walked, extends := w.step(pe.parent, pe.parent[i])
		newComp := false
		for _, p := range walked {
			newComp = newComp || pe.compaction[p]
		}
		var next []int
		if extends && !newComp && len(chain) > 0 {
			// The context grows by what the turn walked.
			next = ctx
			for k := len(walked) - 1; k >= 0; k-- {
				if pe.sent[walked[k]] {
					next = append(next, walked[k])
				}
			}
		} else {
			next = sessionContext(d, entries, pe.byID, w.path, pe.sent, pe.compaction)
		}
		// A turn that does not repeat the previous turn's context (a
		// compaction, another branch) starts a new chain.
		continues := len(chain) > 0 && len(next) >= len(ctx) && (extends && !newComp || slices.Equal(ctx, next[:len(ctx)]))
		if !continues {
			if err := flush(); err != nil {
				return nil, err
			}
			next = slices.Clone(next)
		}
		ctx = next
		line := i + 1
		if i < len(lines) {
			line = lines[i]
		}
		model := d.GetStr(msg, "model")
		in := Input{Name: fmt.Sprintf("%s:%d", c.Name, line), Len: len(ctx), Vendor: capture.PiVendor(d.GetStr(msg, "provider"), model), Model: model}
		in.Time = capture.TimeOf(d, d.Get(entries[i], "timestamp"))
		in.Compaction = newComp && len(out) > 0
		in.Usage = piUsage(d, d.Get(msg, "usage"))
		chain = append(chain, len(out))
		out = append(out, in)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the Pi session holds no assistant turn")
	}
	return out, nil
}

// piEntries is what every turn needs of a Pi session's entries, read
// once: their nodes, the position of each id, and per entry its parent,
// whether it is sent and whether it is a compaction.
type piEntries struct {
	entries    []capture.Node
	byID       map[string]int
	parent     []int
	sent       []bool
	compaction []bool
}

func readPiEntries(d *capture.Doc) *piEntries {
	pe := &piEntries{byID: map[string]int{}} // entry id → position in entries
	for e := range d.Children(0) {
		pe.entries = append(pe.entries, e)
	}
	entries := pe.entries
	tree := false
	for i, e := range entries {
		if id := d.GetStr(e, "id"); id != "" && d.Get(e, "parentId") != capture.NoNode {
			pe.byID[id] = i
			tree = true
		}
	}
	pe.parent = make([]int, len(entries))
	pe.sent = make([]bool, len(entries))
	pe.compaction = make([]bool, len(entries))
	for i, e := range entries {
		pe.parent[i] = -1
		if tree {
			pe.parent[i] = parentOf(d, entries, pe.byID, i)
		} else if i > 0 {
			pe.parent[i] = i - 1
		}
		pe.sent[i] = inContext(d, e)
		pe.compaction[i] = d.StrIs(d.Get(e, "type"), "compaction")
	}
	return pe
}

// piWalk is the path from a session's root to the latest turn's parent,
// with the index of each entry on it.
type piWalk struct {
	path   []int
	onPath map[int]int
}

// step moves the path to the one from the root to entry from (parent
// gives each entry's): the previous path up to where the new one leaves
// it, then what it walks since. It returns the entries walked, nearest
// first, and whether the new path extends the previous one.
func (w *piWalk) step(parent []int, from int) ([]int, bool) {
	var walked []int
	keep := 0
	seen := map[int]bool{}
	for p := from; p >= 0 && !seen[p]; p = parent[p] {
		if k, ok := w.onPath[p]; ok {
			keep = k + 1
			break
		}
		seen[p] = true
		walked = append(walked, p)
	}
	extends := keep == len(w.path)
	for _, p := range w.path[keep:] {
		delete(w.onPath, p)
	}
	w.path = w.path[:keep]
	for k := len(walked) - 1; k >= 0; k-- {
		w.onPath[walked[k]] = len(w.path)
		w.path = append(w.path, walked[k])
	}
	return walked, extends
}

// contextBody writes the entries at positions ctx as a Pi message list and
// returns it with where each entry ends in it.
func contextBody(d *capture.Doc, entries []capture.Node, ctx []int) ([]byte, []int) {
	size := 2
	for _, p := range ctx {
		size += len(d.Raw(entries[p])) + 1
	}
	body := make([]byte, 0, size)
	body = append(body, '[')
	ends := make([]int, len(ctx))
	for k, p := range ctx {
		if k > 0 {
			body = append(body, ',')
		}
		body = append(body, d.Raw(entries[p])...)
		ends[k] = len(body)
	}
	return append(body, ']'), ends
}

// entryLines returns the line number of each entry of a session file: its
// non-blank lines.
func entryLines(c *capture.Capture) []int {
	if c.File == nil {
		return nil
	}
	var out []int
	for i, line := range bytes.Split(c.File.Data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, i+1)
		}
	}
	return out
}

func parentOf(d *capture.Doc, entries []capture.Node, byID map[string]int, i int) int {
	p := d.Get(entries[i], "parentId")
	if d.Kind(p) != capture.String {
		return -1
	}
	if j, ok := byID[d.Str(p)]; ok {
		return j
	}
	return -1
}

// sessionContext keeps the entries of a path that reach the model: the
// last compaction's summary first, then what it kept, then what followed
// it; messages, custom messages and branch summaries.
func sessionContext(d *capture.Doc, entries []capture.Node, byID map[string]int, path []int, sent, compaction []bool) []int {
	comp := -1
	for k, p := range path {
		if compaction[p] {
			comp = k
		}
	}
	var keep []int
	if comp >= 0 {
		ce := entries[path[comp]]
		keep = append(keep, path[comp])
		first := comp // nothing before the compaction is kept unless it says so
		if id := d.GetStr(ce, "firstKeptEntryId"); id != "" {
			if j, ok := byID[id]; ok {
				for k := 0; k < comp; k++ {
					if path[k] == j {
						first = k
					}
				}
			}
		} else if n := d.Get(ce, "firstKeptEntryIndex"); d.Kind(n) == capture.Number {
			if j, err := strconv.Atoi(string(d.Raw(n))); err == nil {
				for k := 0; k < comp; k++ {
					if path[k] >= j {
						first = k
						break
					}
				}
			}
		}
		for k := first; k < comp; k++ {
			keep = append(keep, path[k])
		}
		for k := comp + 1; k < len(path); k++ {
			keep = append(keep, path[k])
		}
	} else {
		keep = path
	}
	var out []int
	for _, p := range keep {
		if sent[p] {
			out = append(out, p)
		}
	}
	return out
}

// inContext reports a session entry that is sent to the model.
func inContext(d *capture.Doc, e capture.Node) bool {
	switch d.GetStr(e, "type") {
	case "custom_message", "branch_summary", "compaction":
		return true
	case "message":
		m := d.Get(e, "message")
		if d.StrIs(d.Get(m, "role"), "bashExecution") && d.Kind(d.Get(m, "excludeFromContext")) == capture.True {
			return false
		}
		return m != capture.NoNode
	}
	return false
}

// piUsage reads a Pi assistant message's usage: input (uncached),
// cacheRead, cacheWrite, output and cost.total. A usage of zeros (an
// aborted request) is no usage.
func piUsage(d *capture.Doc, u capture.Node) *Usage {
	if d.Kind(u) != capture.Object {
		return nil
	}
	in, okIn := intMember(d, u, "input")
	read, _ := intMember(d, u, "cacheRead")
	write, _ := intMember(d, u, "cacheWrite")
	out, okOut := intMember(d, u, "output")
	if !okIn || !okOut || in+read+write+out == 0 {
		return nil
	}
	us := &Usage{Source: "pi session", Input: in + read + write, Cached: read, Written: write, Uncached: in, Output: out}
	if t := d.Get(d.Get(u, "cost"), "total"); d.Kind(t) == capture.Number {
		if v, err := strconv.ParseFloat(string(d.Raw(t)), 64); err == nil {
			us.Cost = &v
			us.CostSource = "pi session"
		}
	}
	return us
}

func intMember(d *capture.Doc, obj capture.Node, key string) (int, bool) {
	n := d.Get(obj, key)
	if d.Kind(n) != capture.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(d.Raw(n)), 64)
	if err != nil || f < 0 || f > 1e12 {
		return 0, false
	}
	return int(f), true
}

// exchangeUsage reads the usage of the response a capture holds beside
// its request: a recording's "usage" (the provider's own object, as
// reported), else the usage in its "body" (a JSON object or the text of a
// stream) or "stream", or in a claude-trace log's "body_raw".
func exchangeUsage(resp []byte) *Usage {
	d, err := capture.Parse(resp)
	if err != nil || d.Kind(0) != capture.Object {
		return nil
	}
	if u := d.Get(0, "usage"); d.Kind(u) == capture.Object {
		f := usageFields{}
		f.read(d, u)
		if us := f.usage(); us != nil {
			us.Source = "recording"
			return us
		}
	}
	for _, k := range []string{"body", "stream", "body_raw"} {
		n := d.Get(0, k)
		var us *Usage
		switch d.Kind(n) {
		case capture.Object, capture.Array:
			us = ResponseUsage(d.Raw(n))
		case capture.String:
			us = ResponseUsage([]byte(d.Str(n)))
		}
		if us != nil {
			return us
		}
	}
	return nil
}

// harUsage finds the usage in the response of the HAR entry a capture came
// from (its name ends in "#N").
func harUsage(har *capture.Doc, name string) *Usage {
	if har == nil {
		return nil
	}
	i := strings.LastIndexByte(name, '#')
	if i < 0 {
		return nil
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n < 1 {
		return nil
	}
	e := har.Elem(har.Get(har.Get(0, "log"), "entries"), n-1)
	content := har.Get(har.Get(e, "response"), "content")
	text := har.Get(content, "text")
	if har.Kind(text) != capture.String {
		return nil
	}
	body := []byte(har.Str(text))
	if har.StrIs(har.Get(content, "encoding"), "base64") {
		dec, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(body)))
		if err != nil {
			return nil
		}
		body = dec
	}
	return ResponseUsage(body)
}
