package measure

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/cache"
)

// Input is one request of a conversation as read from the captures, before
// any rule ran: its body, the cache and price family it is billed under,
// and the provider's usage when the capture carries it.
type Input struct {
	Name          string
	Capture       *capture.Capture
	Vendor, Model string
	Usage         *Usage
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
			if c.Envelope == capture.EnvPiSession {
				turns, err := SessionTurns(c)
				if err != nil {
					errs = append(errs, &capture.Error{File: c.Name, Err: err})
					continue
				}
				out = append(out, turns...)
				continue
			}
			in := Input{Name: c.Name, Capture: c}
			in.Vendor, in.Model = cache.VendorOf(c)
			if c.Envelope == capture.EnvHAR {
				if har == nil {
					har, _ = capture.Parse(f.Data)
				}
				in.Usage = harUsage(har, c.Name)
			}
			out = append(out, in)
		}
	}
	return out, errs
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
	var entries []int
	for e := range d.Children(0) {
		entries = append(entries, e)
	}
	byID := map[string]int{} // entry id → position in entries
	tree := false
	for i, e := range entries {
		if id := d.GetStr(e, "id"); id != "" && d.Get(e, "parentId") >= 0 {
			byID[id] = i
			tree = true
		}
	}
	lines := entryLines(c)
	var out []Input
	for i, e := range entries {
		msg := d.Get(e, "message")
		if !d.StrIs(d.Get(e, "type"), "message") || !d.StrIs(d.Get(msg, "role"), "assistant") {
			continue
		}
		var path []int // positions in entries, root first
		if tree {
			seen := map[int]bool{}
			for p := parentOf(d, entries, byID, i); p >= 0 && !seen[p]; p = parentOf(d, entries, byID, p) {
				seen[p] = true
				path = append(path, p)
			}
			for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
				path[a], path[b] = path[b], path[a]
			}
		} else {
			for p := 0; p < i; p++ {
				path = append(path, p)
			}
		}
		ctx := sessionContext(d, entries, byID, path)
		body := []byte{'['}
		for k, p := range ctx {
			if k > 0 {
				body = append(body, ',')
			}
			body = append(body, d.Raw(entries[p])...)
		}
		body = append(body, ']')
		turn, err := c.WithBody(body)
		if err != nil {
			return nil, err
		}
		line := i + 1
		if i < len(lines) {
			line = lines[i]
		}
		turn.Name = fmt.Sprintf("%s:%d", c.Name, line)
		model := d.GetStr(msg, "model")
		in := Input{Name: turn.Name, Capture: turn, Vendor: cache.PiVendor(d.GetStr(msg, "provider"), model), Model: model}
		in.Usage = piUsage(d, d.Get(msg, "usage"))
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the Pi session holds no assistant turn")
	}
	return out, nil
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

func parentOf(d *capture.Doc, entries []int, byID map[string]int, i int) int {
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
func sessionContext(d *capture.Doc, entries []int, byID map[string]int, path []int) []int {
	comp := -1
	for k, p := range path {
		if d.StrIs(d.Get(entries[p], "type"), "compaction") {
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
		if inContext(d, entries[p]) {
			out = append(out, p)
		}
	}
	return out
}

// inContext reports a session entry that is sent to the model.
func inContext(d *capture.Doc, e int) bool {
	switch d.GetStr(e, "type") {
	case "custom_message", "branch_summary", "compaction":
		return true
	case "message":
		m := d.Get(e, "message")
		if d.StrIs(d.Get(m, "role"), "bashExecution") && d.Kind(d.Get(m, "excludeFromContext")) == capture.True {
			return false
		}
		return m >= 0
	}
	return false
}

// piUsage reads a Pi assistant message's usage: input (uncached),
// cacheRead, cacheWrite, output and cost.total. A usage of zeros (an
// aborted request) is no usage.
func piUsage(d *capture.Doc, u int) *Usage {
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

func intMember(d *capture.Doc, obj int, key string) (int, bool) {
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
