package record

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// Bounds of what the observer of a response keeps. A server-sent event
// line longer than maxLine is skipped (usage events are small); a body
// that is not an event stream is kept up to maxBody to read its usage at
// the end; --responses keeps at most maxKept bytes of a response.
const (
	maxLine = 4 << 20
	maxBody = 16 << 20
	maxKept = 64 << 20
)

// usage merges the usage objects a response reports, as the provider
// names them: the members of a later report replace those of an earlier
// one (Anthropic's message_delta after message_start, Gemini's last
// chunk), members it does not repeat stay.
type usage struct {
	keys []string
	vals map[string]json.RawMessage
}

// add merges the usage objects of one JSON document: usage,
// message.usage (Anthropic's message_start), response.usage (OpenAI
// Responses' response.completed) and usageMetadata (Gemini).
func (u *usage) add(d *capture.Doc, root capture.Node) {
	for _, n := range []capture.Node{
		d.Get(root, "usage"),
		d.Get(d.Get(root, "message"), "usage"),
		d.Get(d.Get(root, "response"), "usage"),
		d.Get(root, "usageMetadata"),
	} {
		if d.Kind(n) != capture.Object {
			continue
		}
		for m := range d.Children(n) {
			if !d.IsMember(m) || d.Kind(m) == capture.Null {
				continue
			}
			k := d.Key(m)
			if u.vals == nil {
				u.vals = map[string]json.RawMessage{}
			}
			if _, seen := u.vals[k]; !seen {
				u.keys = append(u.keys, k)
			}
			u.vals[k] = append(json.RawMessage(nil), d.Raw(m)...)
		}
	}
}

// addJSON merges the usage of a JSON body: an object, or an array of
// streamed chunks (Gemini without alt=sse).
func (u *usage) addJSON(body []byte) {
	d, err := capture.Parse(bytes.TrimSpace(body))
	if err != nil {
		return
	}
	if d.Kind(0) == capture.Array {
		for e := range d.Children(0) {
			u.add(d, e)
		}
		return
	}
	u.add(d, 0)
}

// JSON is the merged usage object, nil when none was reported.
func (u *usage) JSON() []byte {
	if len(u.keys) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range u.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(capture.Quote(k))
		b.WriteByte(':')
		b.Write(u.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// observer sees the bytes of a response as they pass to the client. An
// event stream is read line by line as it arrives, its data lines that
// report usage parsed on the way; any other body (or a compressed one) is
// kept, bounded, and read at the end.
type observer struct {
	sse     bool
	encoded string // Content-Encoding, "" for identity
	keep    bool   // --responses: keep the response text
	n       int64

	u    usage
	line []byte
	skip bool // the current line passed maxLine
	body []byte
	over bool // body passed its bound
}

func newObserver(contentType, encoding string, keep bool) *observer {
	ct := strings.ToLower(contentType)
	enc := strings.ToLower(strings.TrimSpace(encoding))
	if enc == "identity" {
		enc = ""
	}
	return &observer{sse: strings.HasPrefix(ct, "text/event-stream"), encoded: enc, keep: keep}
}

func (o *observer) Write(p []byte) (int, error) {
	o.n += int64(len(p))
	if o.sse && o.encoded == "" {
		o.lines(p)
	}
	if !o.sse || o.encoded != "" || o.keep {
		limit := maxBody
		if o.keep {
			limit = maxKept
		}
		if !o.over {
			if len(o.body)+len(p) > limit {
				o.over = true
			} else {
				o.body = append(o.body, p...)
			}
		}
	}
	return len(p), nil
}

// lines feeds p to the event-stream line splitter. A line ends in CRLF,
// LF or a lone CR; the LF of a CRLF ends an empty line, which holds no
// data.
func (o *observer) lines(p []byte) {
	for len(p) > 0 {
		i := capture.LineEnd(p)
		if i < 0 {
			o.appendLine(p)
			return
		}
		switch {
		case o.skip:
		case len(o.line) == 0 && i <= maxLine:
			// A whole line in p is read where it is, not copied.
			o.event(p[:i])
		default:
			o.appendLine(p[:i])
			if !o.skip {
				o.event(o.line)
			}
		}
		o.line, o.skip = o.line[:0], false
		p = p[i+1:]
	}
}

func (o *observer) appendLine(p []byte) {
	if o.skip {
		return
	}
	if len(o.line)+len(p) > maxLine {
		o.skip, o.line = true, o.line[:0]
		return
	}
	o.line = append(o.line, p...)
}

// event reads one line of an event stream: a data line that mentions a
// usage is parsed.
func (o *observer) event(line []byte) {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' || !bytes.Contains(data, []byte(`sage`)) {
		return
	}
	if d, err := capture.Parse(data); err == nil && d.Kind(0) == capture.Object {
		o.u.add(d, 0)
	}
}

// finish reads what was kept: the last line of a stream without a final
// line break, a body's usage, a compressed response decompressed. It
// returns the merged usage and the response text kept for --responses
// (decompressed when it was gzip), with whether it was cut.
func (o *observer) finish() (usageJSON, text []byte, cut bool) {
	body := o.body
	if o.encoded == "gzip" && !o.over && len(body) > 0 {
		if zr, err := gzip.NewReader(bytes.NewReader(body)); err == nil {
			if dec, err := io.ReadAll(io.LimitReader(zr, maxKept+1)); err == nil && len(dec) <= maxKept {
				body = dec
			} else {
				body = nil
			}
		} else {
			body = nil
		}
	} else if o.encoded != "" {
		body = nil // another encoding: neither usage nor text
	}
	switch {
	case o.sse && o.encoded == "":
		if len(o.line) > 0 && !o.skip {
			o.event(o.line)
		}
	case o.sse:
		for l := range capture.EventLines(body) {
			o.event(l)
		}
	case !o.over:
		o.u.addJSON(body)
	}
	if o.keep {
		text, cut = body, o.over
	}
	return o.u.JSON(), text, cut
}
