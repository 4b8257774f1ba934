package capture

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// EnvSession is the envelope of a request rebuilt from an agent host's
// session file (Claude Code, Codex): the file holds the conversation, not
// the requests, so the body is built from it and Session says what every
// turn sent.
const EnvSession = "session"

// Hosts whose session files are read.
const (
	HostClaudeCode = "claude-code"
	HostCodex      = "codex"
	HostGeminiCLI  = "gemini-cli"
)

// HostName is how a person names host: "Claude Code", "Codex", "Gemini
// CLI".
func HostName(host string) string {
	switch host {
	case HostClaudeCode:
		return "Claude Code"
	case HostCodex:
		return "Codex"
	case HostGeminiCLI:
		return "Gemini CLI"
	}
	return host
}

// Session is one conversation of a host's session file: the requests the
// host sent, each the conversation so far, with the usage the provider
// reported for it.
type Session struct {
	Host string // HostClaudeCode, HostCodex or HostGeminiCLI
	// ID is the host's session id; Agent the subagent's id for a
	// sidechain (a Claude Code subagent), whose Parent is the session
	// that started it.
	ID, Agent, Parent string
	// Missing says what the rebuilt requests lack of what the host sent.
	Missing string
	// Absent names the top-level members of the request that the host
	// sends but the file does not hold, so a rebuilt request lacks them
	// (validate does not count them as missing).
	Absent []string
	// Segments are runs of turns of which each extends the one before;
	// a compaction starts a new one.
	Segments []*SessionSegment
}

// SessionSegment is a run of turns of one session: every turn's request is the
// first Items entries of the list in Tip's body (Anthropic messages,
// Responses input items).
type SessionSegment struct {
	Tip *Capture
	// Ends[i] is where entry i of the list ends in Tip.Body; Open is where
	// the list's first entry starts, and Tail closes the body after any
	// entry.
	Ends  []int
	Open  int
	Tail  []byte
	Turns []SessionTurn
}

// SessionTurn is one request of a session.
type SessionTurn struct {
	Line      int // the file's line of the response (1-based)
	Items     int // entries of the segment's list sent
	Model     string
	RequestID string
	// Time is when the file says the response came (zero when it does
	// not say).
	Time time.Time
	// Usage is the usage object as the file holds it: an Anthropic
	// message's usage (Claude Code), a token_count event's
	// last_token_usage (Codex), a gemini message's tokens (Gemini CLI:
	// input, output, cached, thoughts, tool, total); nil when the file
	// holds none.
	Usage []byte
}

// Request returns the request of turn t of the segment: the tip's body cut
// after its first t.Items entries.
func (s *SessionSegment) Request(t SessionTurn) []byte {
	cut := s.Open
	if t.Items > 0 {
		cut = s.Ends[min(t.Items, len(s.Ends))-1]
	}
	body := make([]byte, 0, cut+len(s.Tail))
	return append(append(body, s.Tip.Body[:cut]...), s.Tail...)
}

// sessionHost recognises a host's session file by its first lines: Claude
// Code writes entries with a type, a sessionId and a uuid or message;
// Codex rollout lines are {"type": session_meta | response_item |
// event_msg | turn_context, "payload": {…}}; a Gemini CLI chat log starts
// with a line of the session's metadata (sessionId, projectHash) and no
// type. When data is one JSON line and nothing else (a bare request), whole
// is data's parse, so the reader does not parse the same bytes twice; it is
// nil otherwise.
func sessionHost(data []byte) (host, why string, whole *Doc) {
	n := 0
	trimmed := len(bytes.TrimSpace(data))
	for off := 0; off < len(data) && n < 64; {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := bytes.TrimSpace(data[off:end])
		off = end + 1
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		n++
		var d *Doc
		var err error
		if len(line) == trimmed {
			// The line is all of data but white space: its parse is the
			// file's (offsets into data), kept for the reader.
			if d, err = Parse(data); err == nil {
				whole = d
			} else {
				d, err = Parse(line) // white space JSON does not allow around it
			}
		} else {
			d, err = Parse(line)
		}
		if err != nil || d.Kind(0) != Object {
			continue
		}
		typ := d.GetStr(0, "type")
		if n == 1 && geminiChatHeader(d) {
			return HostGeminiCLI, "Gemini CLI chat log (a first line with sessionId and projectHash)", nil
		}
		switch typ {
		case "user", "assistant", "system", "progress", "attachment":
			if d.Kind(d.Get(0, "sessionId")) == String && (d.Get(0, "uuid") != NoNode || d.Get(0, "message") != NoNode) {
				return HostClaudeCode, fmt.Sprintf("Claude Code session file (a %q entry with sessionId and uuid)", typ), nil
			}
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			if d.Kind(d.Get(0, "payload")) == Object {
				return HostCodex, fmt.Sprintf("Codex rollout file (a %q line with a payload)", typ), nil
			}
		}
	}
	return "", "", whole
}

// fileLines calls f with each non-blank line of data, its offset and its
// 1-based number.
func fileLines(data []byte, f func(line []byte, off, no int) error) error {
	no := 0
	for off := 0; off < len(data); {
		no++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := data[off:end]
		if len(bytes.TrimSpace(line)) > 0 {
			if err := f(line, off, no); err != nil {
				return err
			}
		}
		off = end + 1
	}
	return nil
}

// listBody is a request body being built around a list of entries.
type listBody struct {
	buf  []byte
	ends []int
	open int
}

func (b *listBody) start(head string) {
	b.buf = append(b.buf, head...)
	b.open = len(b.buf)
}

func (b *listBody) add(entry ...[]byte) {
	if len(b.ends) > 0 {
		b.buf = append(b.buf, ',')
	}
	for _, e := range entry {
		b.buf = append(b.buf, e...)
	}
	b.ends = append(b.ends, len(b.buf))
}

// The endpoints the hosts' requests go to, as the URL of a rebuilt
// request: the file names none, and detection reads the shape from it.
const (
	claudeCodeURL = "https://api.anthropic.com/v1/messages"
	codexURL      = "https://api.openai.com/v1/responses"
)

// segmentAt is where a session segment's rebuilt request comes from and
// where it goes.
type segmentAt struct {
	name      string
	line, off int
	prov      Provider
	url, why  string
}

// sessionCapture makes the capture of one segment of a session, its body
// b's entries closed by "]}", and adds the segment with its turns to sess.
func (r *reader) sessionCapture(sess *Session, turns []SessionTurn, at segmentAt, b *listBody) (*Capture, error) {
	const tail = "]}"
	body := append(b.buf, tail...)
	doc, err := Parse(body)
	if err != nil {
		// The entries are values of the file and the frame is ours.
		return nil, &Error{File: at.name, Err: fmt.Errorf("rebuilt request is not JSON: %w", err)}
	}
	c := &Capture{Name: at.name, File: r.f, Envelope: EnvSession, Line: at.line, Body: body, Doc: doc, Provider: at.prov, Reason: at.why,
		span: [2]int{at.off, at.off}, URL: at.url, Session: sess}
	if r.opts.Provider != "" {
		c.Provider, c.Reason = r.opts.Provider, "set by --provider"
	}
	sess.Segments = append(sess.Segments, &SessionSegment{Tip: c, Ends: b.ends, Open: b.open, Tail: []byte(tail), Turns: turns})
	return c, nil
}

// ccMessage is one message of a Claude Code conversation: its role and
// content blocks (a user's string content kept as the string while it is
// alone).
type ccMessage struct {
	role   string
	text   []byte // a string content, raw
	blocks [][]byte
}

func (m *ccMessage) raw() [][]byte {
	out := [][]byte{[]byte(`{"role":`), Quote(m.role), []byte(`,"content":`)}
	if m.text != nil && len(m.blocks) == 0 {
		return append(out, m.text, []byte{'}'})
	}
	out = append(out, []byte{'['})
	for i, b := range m.blocks {
		if i > 0 {
			out = append(out, []byte{','})
		}
		out = append(out, b)
	}
	return append(out, []byte("]}"))
}

// add appends content (a string or an array of blocks) to the message.
func (m *ccMessage) add(d *Doc, content Node) {
	switch d.Kind(content) {
	case String:
		if m.text == nil && len(m.blocks) == 0 {
			m.text = d.Raw(content)
			return
		}
		m.flatten()
		m.blocks = append(m.blocks, append(append([]byte(`{"type":"text","text":`), d.Raw(content)...), '}'))
	case Array:
		m.flatten()
		for e := range d.Children(content) {
			m.blocks = append(m.blocks, d.Raw(e))
		}
	}
}

// flatten turns a string content into a text block, before blocks join it.
func (m *ccMessage) flatten() {
	if m.text != nil {
		m.blocks = append(m.blocks, append(append([]byte(`{"type":"text","text":`), m.text...), '}'))
		m.text = nil
	}
}

type ccSegment struct {
	msgs  []*ccMessage
	byID  map[string]int // assistant message id → its message
	turns []SessionTurn
	turn  map[string]int // assistant message id → its turn
	line  int
}

type ccConversation struct {
	key, session, agent string
	line, off           int
	segs                []*ccSegment
}

func (cv *ccConversation) seg() *ccSegment {
	if len(cv.segs) == 0 {
		cv.newSegment(cv.line)
	}
	return cv.segs[len(cv.segs)-1]
}

func (cv *ccConversation) newSegment(line int) {
	cv.segs = append(cv.segs, &ccSegment{byID: map[string]int{}, turn: map[string]int{}, line: line})
}

// claudeCode reads a Claude Code session file. Every assistant message
// is one request: the messages before it, as Anthropic messages (the
// lines of one streamed message, which repeat its id, are one message and
// one turn; consecutive user lines, such as the results of parallel tool
// calls, are one message). Sidechain entries (subagents) are
// conversations of their own, by agent id. A compact_boundary starts a
// new segment. The system prompt and tool declarations are not in the
// file.
func (r *reader) claudeCode(why string) (*File, error) {
	f := r.f
	cc := &ccFile{byKey: map[string]*ccConversation{}}
	err := fileLines(f.Data, func(line []byte, off, no int) error {
		d, err := Parse(line)
		if err != nil {
			f.Errs = append(f.Errs, locate(f.Name, f.Data, off, err))
			return nil
		}
		cc.line(d, off, no)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, cv := range cc.convs {
		r.ccCapture(why, cv, cv == cc.convs[0])
	}
	if len(f.Captures) == 0 {
		if len(f.Errs) > 0 {
			return nil, f.Errs[0]
		}
		return nil, &Error{File: f.Name, Err: errors.New("no assistant message in this Claude Code session file")}
	}
	return f, nil
}

// ccFile is a Claude Code session file being read: its conversations
// (the main one and each sidechain's), in the order they start.
type ccFile struct {
	convs []*ccConversation
	byKey map[string]*ccConversation
}

// line reads one entry of the file, at offset off and line no.
func (cc *ccFile) line(d *Doc, off, no int) {
	if d.Kind(0) != Object {
		return
	}
	typ := d.GetStr(0, "type")
	key := ""
	if d.Kind(d.Get(0, "isSidechain")) == True {
		key = "sidechain"
		if a := d.GetStr(0, "agentId"); a != "" {
			key = a
		}
	}
	cv := cc.byKey[key]
	if cv == nil {
		if typ != "user" && typ != "assistant" {
			return
		}
		cv = &ccConversation{key: key, session: d.GetStr(0, "sessionId"), agent: d.GetStr(0, "agentId"), line: no, off: off}
		cc.byKey[key] = cv
		cc.convs = append(cc.convs, cv)
	}
	if typ == "system" && d.StrIs(d.Get(0, "subtype"), "compact_boundary") {
		cv.newSegment(no)
		return
	}
	msg := d.Get(0, "message")
	if (typ != "user" && typ != "assistant") || d.Kind(msg) != Object {
		return
	}
	role := d.GetStr(msg, "role")
	if role == "" {
		role = typ
	}
	content := d.Get(msg, "content")
	if role == "assistant" {
		if d.Kind(content) == Array {
			content = ccDropBlank(d, content)
		}
		cv.seg().assistant(d, msg, content, no)
		return
	}
	cv.seg().user(d, role, content)
}

// assistant adds an assistant message (line no) to the segment: a new
// turn, or the next line of a streamed message already seen.
func (s *ccSegment) assistant(d *Doc, msg Node, content Node, no int) {
	model := d.GetStr(msg, "model")
	if model == "<synthetic>" {
		return // written by the host, never sent by the model
	}
	id := d.GetStr(msg, "id")
	t := SessionTurn{Line: no, Model: model, RequestID: d.GetStr(0, "requestId"), Time: TimeOf(d, d.Get(0, "timestamp"))}
	if u := d.Get(msg, "usage"); d.Kind(u) == Object {
		t.Usage = d.Raw(u)
	}
	if k, ok := s.byID[id]; ok && id != "" {
		s.msgs[k].add(d, content)
		// A later line of the message carries its final usage.
		tt := &s.turns[s.turn[id]]
		if t.Usage != nil {
			tt.Usage = t.Usage
		}
		if tt.RequestID == "" {
			tt.RequestID = t.RequestID
		}
		return
	}
	t.Items = len(s.msgs)
	m := &ccMessage{role: "assistant"}
	m.add(d, content)
	s.msgs = append(s.msgs, m)
	if id != "" {
		s.byID[id] = len(s.msgs) - 1
		s.turn[id] = len(s.turns)
	}
	s.turns = append(s.turns, t)
}

// user adds a message of role (not the assistant's) to the segment,
// joining the message before when it has the same role.
func (s *ccSegment) user(d *Doc, role string, content Node) {
	if n := len(s.msgs); n > 0 && s.msgs[n-1].role == role {
		s.msgs[n-1].add(d, content)
		return
	}
	m := &ccMessage{role: role}
	m.add(d, content)
	s.msgs = append(s.msgs, m)
}

// ccCapture adds the capture of a conversation to the file: the request
// of its last segment, its session holding every segment. The first
// conversation is named as the file, the others FILE#LINE.
func (r *reader) ccCapture(why string, cv *ccConversation, first bool) {
	f := r.f
	name := f.Name
	if !first {
		name = fmt.Sprintf("%s#%d", f.Name, cv.line)
	}
	sess := &Session{Host: HostClaudeCode, ID: cv.session, Agent: cv.agent,
		Missing: "the system prompt and tool declarations (Claude Code's session files do not hold them)",
		Absent:  []string{"max_tokens", "system", "tools"}}
	if cv.key != "" {
		sess.Parent = cv.session
	}
	var last *Capture
	for _, s := range cv.segs {
		if len(s.turns) == 0 {
			continue
		}
		model := s.turns[len(s.turns)-1].Model
		var b listBody
		if model != "" {
			b.start(`{"model":` + string(Quote(model)) + `,"messages":[`)
		} else {
			b.start(`{"messages":[`)
		}
		for _, m := range s.msgs {
			b.add(m.raw()...)
		}
		reason := why + "; requests rebuilt from its messages, without " + sess.Missing
		c, err := r.sessionCapture(sess, s.turns, segmentAt{name, cv.line, cv.off, Anthropic, claudeCodeURL, reason}, &b)
		if err != nil {
			f.Errs = append(f.Errs, err)
			continue
		}
		last = c
	}
	if last != nil {
		f.Captures = append(f.Captures, last)
	}
}

// ccDropBlank returns the content array, or NoNode when it holds nothing
// but text blocks of white space: the host writes a streamed message one
// block a line, and does not send back the blank text blocks (the API
// refuses them).
func ccDropBlank(d *Doc, content Node) Node {
	for e := range d.Children(content) {
		t := d.Get(e, "text")
		if !d.StrIs(d.Get(e, "type"), "text") || d.Kind(t) != String || len(bytes.TrimSpace([]byte(d.Str(t)))) > 0 {
			return content
		}
	}
	return NoNode
}

// codexOutput reports a Responses item the model produced (not input the
// host sent).
func codexOutput(d *Doc, item Node) bool {
	switch d.GetStr(item, "type") {
	case "reasoning", "function_call", "custom_tool_call", "web_search_call", "local_shell_call", "image_generation_call":
		return true
	case "message":
		return d.StrIs(d.Get(item, "role"), "assistant")
	}
	return false
}

// codex reads a Codex rollout file. Its response_item lines are the
// Responses input list as it grows; every token_count event with usage
// is one request: the items up to the model's output that preceded the
// event, with the event's last_token_usage and the model of the latest
// turn_context. The session_meta's base instructions are the requests'
// instructions; the tool declarations are not in the file. A compacted
// line starts a new segment from its replacement history.
func (r *reader) codex(why string) (*File, error) {
	f := r.f
	cx := &cxFile{segs: []*cxSegment{{}}}
	err := fileLines(f.Data, func(line []byte, off, no int) error {
		d, err := Parse(line)
		if err != nil {
			f.Errs = append(f.Errs, locate(f.Name, f.Data, off, err))
			return nil
		}
		cx.line(d, no)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sess := &Session{Host: HostCodex, ID: cx.id, Missing: "the tool declarations (Codex's rollout files do not hold them)",
		Absent: []string{"tools"}}
	var last *Capture
	for _, s := range cx.segs {
		if len(s.turns) == 0 {
			continue
		}
		var b listBody
		head := `{`
		if m := s.turns[len(s.turns)-1].Model; m != "" {
			head += `"model":` + string(Quote(m)) + `,`
		}
		if cx.instructions != nil {
			head += `"instructions":` + string(cx.instructions) + `,`
		}
		b.start(head + `"input":[`)
		for _, it := range s.items {
			b.add(it)
		}
		reason := why + "; requests rebuilt from its response items, without " + sess.Missing
		c, err := r.sessionCapture(sess, s.turns, segmentAt{f.Name, cx.first, 0, OpenAIResponses, codexURL, reason}, &b)
		if err != nil {
			f.Errs = append(f.Errs, err)
			continue
		}
		last = c
	}
	return f.withLast(last, "no token_count event with usage in this Codex rollout file")
}

// cxFile is a Codex rollout file being read.
type cxFile struct {
	segs         []*cxSegment
	id, model    string
	instructions []byte
	lastTotal    []byte
	first        int // the line of the first line with a payload
}

// cxSegment is the input list of a run of turns and the turns; output[i]
// says whether item i is the model's.
type cxSegment struct {
	items  [][]byte
	output []bool
	turns  []SessionTurn
}

// line reads one line of the file, line no.
func (cx *cxFile) line(d *Doc, no int) {
	p := d.Get(0, "payload")
	if d.Kind(p) != Object {
		return
	}
	if cx.first == 0 {
		cx.first = no
	}
	s := cx.segs[len(cx.segs)-1]
	switch d.GetStr(0, "type") {
	case "session_meta":
		cx.id = d.GetStr(p, "id")
		if t := d.Get(d.Get(p, "base_instructions"), "text"); d.Kind(t) == String {
			cx.instructions = d.Raw(t)
		} else if t := d.Get(p, "instructions"); d.Kind(t) == String {
			cx.instructions = d.Raw(t)
		}
	case "turn_context":
		if m := d.GetStr(p, "model"); m != "" {
			cx.model = m
		}
	case "response_item":
		s.items = append(s.items, d.Raw(p))
		s.output = append(s.output, codexOutput(d, p))
	case "compacted":
		ns := &cxSegment{}
		for e := range d.Children(d.Get(p, "replacement_history")) {
			ns.items = append(ns.items, d.Raw(e))
			ns.output = append(ns.output, codexOutput(d, e))
		}
		cx.segs = append(cx.segs, ns)
	case "event_msg":
		cx.tokenCount(d, p, no)
	}
}

// tokenCount reads an event_msg payload p (line no): a token_count with
// usage is a turn of the current segment.
func (cx *cxFile) tokenCount(d *Doc, p Node, no int) {
	info := d.Get(p, "info")
	if !d.StrIs(d.Get(p, "type"), "token_count") || d.Kind(info) != Object {
		return
	}
	last := d.Get(info, "last_token_usage")
	if d.Kind(last) != Object {
		return
	}
	// The same counts are sent again with rate-limit updates.
	if total := d.Raw(d.Get(info, "total_token_usage")); total != nil && bytes.Equal(total, cx.lastTotal) {
		return
	}
	cx.lastTotal = d.Raw(d.Get(info, "total_token_usage"))
	s := cx.segs[len(cx.segs)-1]
	k := len(s.items)
	for k > 0 && s.output[k-1] {
		k--
	}
	s.turns = append(s.turns, SessionTurn{Line: no, Items: k, Model: cx.model, Usage: d.Raw(last), Time: TimeOf(d, d.Get(0, "timestamp"))})
}

// withLast ends the reading of a session file whose last rebuilt request
// is last: the file with it, or the first error met on the way, or one
// saying the file held nothing to rebuild (none).
func (f *File) withLast(last *Capture, none string) (*File, error) {
	if last == nil {
		if len(f.Errs) > 0 {
			return nil, f.Errs[0]
		}
		return nil, &Error{File: f.Name, Err: errors.New(none)}
	}
	f.Captures = append(f.Captures, last)
	return f, nil
}
