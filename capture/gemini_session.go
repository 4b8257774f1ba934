package capture

import (
	"bytes"
	"errors"
	"strings"
)

// geminiThoughtSignature is the value Gemini accepts in place of a thought
// signature the client no longer holds; rebuilt function calls carry it,
// as Gemini CLI's own requests do when a signature is lost.
const geminiThoughtSignature = "skip_thought_signature_validator"

// geminiCLIURL is the endpoint of a rebuilt Gemini CLI request for model.
func geminiCLIURL(model string) string {
	if model == "" {
		model = "gemini"
	}
	return "https://generativelanguage.googleapis.com/v1beta/models/" + model + ":streamGenerateContent?alt=sse"
}

// gcMsg is one message record of a Gemini CLI chat: the document holding
// it, its node and the file's line it starts on.
type gcMsg struct {
	d    *Doc
	n    Node
	line int
}

// geminiChat recognises a Gemini CLI chat file (one JSON object): a
// sessionId, a messages array and the projectHash or startTime the host
// writes beside them. It returns why, or "".
func geminiChat(d *Doc) string {
	if d.Kind(0) != Object || d.Kind(d.Get(0, "sessionId")) != String || d.Kind(d.Get(0, "messages")) != Array {
		return ""
	}
	if d.Kind(d.Get(0, "projectHash")) != String && d.Kind(d.Get(0, "startTime")) != String {
		return ""
	}
	return "Gemini CLI chat file (an object with sessionId, projectHash and messages)"
}

// ErrNoRequests marks a file a host writes beside its sessions that holds
// no request to read (Gemini CLI's log of the prompts typed); a command
// reading a directory skips it with a note.
var ErrNoRequests = errors.New("it holds no requests")

// geminiPromptLog reports Gemini CLI's logs.json: an array of the prompts
// the user typed ({sessionId, messageId, type, message, timestamp}),
// without the model's answers or their usage.
func geminiPromptLog(d *Doc) bool {
	if d.Kind(0) != Array || d.Len(0) == 0 {
		return false
	}
	for e := range d.Children(0) {
		if d.Kind(d.Get(e, "sessionId")) != String || d.Kind(d.Get(e, "messageId")) != Number || d.Kind(d.Get(e, "message")) != String {
			return false
		}
	}
	return true
}

// geminiChatHeader reports the first line of a Gemini CLI chat log
// (JSONL): the session's metadata, with no type and no messages (a chat
// file written on one line has them).
func geminiChatHeader(d *Doc) bool {
	return d.Kind(0) == Object && d.Get(0, "type") == NoNode && d.Get(0, "messages") == NoNode &&
		d.Kind(d.Get(0, "sessionId")) == String && d.Kind(d.Get(0, "projectHash")) == String
}

// geminiCLIChat reads a Gemini CLI chat file, one JSON object whose
// messages are the conversation.
func (r *reader) geminiCLIChat(why string, d *Doc) (*File, error) {
	var msgs []gcMsg
	for m := range d.Children(d.Get(0, "messages")) {
		line, _ := LineCol(r.f.Data, int(d.Nodes[m].Start))
		msgs = append(msgs, gcMsg{d, m, line})
	}
	return r.geminiCLI(why, d.GetStr(0, "sessionId"), msgs)
}

// geminiCLILog reads a Gemini CLI chat log (JSONL): a metadata line, then
// message records, each appended again whole when it changes; a
// {"$set": {"messages": […]}} line replaces the list and a
// {"$rewindTo": id} line drops that message and those after it.
func (r *reader) geminiCLILog(why string) (*File, error) {
	f := r.f
	var msgs []gcMsg
	byID := map[string]int{}
	id := ""
	reindex := func() {
		clear(byID)
		for i, m := range msgs {
			if k := m.d.GetStr(m.n, "id"); k != "" {
				byID[k] = i
			}
		}
	}
	err := fileLines(f.Data, func(line []byte, off, no int) error {
		d, err := Parse(line)
		if err != nil {
			f.Errs = append(f.Errs, locate(f.Name, f.Data, off, err))
			return nil
		}
		if d.Kind(0) != Object {
			return nil
		}
		if id == "" {
			id = d.GetStr(0, "sessionId")
		}
		if set := d.Get(0, "$set"); d.Kind(set) == Object {
			if id == "" {
				id = d.GetStr(set, "sessionId")
			}
			if list := d.Get(set, "messages"); d.Kind(list) == Array {
				msgs = msgs[:0]
				for m := range d.Children(list) {
					msgs = append(msgs, gcMsg{d, m, no})
				}
				reindex()
			}
			return nil
		}
		if to := d.GetStr(0, "$rewindTo"); to != "" {
			if k, ok := byID[to]; ok {
				msgs = msgs[:k]
				reindex()
			}
			return nil
		}
		if d.Kind(d.Get(0, "type")) != String {
			return nil // the metadata line
		}
		m := gcMsg{d, 0, no}
		if k, ok := byID[d.GetStr(0, "id")]; ok {
			m.line = msgs[k].line
			msgs[k] = m
			return nil
		}
		if k := d.GetStr(0, "id"); k != "" {
			byID[k] = len(msgs)
		}
		msgs = append(msgs, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.geminiCLI(why, id, msgs)
}

// geminiCLI makes the conversation of a Gemini CLI chat from its message
// records. Every gemini message is one request: the contents before it,
// built the way the host builds its history (a user message's parts; a
// gemini message's parts with a functionCall part for each tool call,
// then a user content of the calls' results). Slash commands, info,
// warning and error messages and thoughts are not sent. A compression
// marker starts a new segment from its compressed history.
func (r *reader) geminiCLI(why, id string, msgs []gcMsg) (*File, error) {
	f := r.f
	var segs []*gcSegment
	for _, m := range msgs {
		d, n := m.d, m.n
		if len(segs) == 0 {
			segs = append(segs, newGCSegment(m.line))
		}
		s := segs[len(segs)-1]
		switch d.GetStr(n, "type") {
		case "user":
			content := d.Get(n, "content")
			if t := strings.TrimSpace(gcFirstText(d, content)); strings.HasPrefix(t, "/") || strings.HasPrefix(t, "?") {
				continue // a command to the host
			}
			if parts := gcParts(d, content); parts != nil {
				s.b.add(gcContent("user", parts))
			}
		case "gemini":
			s.gemini(d, n, m.line)
		case "compression_marker":
			segs = append(segs, compressedGCSegment(d, n, m.line))
		}
	}
	sess := &Session{Host: HostGeminiCLI, ID: id,
		Missing: "the system instruction, tool declarations, generation config and thought signatures (Gemini CLI's chat files do not hold them; function calls carry Gemini's placeholder signature)",
		Absent:  []string{"systemInstruction", "tools", "generationConfig"}}
	var last *Capture
	for _, s := range segs {
		if len(s.turns) == 0 {
			continue
		}
		reason := why + "; requests rebuilt from its messages, without " + sess.Missing
		url := geminiCLIURL(s.turns[len(s.turns)-1].Model)
		c, err := r.sessionCapture(sess, s.turns, segmentAt{f.Name, segs[0].first, 0, Gemini, url, reason}, &s.b)
		if err != nil {
			f.Errs = append(f.Errs, err)
			continue
		}
		last = c
	}
	return f.withLast(last, "no gemini message in this Gemini CLI chat file")
}

// gcSegment is a run of turns of a Gemini CLI chat: the contents so far
// and the turns, from the file's line first.
type gcSegment struct {
	b     listBody
	turns []SessionTurn
	first int
}

func newGCSegment(line int) *gcSegment {
	s := &gcSegment{first: line}
	s.b.start(`{"contents":[`)
	return s
}

// compressedGCSegment starts a segment from the compressed history of the
// compression marker n (line).
func compressedGCSegment(d *Doc, n Node, line int) *gcSegment {
	s := newGCSegment(line)
	for e := range d.Children(d.Get(n, "compressedHistory")) {
		role := "user"
		if d.StrIs(d.Get(e, "role"), "model") {
			role = "model"
		}
		parts := gcParts(d, d.Get(e, "parts"))
		if parts == nil {
			parts = [][]byte{}
		}
		s.b.add(gcContent(role, parts))
	}
	return s
}

// gemini adds the gemini message n (line) to the segment: a turn made of
// the contents before it, then the message as a model content and the
// results of its tool calls as a user content.
func (s *gcSegment) gemini(d *Doc, n Node, line int) {
	t := SessionTurn{Line: line, Items: len(s.b.ends), Model: d.GetStr(n, "model"), Time: TimeOf(d, d.Get(n, "timestamp"))}
	if u := d.Get(n, "tokens"); d.Kind(u) == Object {
		t.Usage = d.Raw(u)
	}
	s.turns = append(s.turns, t)
	parts := gcParts(d, d.Get(n, "content"))
	calls := d.Get(n, "toolCalls")
	if d.Len(calls) == 0 {
		if parts != nil {
			s.b.add(gcContent("model", parts))
		}
		return
	}
	var results [][]byte
	first := true
	for c := range d.Children(calls) {
		parts = append(parts, gcCall(d, c, first))
		first = false
		results = append(results, gcResult(d, c)...)
	}
	s.b.add(gcContent("model", parts))
	if results != nil {
		s.b.add(gcContent("user", results))
	}
}

// gcContent is a Gemini content of role with parts.
func gcContent(role string, parts [][]byte) []byte {
	out := append([]byte(`{"role":`), Quote(role)...)
	out = append(out, `,"parts":[`...)
	out = append(out, bytes.Join(parts, []byte{','})...)
	return append(out, "]}"...)
}

// gcText is a text part holding the raw JSON string s.
func gcText(s []byte) []byte {
	return append(append([]byte(`{"text":`), s...), '}')
}

// gcParts returns the parts of a message's content (a string, a part or
// an array of parts and strings), leaving out empty text; nil when none.
func gcParts(d *Doc, content Node) [][]byte {
	var out [][]byte
	one := func(e Node) {
		switch d.Kind(e) {
		case String:
			if !d.StrIs(e, "") {
				out = append(out, gcText(d.Raw(e)))
			}
		case Object:
			out = append(out, d.Raw(e))
		}
	}
	if d.Kind(content) == Array {
		for e := range d.Children(content) {
			one(e)
		}
	} else {
		one(content)
	}
	return out
}

// gcFirstText returns the first text of a content.
func gcFirstText(d *Doc, content Node) string {
	switch d.Kind(content) {
	case String:
		return d.Str(content)
	case Object:
		return d.GetStr(content, "text")
	case Array:
		for e := range d.Children(content) {
			if t := gcFirstText(d, e); t != "" {
				return t
			}
		}
	}
	return ""
}

// gcCall is the functionCall part of a tool call record; the first of a
// message carries the placeholder thought signature.
func gcCall(d *Doc, c Node, first bool) []byte {
	args := d.Raw(d.Get(c, "args"))
	if d.Kind(d.Get(c, "args")) != Object {
		args = []byte("{}")
	}
	out := append([]byte(`{"functionCall":{"name":`), Quote(d.GetStr(c, "name"))...)
	out = append(append(out, `,"args":`...), args...)
	if id := d.GetStr(c, "id"); id != "" {
		out = append(append(out, `,"id":`...), Quote(id)...)
	}
	out = append(out, '}')
	if first {
		out = append(append(out, `,"thoughtSignature":`...), Quote(geminiThoughtSignature)...)
	}
	return append(out, '}')
}

// gcResult returns the parts that answer a tool call record: its result
// as recorded (parts, or a string as the output of a functionResponse);
// none when no result was recorded.
func gcResult(d *Doc, c Node) [][]byte {
	res := d.Get(c, "result")
	switch d.Kind(res) {
	case String:
		if d.StrIs(res, "") {
			return nil
		}
		out := append([]byte(`{"functionResponse":{`), gcID(d, c)...)
		out = append(append(out, `"name":`...), Quote(d.GetStr(c, "name"))...)
		out = append(append(out, `,"response":{"output":`...), d.Raw(res)...)
		return [][]byte{append(out, "}}}"...)}
	case Object, Array:
		return gcParts(d, res)
	}
	return nil
}

func gcID(d *Doc, c Node) []byte {
	if id := d.GetStr(c, "id"); id != "" {
		return append(append([]byte(`"id":`), Quote(id)...), ',')
	}
	return nil
}
