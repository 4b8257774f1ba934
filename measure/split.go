package measure

import (
	"crypto/sha256"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/measure/price"
)

// How a conversation was found among the inputs (Thread.FoundBy).
const (
	// FoundBySession: the turns of one Pi session file.
	FoundBySession = "pi session"
	// FoundByID: the requests that carry one session id.
	FoundByID = "session id"
	// FoundByPrefix: a chain of requests each of which extends the one
	// before it.
	FoundByPrefix = "shared prefix"
	// FoundByClaudeCode, FoundByCodex and FoundByGeminiCLI: the turns of
	// one conversation of a Claude Code session file (its main thread or
	// one subagent's), of a Codex rollout file, of a Gemini CLI chat.
	FoundByClaudeCode = "claude code session"
	FoundByCodex      = "codex session"
	FoundByGeminiCLI  = "gemini cli session"
)

func hostFoundBy(s *capture.Session) string {
	switch {
	case s != nil && s.Host == capture.HostCodex:
		return FoundByCodex
	case s != nil && s.Host == capture.HostGeminiCLI:
		return FoundByGeminiCLI
	}
	return FoundByClaudeCode
}

// Thread is the inputs of one conversation, in the order given.
type Thread struct {
	// Name is the first request's file base name (a JSONL line's or HAR
	// entry's with its "#N"; a Pi session's file name).
	Name    string
	FoundBy string
	// ID is the session id the requests carry (FoundByID), or the
	// host's session id (FoundByClaudeCode, FoundByCodex).
	ID string
	// Parent links a subagent's conversation to the session that
	// started it ("subagent ID of session ID").
	Parent string
	Inputs []Input
}

// SessionID returns the conversation id a captured request carries: the
// value of its session_id header (Pi sends one per session), "" when
// there is none or it was redacted. Other id headers
// (x-session-id, conversation-id) are not among the names a capture
// keeps the values of, so they read as REDACTED and are not used.
func SessionID(c *capture.Capture) string {
	if c == nil {
		return ""
	}
	for _, h := range c.Headers {
		if n := strings.ReplaceAll(strings.ToLower(h.Name), "_", "-"); n != "session-id" {
			continue
		}
		if v := strings.TrimSpace(h.Value); v != "" && v != capture.Redacted {
			return v
		}
	}
	return ""
}

// Split finds the conversations among the inputs, in the order given:
//
//   - the turns of one Pi session file are one conversation;
//   - the requests that carry one session id (SessionID) are one
//     conversation;
//   - any other request belongs to the conversation whose latest request
//     it extends: the same body shape, cache and price family (Vendor)
//     and model (or a dated or tagged snapshot of it), and a TurnPrefix that continues that request's (capture.TurnPrefix:
//     the same system text and tool declarations as captured, more
//     declarations allowed, and messages that start with all of that
//     request's, cache_control markers aside). When several
//     conversations qualify, the one whose latest request has the most
//     messages wins, then the one extended last. A request that extends
//     none starts a conversation.
//
// Each conversation keeps its requests in the order given; the
// conversations come in the order of their first request.
func Split(inputs []Input) []Thread {
	sp := &splitter{sessions: map[any]*Thread{}, ids: map[string]*Thread{}, chains: map[[32]byte][]*openThread{}}
	owner := make([]*Thread, len(inputs))
	for i, in := range inputs {
		in.seq = i
		switch {
		case in.Capture == nil && in.Chain != nil:
			owner[i] = sp.session(in)
		case SessionID(in.Capture) != "":
			owner[i] = sp.byID(in, SessionID(in.Capture))
		case in.Capture == nil:
			t := sp.start(in, FoundByPrefix)
			t.Inputs = append(t.Inputs, in)
			owner[i] = t
		default:
			owner[i] = sp.byPrefix(in, i)
		}
	}
	setLeads(inputs, owner)
	out := make([]Thread, len(sp.threads))
	for i, t := range sp.threads {
		out[i] = *t
	}
	return out
}

// openThread is a conversation found by shared prefix, with what its
// latest request was.
type openThread struct {
	t      *Thread
	prefix capture.TurnPrefix
	model  string
	seen   int // the input index of its latest request
}

// splitter holds the conversations Split has found so far.
type splitter struct {
	threads  []*Thread
	sessions map[any]*Thread
	ids      map[string]*Thread
	// The conversations found by shared prefix, by what a request that
	// extends one must have the same of: shape, vendor, system text and
	// first message.
	chains map[[32]byte][]*openThread
}

func (sp *splitter) start(in Input, by string) *Thread {
	t := &Thread{Name: threadName(in), FoundBy: by}
	sp.threads = append(sp.threads, t)
	return t
}

// session adds a turn of a session file to its file's conversation.
func (sp *splitter) session(in Input) *Thread {
	var key any = in.Chain
	by := FoundBySession
	if in.Chain.from != nil {
		key = in.Chain.from
		by = hostFoundBy(in.Chain.from.Session)
	} else if in.Chain.Tip != nil && in.Chain.Tip.File != nil {
		key = in.Chain.Tip.File
	}
	t := sp.sessions[key]
	if t == nil {
		t = sp.start(in, by)
		if s := in.Chain.from; s != nil {
			t.Name = filepath.Base(s.Name)
			t.ID = s.Session.ID
			if s.Session.Agent != "" {
				t.Parent = "subagent " + s.Session.Agent + " of session " + s.Session.Parent
			}
		}
		sp.sessions[key] = t
	}
	t.Inputs = append(t.Inputs, in)
	return t
}

// byID adds a request to the conversation of its session id.
func (sp *splitter) byID(in Input, id string) *Thread {
	t := sp.ids[id]
	if t == nil {
		t = sp.start(in, FoundByID)
		t.ID = id
		sp.ids[id] = t
	}
	t.Inputs = append(t.Inputs, in)
	return t
}

// byPrefix adds request i to the conversation whose latest request it
// extends, or starts one.
func (sp *splitter) byPrefix(in Input, i int) *Thread {
	p := capture.PrefixOf(in.Capture)
	var key [32]byte
	if len(p.Msgs) > 0 {
		key = chainKey(in, p)
	}
	var best *openThread
	if len(p.Msgs) > 0 {
		for _, o := range sp.chains[key] {
			if !sameModel(o.model, in.Model) || !o.prefix.ContinuedBy(p) {
				continue
			}
			if best == nil || len(o.prefix.Msgs) > len(best.prefix.Msgs) || len(o.prefix.Msgs) == len(best.prefix.Msgs) && o.seen > best.seen {
				best = o
			}
		}
	}
	if best == nil {
		best = &openThread{t: sp.start(in, FoundByPrefix)}
		if len(p.Msgs) > 0 {
			sp.chains[key] = append(sp.chains[key], best)
		}
	}
	best.t.Inputs = append(best.t.Inputs, in)
	best.prefix, best.model, best.seen = p, in.Model, i
	return best.t
}

// setLeads gives a conversation's first request the latest earlier
// request to its model from another conversation.
func setLeads(inputs []Input, owner []*Thread) {
	type last struct {
		c *capture.Capture
		t *Thread
	}
	latest := map[string]last{}
	for i, in := range inputs {
		t := owner[i]
		if in.Capture == nil || t == nil {
			continue
		}
		key := in.Vendor + " " + price.Normalize(in.Model)
		if l, ok := latest[key]; ok && l.t != t && len(t.Inputs) > 0 && t.Inputs[0].Capture == in.Capture {
			t.Inputs[0].Lead = l.c
		}
		latest[key] = last{in.Capture, t}
	}
}

// chainKey hashes what a request shares with every request it extends.
func chainKey(in Input, p capture.TurnPrefix) [32]byte {
	h := sha256.New()
	for _, s := range [][]byte{[]byte(in.Capture.Provider), []byte(in.Vendor), p.System, p.Msgs[0]} {
		h.Write([]byte{byte(len(s) >> 24), byte(len(s) >> 16), byte(len(s) >> 8), byte(len(s))})
		h.Write(s)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// sameModel reports whether two model names name one model: equal once
// normalized (price.Normalize), or one a dated or tagged snapshot of the
// other ("claude-sonnet-4-5-20250929", "gpt-5@2026-01-01",
// "mistral-medium-latest").
func sameModel(a, b string) bool {
	a, b = price.Normalize(a), price.Normalize(b)
	return a == b || price.Matches(a, b) || price.Matches(b, a)
}

// threadName names a conversation after its first request: the base name
// of its file, with the line or entry of a JSONL or HAR file; a Pi
// session's file name alone.
func threadName(in Input) string {
	name := in.Name
	if in.Capture == nil && in.Chain != nil && in.Chain.Tip != nil && in.Chain.Tip.File != nil {
		name = in.Chain.Tip.File.Name
	}
	return filepath.Base(name)
}
