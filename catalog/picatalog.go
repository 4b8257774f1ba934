package catalog

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParsePiCatalogs returns the skills of every catalog text, in order.
func ParsePiCatalogs(texts ...string) []Skill {
	var out []Skill
	for _, t := range texts {
		out = append(out, ParsePiCatalog(t)...)
	}
	return out
}

// ParsePiCatalog reads the <skill> entries of Pi's <available_skills>
// block: name, description and location, XML entities decoded.
func ParsePiCatalog(text string) []Skill {
	// One entry per open tag at most: sized once, not grown ten thousand
	// skills long.
	var out []Skill
	if n := strings.Count(text, "<skill>"); n > 0 {
		out = make([]Skill, 0, n)
	}
	for {
		i := strings.Index(text, "<skill>")
		if i < 0 {
			return out
		}
		text = text[i+len("<skill>"):]
		j := strings.Index(text, "</skill>")
		entry := text
		if j >= 0 {
			entry = text[:j]
			text = text[j+len("</skill>"):]
		} else {
			text = ""
		}
		sk := Skill{
			Name:        xmlUnescape(strings.TrimSpace(element(entry, "<name>", "</name>"))),
			Description: xmlUnescape(strings.TrimSpace(element(entry, "<description>", "</description>"))),
			Location:    xmlUnescape(strings.TrimSpace(element(entry, "<location>", "</location>"))),
		}
		if sk.Name != "" {
			out = append(out, sk)
		}
	}
}

// element returns the text between the first open tag of entry and the
// close tag after it (the rest of entry when it is not closed).
func element(entry, open, close string) string {
	i := strings.Index(entry, open)
	if i < 0 {
		return ""
	}
	rest := entry[i+len(open):]
	j := strings.Index(rest, close)
	if j < 0 {
		return rest
	}
	return rest[:j]
}

// xmlUnescape decodes the five XML entities and numeric character
// references; anything else is kept as written.
func xmlUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s, ';')
		if j < 0 || j > 12 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		ent := s[1:j]
		switch {
		case ent == "amp":
			b.WriteByte('&')
		case ent == "lt":
			b.WriteByte('<')
		case ent == "gt":
			b.WriteByte('>')
		case ent == "quot":
			b.WriteByte('"')
		case ent == "apos":
			b.WriteByte('\'')
		case strings.HasPrefix(ent, "#x") || strings.HasPrefix(ent, "#X"):
			if n, err := strconv.ParseUint(ent[2:], 16, 32); err == nil && utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			} else {
				b.WriteString(s[:j+1])
			}
		case strings.HasPrefix(ent, "#"):
			if n, err := strconv.ParseUint(ent[1:], 10, 32); err == nil && utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			} else {
				b.WriteString(s[:j+1])
			}
		default:
			b.WriteString(s[:j+1])
		}
		s = s[j+1:]
	}
}

// xmlEscape escapes text for an XML-like prompt block.
func xmlEscape(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	return xmlEscaper.Replace(s)
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
