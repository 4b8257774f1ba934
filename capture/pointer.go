package capture

import (
	"bytes"
	"fmt"
	"iter"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Raw returns the exact bytes of node i.
func (d *Doc) Raw(i Node) []byte {
	if i == NoNode {
		return nil
	}
	n := &d.Nodes[i]
	return d.Src[n.Start:n.End]
}

// Kind returns the JSON kind of node i, or None for NoNode.
func (d *Doc) Kind(i Node) Kind {
	if i == NoNode {
		return None
	}
	return d.Nodes[i].Kind
}

// Str returns the decoded value of string node i ("" for other kinds).
func (d *Doc) Str(i Node) string {
	if i == NoNode {
		return ""
	}
	n := &d.Nodes[i]
	if n.Kind != String {
		return ""
	}
	if n.End-n.Start < longString {
		if n.flags&flagEscaped == 0 {
			return string(d.Src[n.Start+1 : n.End-1])
		}
		return unquote(d.Src[n.Start:n.End])
	}
	// A long string (a large tool result, say) is read by several rules
	// and by measure: it is decoded once per document.
	d.longMu.Lock()
	defer d.longMu.Unlock()
	if s, ok := d.long[i]; ok {
		return s
	}
	s := unquote(d.Src[n.Start:n.End])
	if d.long == nil {
		d.long = map[Node]string{}
	}
	d.long[i] = s
	return s
}

// longString is the token length from which Str keeps what it decoded.
const longString = 64 << 10

// StrIs reports whether node i is a string whose decoded value is s, without
// allocating for the common unescaped case.
func (d *Doc) StrIs(i Node, s string) bool {
	if i == NoNode {
		return false
	}
	n := &d.Nodes[i]
	if n.Kind != String {
		return false
	}
	if n.flags&flagEscaped == 0 {
		return string(d.Src[n.Start+1:n.End-1]) == s
	}
	return unquote(d.Src[n.Start:n.End]) == s
}

// StrPrefix returns the decoded start of string node i, reading at most
// about maxRaw bytes of its token (never cutting an escape in half).
func (d *Doc) StrPrefix(i Node, maxRaw int) string {
	if i == NoNode || d.Nodes[i].Kind != String {
		return ""
	}
	n := &d.Nodes[i]
	body := d.Src[n.Start+1 : n.End-1]
	if len(body) <= maxRaw {
		return d.Str(i)
	}
	j := 0
	for j < maxRaw {
		if body[j] == '\\' {
			if body[j+1] == 'u' {
				j += 6
			} else {
				j += 2
			}
			continue
		}
		j++
	}
	for j < len(body) && body[j]&0xC0 == 0x80 { // finish a UTF-8 sequence
		j++
	}
	if n.flags&flagEscaped == 0 {
		return string(body[:j])
	}
	return ownedString(appendUnescaped(nil, body[:j]))
}

// Key returns the decoded member key of node i ("" when i is not a member).
func (d *Doc) Key(i Node) string {
	if i == NoNode {
		return ""
	}
	s, e := d.KeySpan(i)
	if s < 0 {
		return ""
	}
	if d.Nodes[i].flags&flagKeyEscaped == 0 {
		return string(d.Src[s+1 : e-1])
	}
	return unquote(d.Src[s:e])
}

// keyIs reports whether member node i is named key. Keys without escapes are
// compared in place, backwards from the end of the key token, so that the
// key's start need not be searched for.
func (d *Doc) keyIs(i Node, key string) bool {
	n := &d.Nodes[i]
	end := keyEndOf(n, d.gaps, int32(i))
	if end < 0 {
		return false
	}
	if n.flags&flagKeyEscaped == 0 && strings.IndexByte(key, '"') < 0 {
		open := end - 2 - len(key)
		return open >= 0 && d.Src[open] == '"' && string(d.Src[open+1:end-1]) == key
	}
	return d.Key(i) == key
}

// KeyView is Key without a copy for a key written without escapes: the
// string shares the document's bytes, which nothing changes once parsed.
// For lookups and comparisons in loops over many members.
func (d *Doc) KeyView(i Node) string {
	if i == NoNode {
		return ""
	}
	s, e := d.KeySpan(i)
	if s < 0 {
		return ""
	}
	if d.Nodes[i].flags&flagKeyEscaped == 0 {
		if e-1 <= s+1 {
			return ""
		}
		return unsafe.String(&d.Src[s+1], e-1-(s+1))
	}
	return unquote(d.Src[s:e])
}

// IsMember reports whether node i is the value of an object member.
func (d *Doc) IsMember(i Node) bool { return d.Nodes[i].gap != 0 }

// KeySpan returns the byte span of node i's member key token, quotes
// included, or (-1, -1) when i is not a member.
func (d *Doc) KeySpan(i Node) (start, end int) {
	if i == NoNode {
		return -1, -1
	}
	n := &d.Nodes[i]
	end = keyEndOf(n, d.gaps, int32(i))
	if end < 0 {
		return -1, -1
	}
	return keyStartOf(d.Src, end, n.flags&flagKeyEscaped != 0), end
}

// RawKey returns the member key of node i as it is spelled in the source,
// without its quotes and undecoded (nil when i is not a member).
func (d *Doc) RawKey(i Node) []byte {
	s, e := d.KeySpan(i)
	if s < 0 {
		return nil
	}
	return d.Src[s+1 : e-1]
}

// ParentOf returns node i's parent, or NoNode for the root. Nodes
// do not store their parent: it is found by descending from the root, in
// time proportional to the depth and the siblings passed on the way. Code
// that walks a subtree in order should keep its own stack of parents.
func (d *Doc) ParentOf(i Node) Node {
	parent := NoNode
	d.descend(i, func(p, _ Node, _ int) { parent = p })
	return parent
}

// ParentWithin is ParentOf for a node known to lie in the subtree of root:
// the descent starts at root (NoNode when i is root or outside it).
func (d *Doc) ParentWithin(root, i Node) Node {
	if !d.Contains(root, i) || i == root {
		return NoNode
	}
	parent := NoNode
	d.descendFrom(root, i, func(p, _ Node, _ int) { parent = p })
	return parent
}

// Walk iterates over the subtree of node i in document order, i itself
// excluded, yielding each node with its parent. It keeps a stack of open
// containers, so a whole walk costs one step per node.
func (d *Doc) Walk(i Node) iter.Seq2[Node, Node] {
	return func(yield func(node, parent Node) bool) {
		if i == NoNode || int(i) >= len(d.Nodes) {
			return
		}
		stack := []Node{i}
		end := d.Nodes[i].Skip
		for c := i + 1; c < end; c++ {
			for d.Nodes[stack[len(stack)-1]].Skip <= c {
				stack = stack[:len(stack)-1]
			}
			if !yield(c, stack[len(stack)-1]) {
				return
			}
			if k := d.Nodes[c].Kind; k == Array || k == Object {
				stack = append(stack, c)
			}
		}
	}
}

// descend walks from the root down to node i, calling f for each ancestor p
// of i (root first) with the next node c on the path and its position k
// among p's children.
func (d *Doc) descend(i Node, f func(p, c Node, k int)) {
	d.descendFrom(0, i, f)
}

func (d *Doc) descendFrom(root, i Node, f func(p, c Node, k int)) {
	if i <= root || int(i) >= len(d.Nodes) || i >= d.Nodes[root].Skip {
		return
	}
	p := root
	for p != i {
		var c Node
		var k int
		if kids := d.children(p); kids != nil {
			// The last child that starts at or before i holds it.
			k = sort.Search(len(kids), func(j int) bool { return kids[j] > i }) - 1
			c = kids[k]
		} else {
			c = p + 1
			for d.Nodes[c].Skip <= i {
				c = d.Nodes[c].Skip
				k++
			}
		}
		f(p, c, k)
		p = c
	}
}

// manyChildren is the size from which a container's child list is kept.
const manyChildren = 64

// children returns the child nodes of container p when it has many (nil
// for a small one, which a walk over its children costs little). The list
// is made on first use and kept with the document.
func (d *Doc) children(p Node) []Node {
	n := &d.Nodes[p]
	if n.Kind != Array && n.Kind != Object || int(n.Skip)-int(p)-1 < manyChildren {
		return nil
	}
	d.kidsMu.Lock()
	defer d.kidsMu.Unlock()
	if kids, ok := d.kids[p]; ok {
		return kids
	}
	var kids []Node
	end := n.Skip
	for c := p + 1; c < end; c = d.Nodes[c].Skip {
		kids = append(kids, c)
	}
	if len(kids) < manyChildren {
		kids = nil
	}
	if d.kids == nil {
		d.kids = map[Node][]Node{}
	}
	d.kids[p] = kids
	return kids
}

// IsChild reports whether node c is a direct child of node p.
func (d *Doc) IsChild(p, c Node) bool {
	if p == NoNode || c <= p || c >= d.Nodes[p].Skip {
		return false
	}
	for x := p + 1; x <= c; x = d.Nodes[x].Skip {
		if x == c {
			return true
		}
	}
	return false
}

// Children iterates over the direct children of node i in document order.
func (d *Doc) Children(i Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if i == NoNode {
			return
		}
		end := d.Nodes[i].Skip
		for c := i + 1; c < end; c = d.Nodes[c].Skip {
			if !yield(c) {
				return
			}
		}
	}
}

// Len returns the number of direct children of node i.
func (d *Doc) Len(i Node) int {
	if i == NoNode {
		return 0
	}
	if kids := d.children(i); kids != nil {
		return len(kids)
	}
	n := 0
	end := d.Nodes[i].Skip
	for c := i + 1; c < end; c = d.Nodes[c].Skip {
		n++
	}
	return n
}

// Get returns the member value named key of object node i, or NoNode.
func (d *Doc) Get(i Node, key string) Node {
	if i == NoNode || d.Nodes[i].Kind != Object {
		return NoNode
	}
	end := d.Nodes[i].Skip
	for c := i + 1; c < end; c = d.Nodes[c].Skip {
		if d.keyIs(c, key) {
			return c
		}
	}
	return NoNode
}

// GetAny returns the first member of object node i named by one of keys, or
// NoNode. Keys are tried in the order given (for alternative spellings).
func (d *Doc) GetAny(i Node, keys ...string) Node {
	for _, k := range keys {
		if c := d.Get(i, k); c != NoNode {
			return c
		}
	}
	return NoNode
}

// GetStr returns the decoded string member key of object i, or "".
func (d *Doc) GetStr(i Node, key string) string {
	c := d.Get(i, key)
	if c == NoNode {
		return ""
	}
	return d.Str(c)
}

// Elem returns the n-th element of array node i, or NoNode.
func (d *Doc) Elem(i Node, n int) Node {
	if i == NoNode || d.Nodes[i].Kind != Array || n < 0 {
		return NoNode
	}
	if kids := d.children(i); kids != nil {
		if n >= len(kids) {
			return NoNode
		}
		return kids[n]
	}
	k := 0
	end := d.Nodes[i].Skip
	for c := i + 1; c < end; c = d.Nodes[c].Skip {
		if k == n {
			return c
		}
		k++
	}
	return NoNode
}

// Pointer returns the RFC 6901 JSON Pointer of node i ("" for the root).
func (d *Doc) Pointer(i Node) string {
	var b strings.Builder
	d.descend(i, func(p, c Node, k int) {
		b.WriteByte('/')
		if d.Nodes[p].Kind == Array {
			b.WriteString(strconv.Itoa(k))
		} else {
			b.WriteString(escapeToken(d.Key(c)))
		}
	})
	return b.String()
}

func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return tokenEscaper.Replace(s)
}

// PointerError reports a JSON Pointer that does not resolve.
type PointerError struct {
	Pointer string
	Msg     string
}

func (e *PointerError) Error() string { return fmt.Sprintf("pointer %q: %s", e.Pointer, e.Msg) }

// Lookup resolves an RFC 6901 JSON Pointer to a node.
func (d *Doc) Lookup(ptr string) (Node, error) {
	if ptr == "" {
		return 0, nil
	}
	if ptr[0] != '/' {
		return NoNode, &PointerError{ptr, "must be empty or start with '/'"}
	}
	var i Node
	rest := ptr[1:]
	for {
		tok := rest
		next := strings.IndexByte(rest, '/')
		if next >= 0 {
			tok = rest[:next]
		}
		if strings.Contains(tok, "~") {
			if bad := strings.ReplaceAll(strings.ReplaceAll(tok, "~0", ""), "~1", ""); strings.Contains(bad, "~") {
				return NoNode, &PointerError{ptr, "invalid '~' escape"}
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		switch d.Nodes[i].Kind {
		case Object:
			c := d.Get(i, tok)
			if c == NoNode {
				return NoNode, &PointerError{ptr, fmt.Sprintf("no member %q", tok)}
			}
			i = c
		case Array:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || (len(tok) > 1 && tok[0] == '0') {
				return NoNode, &PointerError{ptr, fmt.Sprintf("%q is not an array index", tok)}
			}
			c := d.Elem(i, n)
			if c == NoNode {
				return NoNode, &PointerError{ptr, fmt.Sprintf("index %d out of range", n)}
			}
			i = c
		default:
			return NoNode, &PointerError{ptr, fmt.Sprintf("cannot descend into a %s", d.Nodes[i].Kind)}
		}
		if next < 0 {
			return i, nil
		}
		rest = rest[next+1:]
	}
}

// Contains reports whether node j lies inside the subtree of node i
// (i itself included).
func (d *Doc) Contains(i, j Node) bool {
	return j >= i && j < d.Nodes[i].Skip
}

// RawOffset maps a byte offset into the decoded value of string node i to the
// corresponding byte offset in Src. off may equal the decoded length.
func (d *Doc) RawOffset(i Node, off int) int {
	n := &d.Nodes[i]
	start := int(n.Start) + 1
	if n.flags&flagEscaped == 0 {
		return start + off
	}
	body := d.Src[start : n.End-1]
	dec := 0
	var buf [8]byte
	for j := 0; j < len(body); {
		// Skip a run without escapes in one step.
		k := bytes.IndexByte(body[j:], '\\')
		if k < 0 {
			k = len(body) - j
		}
		if dec+k >= off {
			return start + j + (off - dec)
		}
		dec += k
		j += k
		if j >= len(body) {
			break
		}
		// Decode one escape (a surrogate pair counts as one) and advance by
		// the UTF-8 length it decodes to.
		w := 2
		if body[j+1] == 'u' {
			w = 6
			if j+12 <= len(body) && body[j+6] == '\\' && body[j+7] == 'u' {
				if out := appendUnescaped(buf[:0], body[j:j+12]); len(out) == 4 {
					w = 12
				}
			}
		}
		if dec >= off {
			return start + j
		}
		dec += len(appendUnescaped(buf[:0], body[j:j+w]))
		j += w
	}
	return start + len(body)
}

// Quote returns s as a JSON string token, escaping only what JSON requires
// (plus U+2028/U+2029, which some JavaScript consumers choke on). Unlike
// encoding/json it leaves '<', '>' and '&' alone.
func Quote(s string) []byte {
	return AppendQuote(make([]byte, 0, QuotedLen(s)), s)
}

// QuotedLen is len(Quote(s)), computed without writing the token.
func QuotedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c < 0x80 {
			switch c {
			case '"', '\\', '\n', '\r', '\t', '\b', '\f':
				n++
			default:
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd for one byte
		case r == '\u2028' || r == '\u2029':
			n += 6 - size
		}
		i += size
	}
	return n
}

// AppendQuote appends s as a JSON string token to dst.
func AppendQuote(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c < 0x80 {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Ancestors returns the nodes enclosing node i, from the root down (empty
// for the root itself).
func (d *Doc) Ancestors(i Node) []Node {
	var out []Node
	d.descend(i, func(p, _ Node, _ int) { out = append(out, p) })
	return out
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")
