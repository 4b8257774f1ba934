package trace

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
)

// ReadSession reads the skill runs of a Pi session file (JSONL, a session
// header first). A run starts where the model loads a skill — a read of
// …/NAME/SKILL.md, or a user message that is a /skill:NAME expansion — and
// ends at the next genuine user message, at a jump to another branch of the
// session tree, where another skill is loaded, or at the end of the file.
// Its tool calls are the assistant's calls in between, its final text the
// text of its last assistant message, its stop reason that message's
// stopReason mapped to the router's words (docs/trace.md has the table).
//
// Lines must be JSON objects; a malformed line is an error at its position.
// Entries of kinds skillopt does not know are ignored.
func ReadSession(name string, data []byte) ([]*Run, error) {
	s := &sessionReader{name: name}
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		d, err := capture.Parse(line)
		if err != nil {
			return nil, syntaxErr(name, line, lineNo, err)
		}
		if k := d.Nodes[0].Kind; k != capture.Object {
			return nil, errAt(name, line, lineNo, 0, "session entry is %s, not an object", phrase(k))
		}
		if !s.header {
			if !d.StrIs(d.Get(0, "type"), "session") {
				return nil, errAt(name, line, lineNo, 0, "not a Pi session: the first entry is not a session header")
			}
			s.header = true
			s.version = 1
			if v, ok := toInt(d.Raw(d.Get(0, "version"))); ok && d.Kind(d.Get(0, "version")) == capture.Number {
				s.version = v
			}
			continue
		}
		s.entry(d)
	}
	if !s.header {
		return nil, errorf(name, "not a Pi session: the file holds no entries")
	}
	s.close()
	return s.runs, nil
}

type sessionReader struct {
	name    string
	header  bool
	version int64
	prevID  string
	runs    []*Run
	cur     *Run
	byID    map[string]int // tool call id → index in cur.Calls
}

func (s *sessionReader) entry(d *capture.Doc) {
	ts := isoMillis(d.GetStr(0, "timestamp"))
	if s.version >= 2 {
		if id := d.GetStr(0, "id"); id != "" {
			// An entry that does not continue the previous one moved to
			// another branch of the tree: the run on the old branch is over.
			if s.prevID != "" && d.GetStr(0, "parentId") != s.prevID {
				s.close()
			}
			s.prevID = id
		}
	}
	if d.GetStr(0, "type") != "message" {
		return
	}
	m := d.Get(0, "message")
	if d.Kind(m) != capture.Object {
		return
	}
	if t := d.Get(m, "timestamp"); d.Kind(t) == capture.Number {
		if v, ok := toInt(d.Raw(t)); ok {
			ts = v
		}
	}
	switch d.GetStr(m, "role") {
	case "user":
		text := contentText(d, d.Get(m, "content"))
		if skill := invokedSkill(text); skill != "" {
			s.close()
			s.start(skill, ts)
			return
		}
		s.close()
	case "assistant":
		s.assistant(d, m, ts)
	case "toolResult":
		if s.cur == nil {
			return
		}
		s.cur.Timestamp = ts
		i, ok := s.byID[d.GetStr(m, "toolCallId")]
		if !ok {
			return
		}
		c := &s.cur.Calls[i]
		text := contentText(d, d.Get(m, "content"))
		c.ResultChars = utf8.RuneCountInString(text)
		c.TotalChars = c.ResultChars
		c.IsError = d.Kind(d.Get(m, "isError")) == capture.True
		c.Blocked = overflowText(text)
		c.Timestamp = ts
	}
}

func (s *sessionReader) assistant(d *capture.Doc, m capture.Node, ts int64) {
	content := d.Get(m, "content")
	var text strings.Builder
	if d.Kind(content) == capture.String {
		text.WriteString(d.Str(content))
	}
	if d.Kind(content) == capture.Array {
		for b := range d.Children(content) {
			switch d.GetStr(b, "type") {
			case "text":
				if text.Len() > 0 {
					text.WriteByte('\n')
				}
				text.WriteString(d.GetStr(b, "text"))
			case "toolCall":
				tool := d.GetStr(b, "name")
				args := d.Get(b, "arguments")
				if skill := loadedSkill(d, tool, args); skill != "" && (s.cur == nil || s.cur.Skill != skill) {
					s.close()
					s.start(skill, ts)
					continue // the load itself is not a call of the run
				}
				if s.cur == nil {
					continue
				}
				c := Call{Index: len(s.cur.Calls), Tool: tool, Timestamp: ts}
				if args != capture.NoNode {
					c.Args = compactJSON(d.Raw(args))
				}
				if id := d.GetStr(b, "id"); id != "" {
					s.byID[id] = len(s.cur.Calls)
				}
				s.cur.Calls = append(s.cur.Calls, c)
			}
		}
	}
	if s.cur == nil {
		return
	}
	s.cur.FinalText = text.String()
	s.cur.StoppedReason = piStop(d.GetStr(m, "stopReason"))
	provider, model := d.GetStr(m, "provider"), d.GetStr(m, "model")
	s.cur.Provider = provider
	s.cur.Model = model
	if provider != "" && model != "" {
		s.cur.Model = provider + "/" + model
	}
	s.cur.Timestamp = ts
}

func (s *sessionReader) start(skill string, ts int64) {
	s.cur = &Run{Source: SourceSession, Skill: skill, Timestamp: ts, StoppedReason: "incomplete"}
	s.byID = map[string]int{}
}

func (s *sessionReader) close() {
	if s.cur == nil {
		return
	}
	s.runs = append(s.runs, s.cur)
	s.cur.File = fmt.Sprintf("%s#%d", s.name, len(s.runs))
	s.cur, s.byID = nil, nil
}

// piStop maps a Pi assistant stopReason to the router's stop reasons.
func piStop(reason string) string {
	switch reason {
	case "stop":
		return "completed"
	case "toolUse", "":
		return "incomplete"
	}
	return reason // length, error, aborted
}

// contentText joins the text of a string content or of its text blocks.
func contentText(d *capture.Doc, content capture.Node) string {
	switch d.Kind(content) {
	case capture.String:
		return d.Str(content)
	case capture.Array:
		var b strings.Builder
		for c := range d.Children(content) {
			if d.GetStr(c, "type") == "text" {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(d.GetStr(c, "text"))
			}
		}
		return b.String()
	}
	return ""
}

// invokedSkill returns the skill a user message invokes: Pi's expansion of
// /skill:NAME (a <skill name="NAME" …> block), or the command itself.
func invokedSkill(text string) string {
	const open = `<skill name="`
	if strings.HasPrefix(text, open) {
		rest := text[len(open):]
		if i := strings.IndexByte(rest, '"'); i > 0 {
			return skillName(rest[:i])
		}
		return ""
	}
	t := strings.TrimLeftFunc(text, unicode.IsSpace)
	if rest, ok := strings.CutPrefix(t, "/skill:"); ok {
		if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
			rest = rest[:i]
		}
		return skillName(rest)
	}
	return ""
}

// loadedSkill returns the skill a tool call loads: a read of …/NAME/SKILL.md.
func loadedSkill(d *capture.Doc, tool string, args capture.Node) string {
	if tool != "read" || d.Kind(args) != capture.Object {
		return ""
	}
	p := d.GetStr(args, "path")
	if p == "" {
		p = d.GetStr(args, "file_path")
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if path.Base(p) != "SKILL.md" {
		return ""
	}
	return skillName(path.Base(path.Dir(p)))
}

// skillName accepts a plausible skill name: not empty, not a path element
// such as . or /, no spaces or quotes, at most 128 bytes.
func skillName(s string) string {
	if s == "" || s == "." || s == ".." || s == "/" || len(s) > 128 || strings.ContainsAny(s, " \t\r\n\"'<>/\\") {
		return ""
	}
	return s
}

// isoMillis parses an ISO 8601 timestamp into Unix milliseconds (0 when it
// does not parse).
func isoMillis(s string) int64 {
	if s == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
