package capture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects the index accepts.
// Real request bodies stay far below it; the limit keeps hostile input from
// exhausting the stack of anything that later walks the tree.
const MaxDepth = 1000

// MaxSize is the largest document the index accepts (spans are 32-bit).
const MaxSize = 1<<31 - 1

// Kind is the JSON type of an indexed value.
type Kind uint8

// The JSON value kinds.
const (
	Null Kind = iota
	False
	True
	Number
	String
	Array
	Object
	// None is the kind reported for NoNode.
	None
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case False, True:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "missing"
}

// node flags
const (
	flagEscaped    = 1 << iota // string value holds backslash escapes
	flagKeyEscaped             // member key holds backslash escapes
)

// Node addresses one value of an indexed document: its index in Doc.Nodes.
// NoNode stands for a value that is not there (a missing member, an index
// out of range); every accessor of Doc accepts it and answers "nothing".
type Node int32

// NoNode is the Node of a value that is not there.
const NoNode Node = -1

// Entry is what the index keeps of one value. Entries are stored in document
// order (pre-order), so the children of node i start at i+1 and the subtree of
// node i ends just before node Skip.
//
// An entry takes 16 bytes, so that dense documents (long arrays of small
// numbers) cost about eight times their size: a member's key is found from
// the gap between the key token and the value, and a node's parent by
// descending from the root (see Doc.KeySpan and Doc.ParentOf).
type Entry struct {
	Start, End uint32 // byte span of the value's token(s)
	Skip       Node   // the first node after this subtree
	gap        uint16 // Start minus the end of the member key token; 0 when not a member
	Kind       Kind
	flags      uint8
}

// bigGap marks a gap between key and value too wide for Entry.gap; the
// document keeps the real one aside.
const bigGap = 0xFFFF

// Doc is an order- and spelling-preserving index of one JSON document: every
// value keeps the byte span it has in Src, so edits can be spliced into the
// original bytes while everything else stays byte-identical.
type Doc struct {
	Src   []byte
	Nodes []Entry
	gaps  map[int32]uint32 // gaps of bigGap nodes
	// surrogates is set when a string or member name holds a \u escape
	// of a UTF-16 surrogate (D800–DFFF), paired or not.
	surrogates bool

	// long holds the decoded long strings (see Str), by node.
	longMu sync.Mutex
	long   map[Node]string

	// kids holds the child lists of large containers (see children), by
	// node: a descent or an element lookup in them is a search, not a
	// walk over every earlier sibling.
	kidsMu sync.Mutex
	kids   map[Node][]Node
}

// HasSurrogateEscapes reports whether a string or member name of the
// document holds a \u escape of a UTF-16 surrogate, paired or not: when
// it does not, none holds a lone one.
func (d *Doc) HasSurrogateEscapes() bool { return d.surrogates }

// SyntaxError reports malformed JSON with the byte offset where it was found.
type SyntaxError struct {
	Offset    int // byte offset into the document
	Line, Col int // 1-based; Col counts bytes
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s (byte %d)", e.Line, e.Col, e.Msg, e.Offset)
}

// Position returns "LINE:COL" for the error.
func (e *SyntaxError) Position() string { return fmt.Sprintf("%d:%d", e.Line, e.Col) }

// LineCol converts a byte offset of src into a 1-based line and byte column.
func LineCol(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	col = off + 1
	if i := bytes.LastIndexByte(src[:off], '\n'); i >= 0 {
		col = off - i
	}
	return line, col
}

func newSyntaxError(src []byte, off int, format string, args ...any) *SyntaxError {
	line, col := LineCol(src, off)
	return &SyntaxError{Offset: off, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// Parse indexes src in one pass. It accepts exactly RFC 8259 JSON with a
// single top-level value and optional surrounding whitespace, and rejects
// invalid UTF-8, duplicate object keys, nesting deeper than MaxDepth and
// trailing data, each with a *SyntaxError carrying the offset.
func Parse(src []byte) (*Doc, error) {
	if len(src) > MaxSize {
		return nil, &SyntaxError{Msg: fmt.Sprintf("document of %d bytes exceeds the %d-byte limit", len(src), MaxSize)}
	}
	p := parser{src: src}
	p.nodes = make([]Entry, 0, countValues(src))
	i := p.skipSpace(0)
	if i == len(src) {
		if len(src) == 0 {
			return nil, newSyntaxError(src, 0, "empty input")
		}
		return nil, newSyntaxError(src, i, "no JSON value, only whitespace")
	}
	end, err := p.value(i, 0, 0)
	if err != nil {
		return nil, err
	}
	end = p.skipSpace(end)
	if end != len(src) {
		return nil, newSyntaxError(src, end, "unexpected %s after the top-level value", describeByte(src, end))
	}
	return &Doc{Src: src, Nodes: p.nodes, gaps: p.gaps, surrogates: p.surrogates}, nil
}

// sub returns the index of the value at node n as a document of its own:
// what Parse gives for its span, derived instead of parsed. Surrogate
// escapes are taken to be in it when they are anywhere in d.
func (d *Doc) sub(n Node) *Doc {
	e := d.Nodes[n]
	nodes := make([]Entry, e.Skip-n)
	copy(nodes, d.Nodes[n:e.Skip])
	for i := range nodes {
		nodes[i].Start -= e.Start
		nodes[i].End -= e.Start
		nodes[i].Skip -= n
	}
	nodes[0].gap, nodes[0].flags = 0, nodes[0].flags&^flagKeyEscaped
	var gaps map[int32]uint32
	for k, g := range d.gaps {
		if k > int32(n) && k < int32(e.Skip) {
			if gaps == nil {
				gaps = map[int32]uint32{}
			}
			gaps[k-int32(n)] = g
		}
	}
	return &Doc{Src: d.Src[e.Start:e.End], Nodes: nodes, gaps: gaps, surrogates: d.surrogates}
}

// parseString is Parse for a document that is exactly one JSON string,
// without white space around it: its one node, or nil when src is not
// such a document.
func parseString(src []byte) *Doc {
	if len(src) < 2 || src[0] != '"' || len(src) > MaxSize {
		return nil
	}
	p := parser{src: src}
	end, esc, err := p.str(0)
	if err != nil || end != len(src) {
		return nil
	}
	e := Entry{Start: 0, End: uint32(end), Skip: 1, Kind: String}
	if esc {
		e.flags = flagEscaped
	}
	return &Doc{Src: src, Nodes: []Entry{e}, surrogates: p.surrogates}
}

// CheckValue reports whether src is exactly one JSON value, as Parse
// would, without building its index: a string, the value an edit most
// often writes, is checked in place; anything else is parsed.
func CheckValue(src []byte) error {
	if len(src) > 0 && src[0] == '"' && len(src) <= MaxSize {
		p := parser{src: src}
		end, _, err := p.str(0)
		if err != nil {
			return err
		}
		if end = p.skipSpace(end); end != len(src) {
			return newSyntaxError(src, end, "unexpected %s after the top-level value", describeByte(src, end))
		}
		return nil
	}
	_, err := Parse(src)
	return err
}

type parser struct {
	src        []byte
	nodes      []Entry
	gaps       map[int32]uint32
	surrogates bool
}

// countValues returns an upper bound of the number of values in src: one
// for the root, one per comma and one per opening bracket outside strings.
// Sizing the node slice once keeps dense documents from paying for the
// regrowth of a slice that is itself several times larger than the input.
func countValues(src []byte) int {
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ',', '[', '{':
			n++
		case '"':
			// Skip the string: find the closing quote not escaped by an
			// odd run of backslashes.
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					return n
				}
				j += k
				b := j - 1
				for b > i && src[b] == '\\' {
					b--
				}
				if (j-1-b)%2 == 0 {
					break
				}
				j++
			}
			i = j
		}
	}
	return n
}

func (p *parser) skipSpace(i int) int {
	for i < len(p.src) {
		switch p.src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func describeByte(src []byte, i int) string {
	if i >= len(src) {
		return "end of input"
	}
	c := src[i]
	if c >= 0x20 && c < 0x7f {
		return strconv.Quote(string(c))
	}
	if c >= 0x80 {
		r, _ := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError {
			return fmt.Sprintf("byte 0x%02x (invalid UTF-8)", c)
		}
		return fmt.Sprintf("character %q", r)
	}
	return fmt.Sprintf("control byte 0x%02x", c)
}

// value parses the value starting at i (not whitespace) and returns the
// offset just past it. keyEnd is the offset just past the member key token,
// 0 for array elements and the root.
func (p *parser) value(i int, depth int, keyEnd int) (int, error) {
	src := p.src
	if i >= len(src) {
		return 0, newSyntaxError(src, i, "unexpected end of input, expected a value (truncated?)")
	}
	idx := int32(len(p.nodes))
	nd := Entry{Start: uint32(i)}
	if keyEnd > 0 {
		if g := i - keyEnd; g < bigGap {
			nd.gap = uint16(g)
		} else {
			nd.gap = bigGap
			if p.gaps == nil {
				p.gaps = map[int32]uint32{}
			}
			p.gaps[idx] = uint32(g)
		}
	}
	p.nodes = append(p.nodes, nd)
	var (
		end  int
		err  error
		kind Kind
		fl   uint8
	)
	switch c := src[i]; {
	case c == '{':
		kind = Object
		end, err = p.object(i, idx, depth+1)
	case c == '[':
		kind = Array
		end, err = p.array(i, idx, depth+1)
	case c == '"':
		kind = String
		var esc bool
		end, esc, err = p.str(i)
		if esc {
			fl |= flagEscaped
		}
	case c == 't':
		kind = True
		end, err = p.literal(i, "true")
	case c == 'f':
		kind = False
		end, err = p.literal(i, "false")
	case c == 'n':
		kind = Null
		end, err = p.literal(i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		kind = Number
		end, err = p.number(i)
	default:
		return 0, newSyntaxError(src, i, "unexpected %s, expected a value", describeByte(src, i))
	}
	if err != nil {
		return 0, err
	}
	n := &p.nodes[idx]
	n.End = uint32(end)
	n.Kind = kind
	n.flags |= fl
	n.Skip = Node(len(p.nodes))
	return end, nil
}

func (p *parser) literal(i int, lit string) (int, error) {
	src := p.src
	for k := 0; k < len(lit); k++ {
		if i+k >= len(src) {
			return 0, newSyntaxError(src, i+k, "unexpected end of input inside %q (truncated?)", lit)
		}
		if src[i+k] != lit[k] {
			return 0, newSyntaxError(src, i+k, "unexpected %s, expected %q", describeByte(src, i+k), lit)
		}
	}
	return i + len(lit), nil
}

func (p *parser) number(i int) (int, error) {
	src := p.src
	start := i
	if src[i] == '-' {
		i++
	}
	if i >= len(src) {
		return 0, newSyntaxError(src, i, "unexpected end of input in number (truncated?)")
	}
	switch {
	case src[i] == '0':
		i++
	case src[i] >= '1' && src[i] <= '9':
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	default:
		return 0, newSyntaxError(src, i, "invalid number %q: expected a digit", src[start:i+1])
	}
	if i < len(src) && src[i] == '.' {
		i++
		d := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i == d {
			return 0, newSyntaxError(src, i, "invalid number: expected a digit after the decimal point")
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		d := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		if i == d {
			return 0, newSyntaxError(src, i, "invalid number: expected a digit in the exponent")
		}
	}
	return i, nil
}

// str scans the string token starting at the quote at i. It validates
// escapes and UTF-8 and reports whether the token contains escapes.
func (p *parser) str(i int) (end int, escaped bool, err error) {
	src := p.src
	j := i + 1
	for {
		// Fast path over plain ASCII (and, on amd64, one-letter
		// escapes), many bytes at a time.
		k, esc := scanPlain(src[j:])
		j += k
		escaped = escaped || esc
		for j < len(src) {
			c := src[j]
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				break
			}
			j++
		}
		if j >= len(src) {
			return 0, false, newSyntaxError(src, i, "unterminated string (truncated?)")
		}
		switch c := src[j]; {
		case c == '"':
			return j + 1, escaped, nil
		case c == '\\':
			escaped = true
			if j+1 >= len(src) {
				return 0, false, newSyntaxError(src, i, "unterminated string (truncated?)")
			}
			switch src[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(src) {
					return 0, false, newSyntaxError(src, j, "truncated \\u escape")
				}
				for k := j + 2; k < j+6; k++ {
					if !isHex(src[k]) {
						return 0, false, newSyntaxError(src, k, "invalid \\u escape: %s is not a hex digit", describeByte(src, k))
					}
				}
				if src[j+2]|0x20 == 'd' && (src[j+3] >= '8' && src[j+3] <= '9' || src[j+3]|0x20 >= 'a') {
					p.surrogates = true // D800–DFFF
				}
				j += 6
			default:
				return 0, false, newSyntaxError(src, j, "invalid escape %s in string", describeByte(src, j+1))
			}
		case c < 0x20:
			return 0, false, newSyntaxError(src, j, "control byte 0x%02x in string (must be escaped)", c)
		default:
			r, size := utf8.DecodeRune(src[j:])
			if r == utf8.RuneError && size <= 1 {
				return 0, false, newSyntaxError(src, j, "invalid UTF-8 byte 0x%02x in string", c)
			}
			j += size
		}
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainWords is the length of the run of plain bytes s starts with,
// counted a word at a time, four words to a round: up to the first byte
// that needs attention, or to fewer than eight bytes before the end.
// (Four words with a branch each beat one branch on all four: the first
// byte that needs attention is usually in the first words.) scanPlain
// is this where no vector scan goes first.
func plainWords(s []byte) int {
	n := 0
	for len(s) >= 32 {
		if m := specialBytes(binary.LittleEndian.Uint64(s)); m != 0 {
			return n + bits.TrailingZeros64(m)>>3
		}
		if m := specialBytes(binary.LittleEndian.Uint64(s[8:])); m != 0 {
			return n + 8 + bits.TrailingZeros64(m)>>3
		}
		if m := specialBytes(binary.LittleEndian.Uint64(s[16:])); m != 0 {
			return n + 16 + bits.TrailingZeros64(m)>>3
		}
		if m := specialBytes(binary.LittleEndian.Uint64(s[24:])); m != 0 {
			return n + 24 + bits.TrailingZeros64(m)>>3
		}
		s = s[32:]
		n += 32
	}
	for len(s) >= 8 {
		if m := specialBytes(binary.LittleEndian.Uint64(s)); m != 0 {
			return n + bits.TrailingZeros64(m)>>3
		}
		s = s[8:]
		n += 8
	}
	return n
}

// specialBytes flags the bytes of the little-endian word x that need
// attention inside a string (a control byte, '"', '\\' or a non-ASCII
// byte) with their high bit. A borrow can flag a byte above a flagged one
// that needs none, never one below: the lowest flag is always exact.
func specialBytes(x uint64) uint64 {
	ctl := (x - lsb*0x20) &^ x // high bit where a byte is below 0x20
	q := x ^ (lsb * '"')
	quo := (q - lsb) &^ q // high bit where a byte is '"'
	b := x ^ (lsb * '\\')
	bsl := (b - lsb) &^ b // high bit where a byte is '\\'
	return (ctl | quo | bsl | x) & msb
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *parser) array(i int, idx int32, depth int) (int, error) {
	src := p.src
	if depth > MaxDepth {
		return 0, newSyntaxError(src, i, "nesting deeper than %d levels", MaxDepth)
	}
	i = p.skipSpace(i + 1)
	if i < len(src) && src[i] == ']' {
		return i + 1, nil
	}
	for {
		end, err := p.value(i, depth, 0)
		if err != nil {
			return 0, err
		}
		i = p.skipSpace(end)
		if i >= len(src) {
			return 0, newSyntaxError(src, i, "unexpected end of input in array (truncated?)")
		}
		switch src[i] {
		case ',':
			i = p.skipSpace(i + 1)
			if i < len(src) && src[i] == ']' {
				return 0, newSyntaxError(src, i, "trailing comma in array")
			}
		case ']':
			return i + 1, nil
		default:
			return 0, newSyntaxError(src, i, "unexpected %s in array, expected ',' or ']'", describeByte(src, i))
		}
	}
}

func (p *parser) object(i int, idx int32, depth int) (int, error) {
	src := p.src
	if depth > MaxDepth {
		return 0, newSyntaxError(src, i, "nesting deeper than %d levels", MaxDepth)
	}
	i = p.skipSpace(i + 1)
	if i < len(src) && src[i] == '}' {
		return i + 1, nil
	}
	first := len(p.nodes)
	members := 0
	var keyset map[string]struct{} // only for objects with many members
	for {
		if i >= len(src) {
			return 0, newSyntaxError(src, i, "unexpected end of input in object (truncated?)")
		}
		if src[i] != '"' {
			if src[i] == '}' && members > 0 {
				return 0, newSyntaxError(src, i, "trailing comma in object")
			}
			return 0, newSyntaxError(src, i, "unexpected %s, expected a quoted object key", describeByte(src, i))
		}
		keyStart := i
		keyEnd, kesc, err := p.str(i)
		if err != nil {
			return 0, err
		}
		if err := p.checkDuplicate(first, members, keyStart, keyEnd, kesc, &keyset); err != nil {
			return 0, err
		}
		i = p.skipSpace(keyEnd)
		if i >= len(src) {
			return 0, newSyntaxError(src, i, "unexpected end of input after object key (truncated?)")
		}
		if src[i] != ':' {
			return 0, newSyntaxError(src, i, "unexpected %s after object key, expected ':'", describeByte(src, i))
		}
		i = p.skipSpace(i + 1)
		child := len(p.nodes)
		end, err := p.value(i, depth, keyEnd)
		if err != nil {
			return 0, err
		}
		if kesc {
			p.nodes[child].flags |= flagKeyEscaped
		}
		members++
		i = p.skipSpace(end)
		if i >= len(src) {
			return 0, newSyntaxError(src, i, "unexpected end of input in object (truncated?)")
		}
		switch src[i] {
		case ',':
			i = p.skipSpace(i + 1)
		case '}':
			return i + 1, nil
		default:
			return 0, newSyntaxError(src, i, "unexpected %s in object, expected ',' or '}'", describeByte(src, i))
		}
	}
}

// dupLinear is the member count up to which duplicate keys are found by
// comparing against every earlier key instead of hashing.
const dupLinear = 16

// checkDuplicate reports whether the key at [ks,ke) repeats an earlier key of
// the object whose first member node is first. Keys are compared by their
// decoded value, so "a" and "\u0061" collide.
func (p *parser) checkDuplicate(first, members, ks, ke int, escaped bool, keyset *map[string]struct{}) error {
	if members == 0 {
		return nil
	}
	src := p.src
	key := src[ks:ke]
	if members < dupLinear {
		for c := first; c < len(p.nodes); c = int(p.nodes[c].Skip) {
			n := &p.nodes[c]
			other := src[p.keyStart(c):p.keyEnd(c)]
			if n.flags&flagKeyEscaped == 0 && !escaped {
				if bytes.Equal(other, key) {
					return p.dupError(ks, key)
				}
				continue
			}
			if unquote(other) == unquote(key) {
				return p.dupError(ks, key)
			}
		}
		return nil
	}
	if *keyset == nil {
		// Switch to a set holding every key seen so far in this object.
		*keyset = make(map[string]struct{}, 2*dupLinear)
		for c := first; c < len(p.nodes); c = int(p.nodes[c].Skip) {
			(*keyset)[unquote(src[p.keyStart(c):p.keyEnd(c)])] = struct{}{}
		}
	}
	k := unquote(key)
	if _, ok := (*keyset)[k]; ok {
		return p.dupError(ks, key)
	}
	(*keyset)[k] = struct{}{}
	return nil
}

func (p *parser) keyEnd(i int) int {
	return keyEndOf(&p.nodes[i], p.gaps, int32(i))
}

func (p *parser) keyStart(i int) int {
	return keyStartOf(p.src, p.keyEnd(i), p.nodes[i].flags&flagKeyEscaped != 0)
}

// keyEndOf returns the offset just past the key token of member node n
// (index i), or -1 when n is not a member.
func keyEndOf(n *Entry, gaps map[int32]uint32, i int32) int {
	switch n.gap {
	case 0:
		return -1
	case bigGap:
		return int(n.Start) - int(gaps[i])
	}
	return int(n.Start) - int(n.gap)
}

// keyStartOf finds the opening quote of the key token that ends just before
// end: the nearest quote before the closing one that no odd run of
// backslashes escapes (keys without escapes hold no backslash at all).
func keyStartOf(src []byte, end int, escaped bool) int {
	j := end - 1 // the closing quote
	for {
		q := bytes.LastIndexByte(src[:j], '"')
		if !escaped || q <= 0 {
			return q
		}
		b := q - 1
		for b >= 0 && src[b] == '\\' {
			b--
		}
		if (q-1-b)%2 == 0 {
			return q
		}
		j = q
	}
}

func (p *parser) dupError(off int, key []byte) error {
	return newSyntaxError(p.src, off, "duplicate object key %s", key)
}

// unquote decodes a validated JSON string token (quotes included).
func unquote(tok []byte) string {
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	return ownedString(appendUnescaped(make([]byte, 0, len(body)), body))
}

// ownedString turns a buffer that nothing else refers to into a string
// without copying it: decoding a long string then costs one allocation, not
// two.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// appendUnescaped appends the decoded form of the inside of a validated
// string token. Lone surrogates decode to U+FFFD, as encoding/json does.
func appendUnescaped(dst, body []byte) []byte {
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			j := i + 1
			for j < len(body) && body[j] != '\\' {
				j++
			}
			dst = append(dst, body[i:j]...)
			i = j
			continue
		}
		switch body[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := rune(hex4(body[i+2 : i+6]))
			if utf16.IsSurrogate(r) {
				if i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
					r2 := rune(hex4(body[i+8 : i+12]))
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						dst = utf8.AppendRune(dst, dec)
						i += 12
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			dst = append(dst, body[i+1])
		}
		i += 2
	}
	return dst
}

func hex4(b []byte) int {
	v := 0
	for _, c := range b {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= int(c - '0')
		case c >= 'a' && c <= 'f':
			v |= int(c-'a') + 10
		default:
			v |= int(c-'A') + 10
		}
	}
	return v
}
