package capture

import "strings"

// nonTextKeys name string members that carry identifiers, signatures or
// binary payloads rather than text a model reads as language.
var nonTextKeys = map[string]bool{
	"type": true, "role": true, "id": true, "tool_use_id": true, "tool_call_id": true, "call_id": true,
	"toolCallId": true, "signature": true, "thinkingSignature": true, "textSignature": true,
	"thoughtSignature": true, "thought_signature": true, "encrypted_content": true, "data": true,
	"media_type": true, "mimeType": true, "mime_type": true, "status": true, "api": true,
	"provider": true, "model": true, "stopReason": true, "responseId": true, "ttl": true,
}

// SegmentText returns the text of a segment as the model reads it: decoded
// string content for prose sections (identifiers, signatures and binary
// payloads left out), the raw JSON for tool declarations and calls, and
// nothing for media, whose cost is not a function of its bytes.
//
// The text of a skill catalog, which several rules and measure read, is
// decoded once per capture; SegmentText is safe for concurrent use.
func (c *Capture) SegmentText(s Segment) string {
	if s.Kind == SecCatalog {
		c.catalogText.Lock()
		defer c.catalogText.Unlock()
		if t, ok := c.catalogText.m[[2]int{s.Start, s.End}]; ok {
			return t
		}
		t := c.segmentText(s)
		if c.catalogText.m == nil {
			c.catalogText.m = map[[2]int]string{}
		}
		c.catalogText.m[[2]int{s.Start, s.End}] = t
		return t
	}
	return c.segmentText(s)
}

// CatalogTexts returns the text of each native skill catalog of the
// capture (its SecCatalog segments), in body order.
func (c *Capture) CatalogTexts() []string {
	var out []string
	for _, s := range c.Segments() {
		if s.Kind == SecCatalog {
			out = append(out, c.SegmentText(s))
		}
	}
	return out
}

func (c *Capture) segmentText(s Segment) string {
	d := c.Doc
	switch s.Kind {
	case SecMedia:
		return ""
	case SecTools, SecToolCalls, SecOther:
		return string(d.Src[s.Start:s.End])
	}
	n := &d.Nodes[s.Node]
	if n.Kind == String {
		if s.Start == int(n.Start) && s.End == int(n.End) {
			return d.Str(s.Node)
		}
		return decodePart(d, s.Node, s.Start, s.End)
	}
	var b strings.Builder
	end := n.Skip
	for i := s.Node; i < end; i++ {
		m := &d.Nodes[i]
		if m.Kind != String || int(m.End) <= s.Start || int(m.Start) >= s.End {
			continue
		}
		if m.gap != 0 && nonTextKeys[d.Key(i)] {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if int(m.Start) >= s.Start && int(m.End) <= s.End {
			b.WriteString(d.Str(i))
		} else {
			b.WriteString(decodePart(d, i, max(s.Start, int(m.Start)), min(s.End, int(m.End))))
		}
	}
	return b.String()
}

// decodePart decodes the raw bytes [start,end) of string node i, where the
// bounds fall on character boundaries of the token (quotes excluded).
func decodePart(d *Doc, i Node, start, end int) string {
	n := &d.Nodes[i]
	start = max(start, int(n.Start)+1)
	end = min(end, int(n.End)-1)
	if start >= end {
		return ""
	}
	raw := d.Src[start:end]
	if n.flags&flagEscaped == 0 {
		return string(raw)
	}
	return ownedString(appendUnescaped(make([]byte, 0, len(raw)), raw))
}
