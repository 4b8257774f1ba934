package synth

import (
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Byte classes for the escapers.
const (
	plain    = iota // copied as is
	jsonEsc         // escaped by JSON
	xmlEsc          // replaced by an XML entity (only in XML text)
	nonASCII        // start of a multi-byte sequence
)

// classJSON and classJSONHTML classify bytes for JSON text without and with
// HTML escaping; classXML* additionally mark the XML-special characters.
var classJSON, classJSONHTML, classXML, classXMLHTML [256]uint8

func init() {
	for b := range 256 {
		c := uint8(plain)
		switch {
		case b >= 0x80:
			c = nonASCII
		case b < 0x20 || b == '"' || b == '\\':
			c = jsonEsc
		}
		classJSON[b] = c
		classJSONHTML[b] = c
		if b == '<' || b == '>' || b == '&' {
			classJSONHTML[b] = jsonEsc
		}
		classXML[b], classXMLHTML[b] = classJSON[b], classJSONHTML[b]
		switch b {
		case '&', '<', '>', '"', '\'':
			classXML[b], classXMLHTML[b] = xmlEsc, xmlEsc
		}
	}
}

// appendJSONText appends s to dst escaped as the inside of a JSON string,
// byte for byte as encoding/json escapes it (with or without HTML escaping).
func appendJSONText(dst []byte, s string, escapeHTML bool) []byte {
	class := &classJSON
	if escapeHTML {
		class = &classJSONHTML
	}
	return appendEscaped(dst, s, class, escapeHTML)
}

// appendXMLJSONText appends s XML-escaped (as EscapeXML does) and then
// JSON-escaped (as appendJSONText does), without building the intermediate
// string.
func appendXMLJSONText(dst []byte, s string, escapeHTML bool) []byte {
	class := &classXML
	if escapeHTML {
		class = &classXMLHTML
	}
	return appendEscaped(dst, s, class, escapeHTML)
}

// entityJSON holds the JSON-escaped XML entities, without and with HTML
// escaping, indexed by the character they replace.
var entityJSON = [2][256]string{
	{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&apos;"},
	{'&': `\u0026amp;`, '<': `\u0026lt;`, '>': `\u0026gt;`, '"': `\u0026quot;`, '\'': `\u0026apos;`},
}

func appendEscaped(dst []byte, s string, class *[256]uint8, escapeHTML bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		switch class[b] {
		case plain:
			i++
			continue
		case jsonEsc:
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		case xmlEsc:
			dst = append(dst, s[start:i]...)
			if escapeHTML {
				dst = append(dst, entityJSON[1][b]...)
			} else {
				dst = append(dst, entityJSON[0][b]...)
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// appendSystemJSON appends SystemPrompt(skills) as a quoted JSON string.
func appendSystemJSON(dst []byte, skills []Skill, escapeHTML bool) []byte {
	dst = append(dst, '"')
	dst = appendJSONText(dst, promptHead, escapeHTML)
	if len(skills) > 0 {
		dst = appendJSONText(dst, "\n\n"+skillsIntro+"\n\n<available_skills>\n", escapeHTML)
		open := appendJSONText(nil, "  <skill>\n    <name>", escapeHTML)
		afterName := appendJSONText(nil, "</name>\n    <description>", escapeHTML)
		afterDesc := appendJSONText(nil, "</description>\n    <location>", escapeHTML)
		closing := appendJSONText(nil, "</location>\n  </skill>\n", escapeHTML)
		for i := range skills {
			s := &skills[i]
			dst = append(dst, open...)
			dst = appendXMLJSONText(dst, s.Name, escapeHTML)
			dst = append(dst, afterName...)
			dst = appendXMLJSONText(dst, s.Description, escapeHTML)
			dst = append(dst, afterDesc...)
			dst = appendXMLJSONText(dst, s.Location, escapeHTML)
			dst = append(dst, closing...)
		}
		dst = appendJSONText(dst, "</available_skills>", escapeHTML)
	}
	dst = appendJSONText(dst, promptTail, escapeHTML)
	return append(dst, '"')
}
