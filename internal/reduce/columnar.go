package reduce

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/skillopt/skillopt/capture"
)

// The columnar form of a homogeneous JSON array of objects is one object:
//
//	{"skillopt_columnar":1,"handle":"sko:…","columns":[K1,K2,…],
//	 "rows":[[V11,V12,…],[V21,V22,…],…],"absent":[[r,c],…]}
//
// columns lists every key in order of first appearance (as the key token
// was first written), rows lists the objects in order with their values in
// column order, and absent lists the [row, column] cells (0-based) whose key
// the object did not have; such a cell holds null in rows. Values are copied
// as their original tokens (strings with their escapes, numbers with their
// spelling: big integers, -0 and exponents survive); whitespace inside
// nested values is dropped. Decoding gives back the original array under
// JSON semantics; member order inside each object follows the columns. The
// handle, when present, names the exact original bytes in the archive.

// ColumnarKey is the member that marks the columnar form.
const ColumnarKey = "skillopt_columnar"

// Columnar returns the columnar form of text, a JSON array of at least two
// objects, or ok=false when the text is not such an array, when the array
// is heterogeneous (an element is not an object, or fewer than half of the
// cells would be present), when a string holds invalid Unicode (a lone
// surrogate escape), when a string value holds protected evidence (an
// error message, a stack frame, a file:line: evidence is kept as it was
// written, as by the line reducers), when the form is not smaller, or when
// it fails the exact round trip.
func Columnar(text, handle string) (string, bool) {
	trim := strings.TrimSpace(text)
	if len(trim) < 2 || trim[0] != '[' || !mayBeRecords(trim) {
		return "", false
	}
	d, err := capture.Parse([]byte(text))
	if err != nil || d.Kind(0) != capture.Array {
		return "", false
	}
	cs, ok := columnsOf(d, text)
	if !ok || badUnicode(d) || evidenceIn(d) {
		return "", false
	}
	out := cs.encode(d, text, handle)
	if len(out) >= len(text) {
		return "", false
	}
	// Accept only after an exact round trip that keeps every protected
	// evidence string verbatim.
	// Strings are compared as raw tokens, so every string of the
	// original, protected evidence included, is found verbatim in the form.
	dout, err := capture.Parse([]byte(out))
	if err != nil || !roundTrips(d, dout) {
		return "", false
	}
	return out, true
}

// columns are the keys of an array of objects, in order of first
// appearance. Columns are keyed by the key token as written, so every row
// keeps its own spelling of a key.
type columns struct {
	index  map[string]int
	tokens []string
}

// columnsOf returns the columns of the array at the root of d (text its
// source); ok is false when an element is not an object, the array has
// fewer than two, or fewer than half of the cells would be present.
func columnsOf(d *capture.Doc, text string) (columns, bool) {
	cs := columns{index: map[string]int{}}
	rows, present := 0, 0
	for el := range d.Children(0) {
		if d.Kind(el) != capture.Object {
			return cs, false
		}
		rows++
		for m := range d.Children(el) {
			ks, ke := d.KeySpan(m)
			if _, ok := cs.index[text[ks:ke]]; !ok {
				cs.index[text[ks:ke]] = len(cs.tokens)
				cs.tokens = append(cs.tokens, text[ks:ke])
			}
			present++
		}
	}
	cols := len(cs.tokens)
	return cs, rows >= 2 && cols > 0 && present*2 >= rows*cols
}

// encode writes the columnar form of the array at the root of d.
func (cs columns) encode(d *capture.Doc, text, handle string) string {
	var b strings.Builder
	b.Grow(len(text))
	b.WriteString(`{"` + ColumnarKey + `":1`)
	if handle != "" {
		b.WriteString(`,"handle":`)
		b.Write(capture.Quote(handle))
	}
	b.WriteString(`,"columns":[`)
	for i, k := range cs.tokens {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
	}
	b.WriteString(`],"rows":[`)
	absent := cs.writeRows(&b, d, text)
	b.WriteByte(']')
	if len(absent) > 0 {
		b.WriteString(`,"absent":[`)
		for i, a := range absent {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("[" + strconv.Itoa(a[0]) + "," + strconv.Itoa(a[1]) + "]")
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

// writeRows writes one array of cells per element, in column order, and
// returns the cells whose key the element did not have (null in rows).
func (cs columns) writeRows(b *strings.Builder, d *capture.Doc, text string) [][2]int {
	var absent [][2]int
	cells := make([]capture.Node, len(cs.tokens))
	r := 0
	for el := range d.Children(0) {
		for i := range cells {
			cells[i] = capture.NoNode
		}
		for m := range d.Children(el) {
			ks, ke := d.KeySpan(m)
			cells[cs.index[text[ks:ke]]] = m
		}
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for c, m := range cells {
			if c > 0 {
				b.WriteByte(',')
			}
			if m == capture.NoNode {
				b.WriteString("null")
				absent = append(absent, [2]int{r, c})
				continue
			}
			writeCompact(b, d.Raw(m))
		}
		b.WriteByte(']')
		r++
	}
	return absent
}

// mayBeRecords reports whether the array s (which starts with '[') has at
// least two elements, every one of which starts with '{', and a member in
// one of them, reading s as JSON without checking it. It turns away what
// Columnar would decline anyway before it is indexed: the index of a dense
// array costs 16 bytes a value, eight times the array.
func mayBeRecords(s string) bool {
	depth, elements := 0, 0
	element := false // the next value at depth 1 is an element
	member := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if element {
			if c != '{' {
				return false
			}
			elements++
		}
		element = false
		switch c {
		case '"':
			member = member || depth == 2
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			element = depth == 1
		case ']', '}':
			depth--
		case ',':
			element = depth == 1
		}
	}
	return elements >= 2 && member
}

// roundTrips reports whether the columnar form dout decodes to exactly the
// array d: it follows decodeDoc cell by cell, comparing each decoded member
// with the original's under JSON semantics instead of writing the decoded
// text out and parsing it again.
func roundTrips(d, dout *capture.Doc) bool {
	cols, rows := dout.Get(0, "columns"), dout.Get(0, "rows")
	var keys []string
	for c := range dout.Children(cols) {
		keys = append(keys, dout.Str(c))
	}
	absent := map[[2]int]bool{}
	for cell := range dout.Children(dout.Get(0, "absent")) {
		r, _ := strconv.Atoi(string(dout.Raw(dout.Elem(cell, 0))))
		c, _ := strconv.Atoi(string(dout.Raw(dout.Elem(cell, 1))))
		absent[[2]int{r, c}] = true
	}
	if dout.Len(rows) != d.Len(0) {
		return false
	}
	el := capture.Node(1) // the first element of the root array
	r := 0
	for row := range dout.Children(rows) {
		if dout.Len(row) != len(keys) {
			return false
		}
		members := 0
		c := 0
		for cell := range dout.Children(row) {
			if !absent[[2]int{r, c}] {
				members++
				m := d.Get(el, keys[c])
				if m == capture.NoNode || !equalRaw(d, m, dout, cell) {
					return false
				}
			}
			c++
		}
		if members != d.Len(el) {
			return false
		}
		el = d.Nodes[el].Skip
		r++
	}
	return true
}

// writeCompact copies one JSON value, dropping whitespace outside strings.
func writeCompact(b *strings.Builder, raw []byte) {
	inStr := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case ' ', '\t', '\n', '\r':
			b.Write(raw[start:i])
			start = i + 1
		}
	}
	b.Write(raw[start:])
}

// evidenceIn reports whether a string value of d (not a key) holds
// protected evidence.
func evidenceIn(d *capture.Doc) bool {
	for i := range capture.Node(len(d.Nodes)) {
		if d.Nodes[i].Kind == capture.String && classifyToken(d, i) != 0 {
			return true
		}
	}
	return false
}

// badUnicode reports whether a string or key of d holds a lone surrogate
// escape, which has no exact Unicode value.
func badUnicode(d *capture.Doc) bool {
	for i := range capture.Node(len(d.Nodes)) {
		n := &d.Nodes[i]
		if n.Kind == capture.String && capture.LoneSurrogate(d.Src[n.Start:n.End]) >= 0 {
			return true
		}
		if d.IsMember(i) && capture.LoneSurrogate(d.RawKey(i)) >= 0 {
			return true
		}
	}
	return false
}

// IsColumnar reports whether text is a columnar form.
func IsColumnar(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, `{"`+ColumnarKey+`":`)
}

// ColumnarHandle returns the handle member of a columnar form, or "".
func ColumnarHandle(text string) string {
	// The form Columnar writes names its handle first: read it without
	// indexing the rows.
	t := strings.TrimLeft(text, " \t\r\n")
	if rest, ok := strings.CutPrefix(t, `{"`+ColumnarKey+`":1,"handle":"`); ok {
		if i := strings.IndexAny(rest, `"\`); i >= 0 && rest[i] == '"' {
			return rest[:i]
		}
	}
	d, err := capture.Parse([]byte(text))
	if err != nil {
		return ""
	}
	return d.GetStr(0, "handle")
}

// DecodeColumnar returns the compact JSON array a columnar form stands for.
func DecodeColumnar(text string) (string, error) {
	d, err := capture.Parse([]byte(text))
	if err != nil {
		return "", fmt.Errorf("columnar form: %w", err)
	}
	return decodeDoc(d)
}

func decodeDoc(d *capture.Doc) (string, error) {
	if v := d.Get(0, ColumnarKey); d.Kind(v) != capture.Number || string(d.Raw(v)) != "1" {
		return "", errors.New("not a columnar form (version 1)")
	}
	cols, rows := d.Get(0, "columns"), d.Get(0, "rows")
	if d.Kind(cols) != capture.Array || d.Kind(rows) != capture.Array {
		return "", errors.New("columnar form: columns and rows must be arrays")
	}
	var keys [][]byte
	for c := range d.Children(cols) {
		if d.Kind(c) != capture.String {
			return "", errors.New("columnar form: a column is not a string")
		}
		keys = append(keys, d.Raw(c))
	}
	absent := map[[2]int]bool{}
	if a := d.Get(0, "absent"); a != capture.NoNode {
		for cell := range d.Children(a) {
			r, err1 := strconv.Atoi(string(d.Raw(d.Elem(cell, 0))))
			c, err2 := strconv.Atoi(string(d.Raw(d.Elem(cell, 1))))
			if err1 != nil || err2 != nil || d.Len(cell) != 2 {
				return "", errors.New("columnar form: an absent cell is not [row, column]")
			}
			absent[[2]int{r, c}] = true
		}
	}
	var b strings.Builder
	b.Grow(len(d.Src) * 2)
	b.WriteByte('[')
	r := 0
	for row := range d.Children(rows) {
		if d.Kind(row) != capture.Array || d.Len(row) != len(keys) {
			return "", fmt.Errorf("columnar form: row %d does not have %d cells", r, len(keys))
		}
		if r > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		c, first := 0, true
		for cell := range d.Children(row) {
			if !absent[[2]int{r, c}] {
				if !first {
					b.WriteByte(',')
				}
				first = false
				b.Write(keys[c])
				b.WriteByte(':')
				b.Write(d.Raw(cell))
			}
			c++
		}
		b.WriteByte('}')
		r++
	}
	b.WriteByte(']')
	return b.String(), nil
}

// EqualJSON reports whether two JSON texts are the same value: objects as
// unordered members (keys compared decoded), arrays in order, strings
// compared decoded, numbers compared by their exact spelling.
func EqualJSON(a, b string) (bool, error) {
	da, err := capture.Parse([]byte(a))
	if err != nil {
		return false, err
	}
	db, err := capture.Parse([]byte(b))
	if err != nil {
		return false, err
	}
	return equalNode(da, 0, db, 0), nil
}

func equalNode(da *capture.Doc, i capture.Node, db *capture.Doc, j capture.Node) bool {
	k := da.Kind(i)
	if k != db.Kind(j) {
		return false
	}
	switch k {
	case capture.Number:
		return string(da.Raw(i)) == string(db.Raw(j))
	case capture.String:
		return da.Str(i) == db.Str(j)
	case capture.Array:
		if da.Len(i) != db.Len(j) {
			return false
		}
		cj := j + 1
		for ci := range da.Children(i) {
			if !equalNode(da, ci, db, cj) {
				return false
			}
			cj = db.Nodes[cj].Skip
		}
		return true
	case capture.Object:
		if da.Len(i) != db.Len(j) {
			return false
		}
		for ci := range da.Children(i) {
			cj := db.Get(j, da.Key(ci))
			if cj == capture.NoNode || !equalNode(da, ci, db, cj) {
				return false
			}
		}
		return true
	}
	return true // null, true, false: the kinds matched
}

// equalRaw is equalNode with strings compared as raw tokens: the same
// value spelled with the same escapes.
func equalRaw(da *capture.Doc, i capture.Node, db *capture.Doc, j capture.Node) bool {
	k := da.Kind(i)
	if k != db.Kind(j) {
		return false
	}
	switch k {
	case capture.Number, capture.String:
		return bytes.Equal(da.Raw(i), db.Raw(j))
	case capture.Array:
		if da.Len(i) != db.Len(j) {
			return false
		}
		cj := j + 1
		for ci := range da.Children(i) {
			if !equalRaw(da, ci, db, cj) {
				return false
			}
			cj = db.Nodes[cj].Skip
		}
		return true
	case capture.Object:
		if da.Len(i) != db.Len(j) {
			return false
		}
		cj := j + 1
		for ci := range da.Children(i) {
			// writeCompact keeps member order and key spelling.
			if !bytes.Equal(da.RawKey(ci), db.RawKey(cj)) || !equalRaw(da, ci, db, cj) {
				return false
			}
			cj = db.Nodes[cj].Skip
		}
		return true
	}
	return true
}

// ColumnarEvidence returns the raw tokens of the strings (values and keys)
// of a JSON text that are protected evidence: any reduction of the text
// must contain each verbatim. It is empty for text that is not JSON.
func ColumnarEvidence(text string) []string {
	d, err := capture.Parse([]byte(text))
	if err != nil {
		return nil
	}
	return evidenceOfDoc(d)
}

func evidenceOfDoc(d *capture.Doc) []string {
	var out []string
	for i := range capture.Node(len(d.Nodes)) {
		n := &d.Nodes[i]
		if n.Kind == capture.String && classifyToken(d, i) != 0 {
			out = append(out, string(d.Raw(i)))
		}
		if ks, ke := d.KeySpan(i); ks >= 0 {
			if k := d.Key(i); classify(k) != 0 {
				out = append(out, string(d.Src[ks:ke]))
			}
		}
	}
	return distinct(out)
}

// MissingTokens returns the evidence tokens that are not string tokens of
// the JSON text out (or, when out is not JSON, not substrings of it).
func MissingTokens(tokens []string, out string) []string {
	if len(tokens) == 0 {
		return nil
	}
	d, _ := capture.Parse([]byte(out))
	return missingTokens(tokens, d, out)
}

func missingTokens(tokens []string, d *capture.Doc, out string) []string {
	if len(tokens) == 0 {
		return nil
	}
	have := map[string]bool{}
	if d != nil {
		for i := range capture.Node(len(d.Nodes)) {
			n := &d.Nodes[i]
			if n.Kind == capture.String {
				have[string(d.Raw(i))] = true
			}
			if ks, ke := d.KeySpan(i); ks >= 0 {
				have[string(d.Src[ks:ke])] = true
			}
		}
	}
	var miss []string
	for _, t := range tokens {
		if !have[t] && !strings.Contains(out, t) {
			miss = append(miss, t)
		}
	}
	sort.Strings(miss)
	return miss
}

// classifyToken classifies the decoded value of string node i; a token
// without escapes is classified in place, without a copy.
func classifyToken(d *capture.Doc, i capture.Node) int {
	raw := d.Raw(i)
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if len(inner) == 0 {
			return 0
		}
		// The bytes are not modified while classify reads them.
		return classify(unsafe.String(&inner[0], len(inner)))
	}
	return classify(d.Str(i))
}
