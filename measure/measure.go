// Package measure accounts for where the bytes, characters and tokens of a
// captured request go, section by section, and what the configured rules
// save. Bytes are UTF-8 bytes of the body as captured; characters are
// Unicode code points; tokens are counts of an OpenAI encoding over each
// segment's text: exact for an OpenAI model whose encoding it is, an
// estimate for every other model (Tokens.Exact says which). The report
// values are printed by measure/render.
package measure

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// Counter counts tokens of many texts at once.
type Counter interface {
	CountAll(texts []string) []int
}

// Report is the result of measuring one or more captures.
type Report struct {
	Captures []*CaptureReport `json:"captures"`
	Totals   Totals           `json:"totals"`
	// Notes are cross-capture observations, such as captures that share a
	// skill catalog but not a stable prefix.
	Notes []string `json:"notes,omitempty"`
}

// CaptureReport measures one capture.
type CaptureReport struct {
	Name     string `json:"name"`
	Provider string `json:"provider"`
	Reason   string `json:"reason"`
	Envelope string `json:"envelope"`
	// Model is the model the request names ("" when it names none).
	Model       string       `json:"model,omitempty"`
	Bytes       int          `json:"bytes"`
	Chars       int          `json:"chars"`
	Tokens      Tokens       `json:"tokens"`
	Sections    []SectionRow `json:"sections"`
	Skills      Skills       `json:"skills"`
	Tools       Tools        `json:"tools"`
	ToolResults ToolResults  `json:"tool_results"`
	// PrefixSHA256 is the hash of the stable prefix, "" when the body has
	// none (PrefixBytes 0: no system text, catalog or tool declarations).
	PrefixSHA256 string   `json:"prefix_sha256"`
	PrefixBytes  int      `json:"prefix_bytes"`
	Savings      []Saving `json:"savings"`
	After        After    `json:"after"`
	Replay       Replay   `json:"replay"`
	// Warnings are what the rules say the reader must know about the
	// result (intents the compact index had to drop).
	Warnings []string `json:"warnings,omitempty"`
	// NextSteps are the actions the rules propose, largest measured
	// saving first, at most two.
	NextSteps []rules.Suggestion `json:"next_steps,omitempty"`
	// Per-family detail, present when the family has something to say.
	Diagnostics []rules.Diagnostic `json:"diagnostics,omitempty"`
	// Details are the sections rules add (rules.Rule.Detail), each a
	// member of the JSON object under its key, after the capture's own
	// figures and before its diagnostics.
	Details []rules.Detail `json:"-"`
}

// MarshalJSON writes the report with each rule's detail as a member.
func (r *CaptureReport) MarshalJSON() ([]byte, error) {
	type plain CaptureReport
	if len(r.Details) == 0 {
		return json.Marshal((*plain)(r))
	}
	head := *r
	head.Diagnostics = nil
	out, err := json.Marshal((*plain)(&head))
	if err != nil {
		return nil, err
	}
	out = out[:len(out)-1] // the closing brace
	member := func(key string, value []byte) {
		k, _ := json.Marshal(key)
		out = append(out, ',')
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, value...)
	}
	for _, d := range r.Details {
		data, err := json.Marshal(d.Data)
		if err != nil {
			return nil, err
		}
		member(d.Key, data)
	}
	if len(r.Diagnostics) > 0 {
		data, err := json.Marshal(r.Diagnostics)
		if err != nil {
			return nil, err
		}
		member("diagnostics", data)
	}
	return append(out, '}'), nil
}

// Tokens is a token count with the encoding that produced it. Exact is true
// only when the capture asks an OpenAI model that uses that encoding; for
// any other model the count is an estimate of what its own tokenizer makes
// of the text, and the provider's reported usage, where a capture has it,
// is authoritative.
type Tokens struct {
	Encoding string `json:"encoding"`
	Count    int    `json:"count"`
	Exact    bool   `json:"exact"`
}

// ExactFor reports whether counts of encoding are the token counts the
// model a capture asks for sees: an OpenAI model (Chat Completions or
// Responses) whose tokenizer is that encoding.
func ExactFor(c *capture.Capture, encoding string) bool {
	if c.Provider != capture.OpenAIChat && c.Provider != capture.OpenAIResponses {
		return false
	}
	model := strings.ToLower(c.Doc.GetStr(0, "model"))
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		model = model[i+1:] // "openai/gpt-4o" on a router
	}
	return model != "" && openAIEncoding(model) == encoding
}

// openAIEncoding names the encoding of an OpenAI model ("" when the model
// is not one of OpenAI's).
func openAIEncoding(model string) string {
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(model, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-4o", "o1", "o3", "o4", "codex-", "gpt-oss", "computer-use"):
		return "o200k_base"
	case has("gpt-4", "gpt-3.5", "text-embedding-3", "text-embedding-ada-002"):
		return "cl100k_base"
	}
	return ""
}

// SectionRow is one section's share of a capture.
type SectionRow struct {
	Kind   string `json:"kind"`
	Count  int    `json:"count"`
	Bytes  int    `json:"bytes"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
}

// Skills describes the native skill catalog(s) found.
type Skills struct {
	Format string `json:"format"`
	Count  int    `json:"count"`
	Bytes  int    `json:"bytes"`
}

// Tools describes the tool declarations.
type Tools struct {
	Count   int         `json:"count"`
	Bytes   int         `json:"bytes"`
	Largest []NamedSize `json:"largest"`
}

// NamedSize is a tool and its declaration size.
type NamedSize struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// ToolResults describes the tool outputs carried in the history.
type ToolResults struct {
	Count      int           `json:"count"`
	Bytes      int           `json:"bytes"`
	Duplicates int           `json:"duplicates"`
	Largest    []PointerSize `json:"largest"`
}

// PointerSize is a value located by JSON Pointer and its size.
type PointerSize struct {
	Pointer string `json:"pointer"`
	Bytes   int    `json:"bytes"`
}

// Saving is what one transform rule saved.
type Saving struct {
	Rule        string  `json:"rule"`
	Name        string  `json:"name"`
	BytesBefore int     `json:"bytes_before"`
	BytesAfter  int     `json:"bytes_after"`
	SavedBytes  int     `json:"saved_bytes"`
	SavedPct    float64 `json:"saved_pct"`
	// SavedTokens is the tokens the step saved (0 when counting is off).
	SavedTokens int `json:"saved_tokens"`
	// SavedUSD is what the saved tokens cost as input at the model's
	// price; absent when the price is unknown.
	SavedUSD *float64 `json:"saved_usd,omitempty"`
	// Dropped says why the engine rejected the rule's edits.
	Dropped string `json:"dropped,omitempty"`
	// Idle says why the rule proposed no edit, in its own words.
	Idle string `json:"idle,omitempty"`
	// PrefixChange says why the step's change of what the previous
	// request of the conversation sent pays for itself (see
	// rules.Step.PrefixChange).
	PrefixChange string `json:"prefix_change,omitempty"`
}

// Why says why a step saved nothing: the engine's reason for dropping
// it, the rule's own, or that it had nothing to change ("" when it saved).
func (s Saving) Why() string {
	switch {
	case s.Dropped != "":
		return "dropped: " + s.Dropped
	case s.SavedBytes != 0:
		return ""
	case s.Idle != "":
		return s.Idle
	}
	return "nothing to change"
}

// After is the capture after the pipeline.
type After struct {
	Bytes  int `json:"bytes"`
	Tokens int `json:"tokens"`
	// SavedTokens is the tokens the pipeline saved; SavedUSD their input
	// cost, absent when the model's price is unknown.
	SavedTokens int      `json:"saved_tokens"`
	SavedUSD    *float64 `json:"saved_usd,omitempty"`
	// InputUSDPerMTok is the model's input price the costs are computed
	// at, in US dollars per million tokens (absent: no price).
	InputUSDPerMTok *float64 `json:"input_usd_per_mtok,omitempty"`
}

// Replay is the cumulative byte count when the request is sent again
// Requests-1 more times unchanged (the stable prefix and history repeat).
type Replay struct {
	Requests    int `json:"requests"`
	BytesBefore int `json:"bytes_before"`
	BytesAfter  int `json:"bytes_after"`
}

// Totals sums a report.
type Totals struct {
	Captures    int     `json:"captures"`
	Bytes       int     `json:"bytes"`
	Tokens      int     `json:"tokens"`
	AfterBytes  int     `json:"after_bytes"`
	AfterTokens int     `json:"after_tokens"`
	SavedBytes  int     `json:"saved_bytes"`
	SavedPct    float64 `json:"saved_pct"`
	SavedTokens int     `json:"saved_tokens"`
	// SavedUSD sums the captures' saved input cost; absent unless every
	// capture's model has a known price.
	SavedUSD *float64 `json:"saved_usd,omitempty"`
	// Encoding is the tokenizer of the token counts ("none": not counted).
	Encoding string `json:"encoding"`
}

// Options controls measurement.
type Options struct {
	// Encoding names the tokenizer ("none" or "" to skip tokens).
	Encoding string
	Counter  Counter
	// Replay is the number of follow-up requests in the cumulative replay.
	Replay int
	// Env is the environment the pipeline ran in, handed to the rules'
	// Detail functions.
	Env *rules.Env
	// Price returns the input price of a model in US dollars per million
	// tokens, and whether it is known; nil knows no price. Costs are
	// reported only for known prices, never as 0.
	Price func(model string) (usdPerMTok float64, ok bool)
}

const largestN = 10

// Measure reports one pipeline result (use rules.Run with no rules to
// measure a capture as it is).
func Measure(res *rules.Result, opts Options) *CaptureReport {
	opts.Counter = spanCounter(opts.Counter)
	r := original(res.Original, opts)
	savings(r, res, opts)
	return r
}

// Run measures c through run, a pipeline over c: c's own figures (its
// sections, tokens and stable prefix) are counted on another goroutine while
// run works. run must not modify c.
func Run(c *capture.Capture, run func() (*rules.Result, error), opts Options) (*CaptureReport, error) {
	c.Segments() // built once, before the two readers start
	opts.Counter = spanCounter(opts.Counter)
	done := make(chan *CaptureReport, 1)
	go func() { done <- original(c, opts) }()
	res, err := run()
	r := <-done
	if err != nil {
		return nil, err
	}
	savings(r, res, opts)
	return r, nil
}

// original reports what a capture is made of, before any rule.
func original(c *capture.Capture, opts Options) *CaptureReport {
	r := &CaptureReport{
		Name:     c.Name,
		Provider: string(c.Provider),
		Reason:   c.Reason,
		Envelope: c.Envelope,
		Model:    Model(c),
		Bytes:    len(c.Body),
		Sections: []SectionRow{},
		Savings:  []Saving{},
	}
	segs := c.Segments()

	// Texts to tokenize: one per segment, then the gaps (other).
	var texts []string
	counting := opts.Counter != nil && opts.Encoding != "" && opts.Encoding != "none"
	rows := map[capture.Section]*SectionRow{}
	row := func(k capture.Section) *SectionRow {
		if rw, ok := rows[k]; ok {
			return rw
		}
		rw := &SectionRow{Kind: string(k)}
		rows[k] = rw
		return rw
	}
	kinds := make([]capture.Section, 0, len(segs)+1)
	// Pieces of one value split around a catalog count once.
	lastNode := map[capture.Section]capture.Node{}
	prev := 0
	var gaps []byte
	for _, s := range segs {
		gaps = append(gaps, c.Body[prev:s.Start]...)
		prev = s.End
		rw := row(s.Kind)
		if n, ok := lastNode[s.Kind]; !ok || n != s.Node {
			rw.Count++
		}
		lastNode[s.Kind] = s.Node
		b := c.Body[s.Start:s.End]
		rw.Bytes += len(b)
		rw.Chars += Chars(b)
		if counting {
			texts = append(texts, c.SegmentText(s))
			kinds = append(kinds, s.Kind)
		}
	}
	gaps = append(gaps, c.Body[prev:]...)
	other := row(capture.SecOther)
	other.Bytes += len(gaps)
	other.Chars += Chars(gaps)
	if counting {
		texts = append(texts, string(gaps))
		kinds = append(kinds, capture.SecOther)
		counts := opts.Counter.CountAll(texts)
		total := 0
		for i, n := range counts {
			row(kinds[i]).Tokens += n
			total += n
		}
		r.Tokens = Tokens{Encoding: opts.Encoding, Count: total, Exact: ExactFor(c, opts.Encoding)}
	} else {
		r.Tokens = Tokens{Encoding: "none"}
	}
	for _, k := range capture.Sections {
		if rw, ok := rows[k]; ok && (rw.Bytes > 0 || rw.Count > 0) {
			r.Sections = append(r.Sections, *rw)
			r.Chars += rw.Chars
		}
	}

	r.Skills = skills(c, segs)
	r.Tools = tools(c, segs)
	r.ToolResults = toolResults(c, segs)
	h := sha256.New()
	r.PrefixBytes = c.WriteStablePrefix(h)
	if r.PrefixBytes > 0 {
		r.PrefixSHA256 = hex.EncodeToString(h.Sum(nil))
	}
	return r
}

// savings adds what each step of a pipeline result saved, the size after
// it, and the rules' details.
func savings(r *CaptureReport, res *rules.Result, opts Options) {
	counting := r.Tokens.Encoding != "none"
	price, priced := 0.0, false
	if opts.Price != nil && r.Model != "" {
		price, priced = opts.Price(r.Model)
	}
	cost := func(tokens int) *float64 {
		if !priced || !counting {
			return nil
		}
		usd := float64(tokens) * price / 1e6
		return &usd
	}
	// Tokens after each step: only an applied step changes them.
	tokens := r.Tokens.Count
	for _, st := range res.Steps {
		sv := Saving{Rule: st.Rule.ID, Name: st.Rule.Name, BytesBefore: st.BytesBefore, BytesAfter: st.BytesAfter, Dropped: st.Dropped, Idle: st.Idle, PrefixChange: st.PrefixChange}
		sv.SavedBytes = st.BytesBefore - st.BytesAfter
		sv.SavedPct = pct(sv.SavedBytes, st.BytesBefore)
		if counting && st.Applied && st.After != nil {
			after := countCapture(st.After, opts.Counter)
			sv.SavedTokens = tokens - after
			tokens = after
		}
		sv.SavedUSD = cost(sv.SavedTokens)
		r.Savings = append(r.Savings, sv)
	}
	r.After.Bytes = len(res.Final.Body)
	r.After.Tokens = r.Tokens.Count
	if counting && res.Changed() {
		r.After.Tokens = tokens
		if last := res.Steps[len(res.Steps)-1].After; last != res.Final {
			// Steps do not account for the whole result.
			r.After.Tokens = countCapture(res.Final, opts.Counter)
		}
	}
	r.After.SavedTokens = r.Tokens.Count - r.After.Tokens
	r.After.SavedUSD = cost(r.After.SavedTokens)
	if r.After.SavedUSD != nil {
		r.After.InputUSDPerMTok = &price
	}
	n := max(opts.Replay, 0) + 1
	r.Replay = Replay{Requests: n, BytesBefore: n * r.Bytes, BytesAfter: n * r.After.Bytes}
	r.Details = details(res, opts, counting)
	for _, d := range r.Details {
		r.Warnings = append(r.Warnings, d.Warnings...)
		r.NextSteps = append(r.NextSteps, d.Next...)
	}
	// The largest measured savings first; two are enough to act on.
	sort.SliceStable(r.NextSteps, func(i, j int) bool { return r.NextSteps[i].SavedBytes > r.NextSteps[j].SavedBytes })
	if len(r.NextSteps) > maxNextSteps {
		r.NextSteps = r.NextSteps[:maxNextSteps]
	}
	r.Diagnostics = res.Diagnostics
}

// maxNextSteps bounds the next steps a capture's report names.
const maxNextSteps = 2

// Model returns the model a request names: the body's "model", or for
// Gemini the model in the request path ("" when neither names one).
func Model(c *capture.Capture) string {
	if m := c.Doc.GetStr(0, "model"); m != "" {
		return m
	}
	if i := strings.Index(c.URL, "/models/"); i >= 0 {
		m := c.URL[i+len("/models/"):]
		if j := strings.IndexAny(m, ":?/"); j >= 0 {
			m = m[:j]
		}
		return m
	}
	return ""
}

// countCapture returns the token count of a whole capture the way Measure
// counts it: segment texts plus the remaining raw bytes.
func countCapture(c *capture.Capture, counter Counter) int {
	segs := c.Segments()
	texts := make([]string, 0, len(segs)+1)
	prev := 0
	var gaps []byte
	for _, s := range segs {
		gaps = append(gaps, c.Body[prev:s.Start]...)
		prev = s.End
		texts = append(texts, c.SegmentText(s))
	}
	gaps = append(gaps, c.Body[prev:]...)
	texts = append(texts, string(gaps))
	total := 0
	for _, n := range counter.CountAll(texts) {
		total += n
	}
	return total
}

// pct is part of whole in percent to two decimals (units.Percent).
func pct(part, whole int) float64 { return units.Percent(part, whole) }

// skillTags counts the <skill> tags of a raw catalog, whichever way JSON
// wrote its angle brackets; the escaped forms are looked for only when the
// catalog has one.
func skillTags(raw []byte) int {
	n := bytes.Count(raw, []byte("<skill>"))
	if bytes.Contains(raw, []byte(`\u003cskill`)) {
		n += bytes.Count(raw, []byte(`\u003cskill\u003e`)) + bytes.Count(raw, []byte(`\u003cskill>`))
	}
	return n
}

func skills(c *capture.Capture, segs []capture.Segment) Skills {
	var s Skills
	for _, seg := range segs {
		if seg.Kind != capture.SecCatalog {
			continue
		}
		s.Format = seg.Name
		s.Bytes += seg.End - seg.Start
		s.Count += skillTags(seg.Bytes(c.Doc))
	}
	if s.Format == "" {
		s.Format = "none"
	}
	return s
}

func tools(c *capture.Capture, segs []capture.Segment) Tools {
	t := Tools{Largest: []NamedSize{}}
	for _, s := range segs {
		if s.Kind != capture.SecTools || s.Msg >= 0 {
			continue
		}
		t.Count++
		t.Bytes += s.End - s.Start
		t.Largest = append(t.Largest, NamedSize{Name: s.Name, Bytes: s.End - s.Start})
	}
	sort.SliceStable(t.Largest, func(i, j int) bool { return t.Largest[i].Bytes > t.Largest[j].Bytes })
	if len(t.Largest) > largestN {
		t.Largest = t.Largest[:largestN]
	}
	return t
}

func toolResults(c *capture.Capture, segs []capture.Segment) ToolResults {
	t := ToolResults{Largest: []PointerSize{}}
	seen := map[[32]byte]bool{}
	for _, s := range segs {
		if s.Kind != capture.SecToolResults {
			continue
		}
		t.Count++
		t.Bytes += s.End - s.Start
		t.Largest = append(t.Largest, PointerSize{Pointer: c.Doc.Pointer(s.Node), Bytes: s.End - s.Start})
		if text := c.SegmentText(s); text != "" {
			h := sha256.Sum256([]byte(text))
			if seen[h] {
				t.Duplicates++
			}
			seen[h] = true
		}
	}
	sort.SliceStable(t.Largest, func(i, j int) bool { return t.Largest[i].Bytes > t.Largest[j].Bytes })
	if len(t.Largest) > largestN {
		t.Largest = t.Largest[:largestN]
	}
	return t
}

// Summarize adds totals and cross-capture notes to a report.
func Summarize(caps []*CaptureReport, catalogs []string) *Report {
	rep := &Report{Captures: caps}
	t := &rep.Totals
	t.Encoding = "none"
	usd, priced := 0.0, len(caps) > 0
	for _, c := range caps {
		t.Captures++
		t.Bytes += c.Bytes
		t.Tokens += c.Tokens.Count
		t.AfterBytes += c.After.Bytes
		t.AfterTokens += c.After.Tokens
		t.Encoding = c.Tokens.Encoding
		if c.After.SavedUSD == nil {
			priced = false
		} else {
			usd += *c.After.SavedUSD
		}
	}
	t.SavedBytes = t.Bytes - t.AfterBytes
	t.SavedPct = pct(t.SavedBytes, t.Bytes)
	t.SavedTokens = t.Tokens - t.AfterTokens
	if priced {
		t.SavedUSD = &usd
	}
	// catalogs[i] is the hash of capture i's native catalog ("" for none).
	type group struct {
		names    []string
		prefixes map[string]bool
	}
	groups := map[string]*group{}
	var order []string
	for i, c := range caps {
		if i >= len(catalogs) || catalogs[i] == "" {
			continue
		}
		g, ok := groups[catalogs[i]]
		if !ok {
			g = &group{prefixes: map[string]bool{}}
			groups[catalogs[i]] = g
			order = append(order, catalogs[i])
		}
		g.names = append(g.names, c.Name)
		g.prefixes[c.PrefixSHA256] = true
	}
	for _, k := range order {
		g := groups[k]
		if len(g.names) > 1 && len(g.prefixes) > 1 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%d captures share a skill catalog but have %d different stable prefixes (%s): their prompt caches cannot be shared", len(g.names), len(g.prefixes), strings.Join(g.names, ", ")))
		}
	}
	return rep
}

// CatalogKey returns the hash identifying a capture's native catalog, or "".
func CatalogKey(c *capture.Capture) string {
	sum, ok := c.CatalogDigest()
	if !ok {
		return ""
	}
	return hex.EncodeToString(sum[:])
}

// Chars counts the Unicode code points of valid UTF-8: every byte that is
// not a continuation byte (10xxxxxx) starts one. Eight bytes at a time.
func Chars(b []byte) int {
	const hi, lo = 0x8080808080808080, 0x4040404040404040
	cont := 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		cont += bits.OnesCount64(x & hi &^ ((x & lo) << 1))
	}
	for ; i < len(b); i++ {
		if b[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(b) - cont
}

// details asks every rule of the pipeline that has a Detail for its
// section, once per rule, in pipeline order.
func details(res *rules.Result, opts Options, counting bool) []rules.Detail {
	var out []rules.Detail
	seen := map[*rules.Rule]bool{}
	for _, st := range res.Steps {
		r := st.Rule
		if r.Detail == nil || seen[r] {
			continue
		}
		seen[r] = true
		in := rules.DetailInput{Rule: r, Result: res, Env: opts.Env, Replay: opts.Replay, Options: r.Options}
		if opts.Env != nil && r.Options != nil {
			in.Options = opts.Env.OptionsOf(r.Options)
		}
		if counting {
			in.Count = opts.Counter.CountAll
		}
		d, err := r.Detail(in)
		if err != nil {
			res.Diagnostics = append(res.Diagnostics, rules.Diagnostic{Rule: r.ID, Severity: rules.Warning, Capture: res.Original.Name, Message: "no report: " + err.Error()})
			continue
		}
		if d != nil {
			out = append(out, *d)
		}
	}
	return out
}
