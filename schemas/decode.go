package schemas

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of arrays and objects, as encoding/json does.
const maxDepth = 10000

var errUnexpectedEnd = errors.New("unexpected end of JSON input")

// decodeJSON parses one JSON value into what encoding/json produces with
// Decoder.UseNumber: map[string]any, []any, string, json.Number, bool and
// nil. Invalid UTF-8 and unpaired surrogates in strings become U+FFFD, and
// the last of duplicate keys wins, also as in encoding/json. It works on
// the bytes directly, which spares the large buffer copies of a Decoder.
func decodeJSON(data []byte) (any, error) {
	p := parser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.data) {
		return nil, p.unexpected("after top-level value")
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
	buf  []byte // scratch space for strings with escapes
}

func (p *parser) unexpected(context string) error {
	if p.pos >= len(p.data) {
		return errUnexpectedEnd
	}
	return fmt.Errorf("invalid character %q %s (offset %d)", p.data[p.pos], context, p.pos)
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, errUnexpectedEnd
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.unexpected("looking for beginning of value")
}

func (p *parser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.data) {
			return errUnexpectedEnd
		}
		if p.data[p.pos] != word[i] {
			return p.unexpected("in literal " + word)
		}
		p.pos++
	}
	return nil
}

func (p *parser) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("exceeded max depth")
	}
	p.pos++ // {
	m := make(map[string]any)
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return m, nil
	}
	for {
		if p.pos >= len(p.data) {
			return nil, errUnexpectedEnd
		}
		if p.data[p.pos] != '"' {
			return nil, p.unexpected("looking for beginning of object key string")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.data) {
			return nil, errUnexpectedEnd
		}
		if p.data[p.pos] != ':' {
			return nil, p.unexpected("after object key")
		}
		p.pos++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.pos >= len(p.data) {
			return nil, errUnexpectedEnd
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.space()
		case '}':
			p.pos++
			return m, nil
		default:
			return nil, p.unexpected("after object key:value pair")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("exceeded max depth")
	}
	p.pos++ // [
	a := make([]any, 0, 4)
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.pos >= len(p.data) {
			return nil, errUnexpectedEnd
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.space()
		case ']':
			p.pos++
			return a, nil
		default:
			return nil, p.unexpected("after array element")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.pos
	d := p.data
	digits := func() int {
		n := 0
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if d[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(d) && d[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.unexpected("in numeric literal")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.unexpected("after decimal point in numeric literal")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.unexpected("in exponent of numeric literal")
		}
	}
	return json.Number(d[start:p.pos]), nil
}

// str parses a string starting at the opening quote.
func (p *parser) str() (string, error) {
	d := p.data
	start := p.pos + 1
	ascii := true
	for i := start; i < len(d); i++ {
		c := d[i]
		switch {
		case c == '"':
			if ascii || utf8.Valid(d[start:i]) {
				p.pos = i + 1
				return string(d[start:i]), nil
			}
			return p.strSlow(start)
		case c == '\\':
			return p.strSlow(start)
		case c < 0x20:
			p.pos = i
			return "", p.unexpected("in string literal")
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", errUnexpectedEnd
}

// strSlow decodes a string with escapes or invalid UTF-8 from start (just
// after the opening quote).
func (p *parser) strSlow(start int) (string, error) {
	d := p.data
	b := p.buf[:0]
	i := start
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.buf = b
			return string(b), nil
		case c == '\\':
			if i+1 >= len(d) {
				return "", errUnexpectedEnd
			}
			e := d[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := hex4(d, i)
				if !ok {
					p.pos = i
					return "", p.unexpected("in \\u hexadecimal character escape")
				}
				i += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(-1), false
					if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						r2, ok = hex4(d, i+2)
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				p.pos = i - 1
				return "", p.unexpected("in string escape code")
			}
		case c < 0x20:
			p.pos = i
			return "", p.unexpected("in string literal")
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d[i:i+size]...)
			}
			i += size
		}
	}
	return "", errUnexpectedEnd
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
