package config

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/skillopt/skillopt/internal/suggest"
)

// The configuration is decoded from go-toml's parser tree by the code
// below rather than by toml.Unmarshal, for three reasons: every problem of
// a file is reported at once, in file order (not only the first one, and
// not in map order); type errors name the key, its line and the expected
// type; and the work is linear in the size of the file (the generic
// decoder's strict mode takes quadratic time in the number of keys of a
// table, minutes for a file of 100,000 unknown keys).

// maxReported bounds the errors printed for one file; the rest are
// counted.
const maxReported = 50

// Errors lists the problems of one configuration file in file order.
type Errors []*Error

// Error prints at most 50 problems, one per line, and counts the rest.
func (l Errors) Error() string { return strings.Join(l.Lines(), "\n") }

// Lines returns one line per problem: at most 50, then how many more there
// are.
func (l Errors) Lines() []string {
	var out []string
	for i, e := range l {
		if i == maxReported {
			out = append(out, fmt.Sprintf("%s: and %d more error(s)", e.File, len(l)-maxReported))
			break
		}
		out = append(out, e.Error())
	}
	return out
}

// Unwrap gives errors.As and errors.Is every problem.
func (l Errors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// source is what is kept of a decoded file to locate problems found after
// decoding (unknown rule IDs, unused suppressions).
type source struct {
	file  string
	data  []byte
	lines []int          // offset of the start of each line
	pos   map[string]int // dotted key ("measure.replay", "rules.pipeline[0]") → offset of its value or table header
}

// position turns a byte offset into a 1-based line and a column counted in
// code points.
func (s *source) position(off int) (line, col int) {
	if s.lines == nil {
		s.lines = []int{0}
		for i, b := range s.data {
			if b == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	off = min(max(off, 0), len(s.data))
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	return i + 1, utf8.RuneCount(s.data[s.lines[i]:off]) + 1
}

// locate returns the offset of key, or of its nearest ancestor found in
// the file, or -1.
func (s *source) locate(key string) int {
	if s == nil {
		return -1
	}
	for key != "" {
		if off, ok := s.pos[key]; ok {
			return off
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return -1
}

// problem is an error found in a file: key names the offending key,
// msg is the whole message (it names the key itself).
type problem struct {
	off int
	msg string
}

// problems collects errors and sorts them into file order.
type problems struct {
	src  *source
	list []problem
	// bad holds the keys whose values could not be decoded: checks of
	// their (default) values would only repeat the problem.
	bad map[string]bool
}

func (p *problems) add(off int, format string, args ...any) {
	p.list = append(p.list, problem{off, fmt.Sprintf(format, args...)})
}

// at reports msg at the position of key (or its nearest located ancestor).
func (p *problems) at(key, msg string) {
	if p.bad[key] {
		return
	}
	p.list = append(p.list, problem{p.src.locate(key), msg})
}

// err returns nil or the problems as Errors, in file order; problems
// without a position come last.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	sort.SliceStable(p.list, func(i, j int) bool {
		a, b := p.list[i], p.list[j]
		if (a.off < 0) != (b.off < 0) {
			return b.off < 0
		}
		if a.off != b.off {
			return a.off < b.off
		}
		return a.msg < b.msg
	})
	out := make(Errors, len(p.list))
	for i, pr := range p.list {
		e := &Error{File: p.src.file, Msg: pr.msg}
		if pr.off >= 0 {
			e.Line, e.Col = p.src.position(pr.off)
		}
		out[i] = e
	}
	return out
}

// keyName renders one part of a dotted key as TOML would: bare when it
// can be, quoted otherwise.
func keyName(part string) string {
	if part == "" {
		return `""`
	}
	for i := 0; i < len(part); i++ {
		c := part[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(part)
		}
	}
	return part
}

func join(parent, part string) string {
	if parent == "" {
		return keyName(part)
	}
	return parent + "." + keyName(part)
}

// How a key was defined, for TOML's rules on redefinition.
type defKind uint8

const (
	defValue  defKind = iota + 1 // key = value (inline tables included)
	defDotted                    // table made by a dotted key: a.b = 1 makes a
	defTable                     // table made by a [header], or implicitly by a longer one
	defArray                     // array of tables, [[header]]
)

func (k defKind) String() string {
	switch k {
	case defValue:
		return "a value"
	case defDotted:
		return "a table by dotted keys"
	case defTable:
		return "a table"
	}
	return "an array of tables"
}

// entry is a key seen in the file.
type entry struct {
	kind     defKind
	explicit bool // defTable: defined by its own header
	off      int
	name     string
	// v is where the key's value goes; invalid when the key is unknown or
	// mistyped (its problem is reported once, nothing below it is).
	v        reflect.Value
	children map[string]*entry
	elems    int    // defArray: elements so far
	elem     *entry // defArray: the table of the latest element
}

func (e *entry) child(part string) *entry {
	if e.children == nil {
		return nil
	}
	return e.children[part]
}

func (e *entry) add(part string, c *entry) {
	if e.children == nil {
		e.children = map[string]*entry{}
	}
	e.children[part] = c
}

type keyPart struct {
	name string
	off  int
	end  int
}

type decoder struct {
	problems
	// extra are tables declared by rules and families (see
	// rules.Binding.Targets): section name → pointer to a struct.
	extra  map[string]any
	data   []byte
	p      unstable.Parser
	root   *entry
	cur    *entry
	fields map[reflect.Type]map[string]int
}

// decode fills cfg (a pointer to a struct with toml tags) from data, and
// the tables of extra (section name → pointer to a struct) from theirs.
func decode(file string, data []byte, cfg any, extra map[string]any) (*source, *problems) {
	src := &source{file: file, data: data, pos: map[string]int{}}
	d := &decoder{problems: problems{src: src}, data: data, extra: extra, fields: map[reflect.Type]map[string]int{}}
	d.root = &entry{kind: defTable, explicit: true, v: reflect.ValueOf(cfg).Elem()}
	d.cur = d.root
	d.p.Reset(data)
	for d.p.NextExpression() {
		n := d.p.Expression()
		switch n.Kind {
		case unstable.Table:
			d.table(n, false)
		case unstable.ArrayTable:
			d.table(n, true)
		case unstable.KeyValue:
			d.keyval(d.cur, n)
		}
	}
	if err := d.p.Error(); err != nil {
		off := -1
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			off = d.offset(pe.Highlight)
		}
		d.add(off, "invalid TOML: %s", err.Error())
	}
	return src, &d.problems
}

// offset returns where b, a slice of the input, starts.
func (d *decoder) offset(b []byte) int {
	off := cap(d.data) - cap(b)
	if off < 0 || off > len(d.data) {
		return -1
	}
	return off
}

func (d *decoder) keyParts(it unstable.Iterator) []keyPart {
	var parts []keyPart
	for it.Next() {
		k := it.Node()
		off := int(k.Raw.Offset)
		parts = append(parts, keyPart{name: string(k.Data), off: off, end: off + int(k.Raw.Length)})
	}
	return parts
}

// line is the line of an offset, for messages that point back.
func (d *decoder) line(off int) int {
	l, _ := d.src.position(off)
	return l
}

// sink is where the keys of a table that could not be defined go: they are
// checked for duplicates among themselves and otherwise ignored.
func (d *decoder) sink() *entry { return &entry{kind: defTable, explicit: true} }

// table handles [a.b] and [[a.b]].
func (d *decoder) table(n *unstable.Node, array bool) {
	parts := d.keyParts(n.Key())
	if len(parts) == 0 {
		return
	}
	// The header's own position: its opening bracket.
	hdr := parts[0].off
	for hdr > 0 && (d.data[hdr-1] == ' ' || d.data[hdr-1] == '\t') {
		hdr--
	}
	for i := 0; i < 2 && hdr > 0 && d.data[hdr-1] == '['; i++ {
		hdr--
	}
	e := d.root
	for i, k := range parts {
		c := e.child(k.name)
		if i < len(parts)-1 {
			switch {
			case c == nil:
				c = d.newTable(e, k, defTable)
			case c.kind == defArray:
				c = c.elem
			case c.kind == defValue:
				d.add(k.off, "%s: already defined as a value on line %d, cannot hold a table", c.name, d.line(c.off))
				d.cur = d.sink()
				return
			}
			e = c
			continue
		}
		if array {
			switch {
			case c == nil:
				c = d.newTable(e, k, defArray)
			case c.kind != defArray:
				d.add(k.off, "%s: already defined as %s on line %d, cannot be an array of tables", c.name, c.kind, d.line(c.off))
				d.cur = d.sink()
				return
			}
			d.cur = d.appendElem(c, hdr)
			return
		}
		switch {
		case c == nil:
			c = d.newTable(e, k, defTable)
			c.explicit = true
			d.src.pos[c.name] = hdr
		case c.kind == defTable && !c.explicit:
			c.explicit = true
			c.off = k.off
			d.src.pos[c.name] = hdr
		case c.kind == defTable:
			d.add(k.off, "%s: table defined twice (first on line %d)", c.name, d.line(c.off))
			c = d.sink()
		default:
			d.add(k.off, "%s: already defined as %s on line %d", c.name, c.kind, d.line(c.off))
			c = d.sink()
		}
		d.cur = c
	}
}

// newTable defines part as a table (or array of tables) under e.
func (d *decoder) newTable(e *entry, k keyPart, kind defKind) *entry {
	c := &entry{kind: kind, off: k.off, name: join(e.name, k.name)}
	e.add(k.name, c)
	if _, ok := d.src.pos[c.name]; !ok {
		d.src.pos[c.name] = k.off
	}
	f := d.member(e, k, c.name)
	if !f.IsValid() {
		return c
	}
	switch {
	case kind == defArray && f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
		f.Set(reflect.MakeSlice(f.Type(), 0, 1))
	case kind != defArray && f.Kind() == reflect.Struct:
	case kind != defArray && f.Kind() == reflect.Map:
		if f.IsNil() {
			f.Set(reflect.MakeMap(f.Type()))
		}
		if e.v.Kind() == reflect.Map {
			// A table that is an entry of a map: the map shares it.
			e.v.SetMapIndex(reflect.ValueOf(k.name).Convert(e.v.Type().Key()), f)
		}
	default:
		got := "a table"
		if kind == defArray {
			got = "an array of tables"
		}
		d.add(k.off, "%s: want %s, got %s", c.name, describe(f.Type()), got)
		d.markBad(c.name)
		return c
	}
	c.v = f
	return c
}

// appendElem starts a new element of an array of tables.
func (d *decoder) appendElem(c *entry, hdr int) *entry {
	el := &entry{kind: defTable, explicit: true, off: hdr, name: fmt.Sprintf("%s[%d]", c.name, c.elems)}
	c.elems++
	d.src.pos[el.name] = hdr
	if c.v.IsValid() {
		c.v.Set(reflect.Append(c.v, reflect.Zero(c.v.Type().Elem())))
		el.v = c.v.Index(c.v.Len() - 1)
	}
	c.elem = el
	return el
}

// member returns where key part k of table e goes: a struct field, or a
// fresh value for a map entry (stored by the caller). Unknown keys are
// reported; keys below unknown or mistyped ones are not.
func (d *decoder) member(e *entry, k keyPart, name string) reflect.Value {
	v := e.v
	if !v.IsValid() {
		return reflect.Value{}
	}
	switch v.Kind() {
	case reflect.Struct:
		i, ok := d.field(v.Type(), k.name)
		if !ok {
			if t, ok := d.extra[k.name]; ok && e == d.root {
				return reflect.ValueOf(t).Elem()
			}
			d.add(k.off, "%s: unknown key%s", name, d.suggestKey(v.Type(), e == d.root, k.name))
			return reflect.Value{}
		}
		return v.Field(i)
	case reflect.Map:
		return reflect.New(v.Type().Elem()).Elem()
	}
	return reflect.Value{}
}

// field finds the struct field of a key: the one tagged with it, else one
// tagged with it in another case (as go-toml, which decoded configurations
// before, matched them).
func (d *decoder) field(t reflect.Type, key string) (int, bool) {
	m := d.fieldIndex(t)
	if i, ok := m[key]; ok {
		return i, true
	}
	for tag, i := range m {
		if strings.EqualFold(tag, key) {
			return i, true
		}
	}
	return 0, false
}

// suggestKey returns " (did you mean KEY?)" for the key of the table
// closest to an unknown one, when it is near enough to be a typo, else "".
func (d *decoder) suggestKey(t reflect.Type, root bool, key string) string {
	var keys []string
	for k := range d.fieldIndex(t) {
		keys = append(keys, k)
	}
	if root {
		for k := range d.extra {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	best := suggest.Closest(key, keys, min(max(1, utf8.RuneCountInString(key)/4), 3))
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", keyName(best))
}

func (d *decoder) fieldIndex(t reflect.Type) map[string]int {
	if m, ok := d.fields[t]; ok {
		return m
	}
	m := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("toml"), ",")[0]
		if f.IsExported() && tag != "" && tag != "-" {
			m[tag] = i
		}
	}
	d.fields[t] = m
	return m
}

// keyval handles key = value under table e (a table, or an inline table).
func (d *decoder) keyval(e *entry, n *unstable.Node) {
	parts := d.keyParts(n.Key())
	if len(parts) == 0 {
		return
	}
	for _, k := range parts[:len(parts)-1] {
		c := e.child(k.name)
		switch {
		case c == nil:
			c = d.newTable(e, k, defDotted)
		case c.kind != defDotted:
			d.add(k.off, "%s: already defined as %s on line %d", c.name, c.kind, d.line(c.off))
			return
		}
		e = c
	}
	k := parts[len(parts)-1]
	name := join(e.name, k.name)
	if c := e.child(k.name); c != nil {
		d.add(k.off, "%s: defined twice (first on line %d)", name, d.line(c.off))
		return
	}
	c := &entry{kind: defValue, off: k.off, name: name}
	e.add(k.name, c)
	// The value starts after the key, the blanks and '='.
	off := k.end
	for off < len(d.data) && (d.data[off] == ' ' || d.data[off] == '\t' || d.data[off] == '=') {
		off++
	}
	d.src.pos[name] = off
	f := d.member(e, k, name)
	if !f.IsValid() {
		d.value(reflect.Value{}, c, n.Value(), off)
		return
	}
	if d.value(f, c, n.Value(), off) && e.v.Kind() == reflect.Map {
		e.v.SetMapIndex(reflect.ValueOf(k.name).Convert(e.v.Type().Key()), f)
	}
}

// nodeOffset is where a value node starts. Arrays carry no position of
// their own: theirs is the bracket before their first element, or the
// caller's guess for an empty one.
func (d *decoder) nodeOffset(n *unstable.Node, guess int) int {
	if n.Kind != unstable.Array {
		return int(n.Raw.Offset)
	}
	first := n.Child()
	for first != nil && first.Kind == unstable.Comment {
		first = first.Next()
	}
	if first == nil {
		return guess
	}
	off := d.nodeOffset(first, -1)
	if off < 0 {
		return guess
	}
	for off > 0 && strings.IndexByte(" \t\r\n", d.data[off-1]) >= 0 {
		off--
	}
	if off > 0 && d.data[off-1] == '[' {
		return off - 1
	}
	return guess
}

// value decodes node n into dst and reports whether it did. An invalid dst
// (unknown key) only checks inline tables for duplicate keys.
func (d *decoder) value(dst reflect.Value, e *entry, n *unstable.Node, off int) bool {
	known := dst.IsValid()
	switch n.Kind {
	case unstable.Array:
		if !known || dst.Kind() == reflect.Slice {
			return d.array(dst, e, n, off)
		}
	case unstable.InlineTable:
		if !known || dst.Kind() == reflect.Struct || dst.Kind() == reflect.Map {
			if known && dst.Kind() == reflect.Map && dst.IsNil() {
				dst.Set(reflect.MakeMap(dst.Type()))
			}
			e.v = dst
			before := len(d.list)
			for it := n.Children(); it.Next(); {
				d.keyval(e, it.Node())
			}
			return known && len(d.list) == before
		}
	}
	if !known {
		return false
	}
	if ok, done := d.scalar(dst, e, n, off); done {
		return ok
	}
	d.add(off, "%s: want %s, got %s", e.name, describe(dst.Type()), got(n))
	d.markBad(e.name)
	return false
}

// array decodes array n into the slice dst (or only checks it when dst is
// invalid), naming each element by its index.
func (d *decoder) array(dst reflect.Value, e *entry, n *unstable.Node, off int) bool {
	known := dst.IsValid()
	var out reflect.Value
	if known {
		out = reflect.MakeSlice(dst.Type(), 0, 4)
	}
	ok := true
	i := 0
	prev := off + 1
	for it := n.Children(); it.Next(); i++ {
		el := it.Node()
		name := fmt.Sprintf("%s[%d]", e.name, i)
		eoff := d.nodeOffset(el, prev)
		d.src.pos[name] = eoff
		prev = eoff
		var v reflect.Value
		if known {
			v = reflect.New(dst.Type().Elem()).Elem()
		}
		if d.value(v, &entry{kind: defValue, off: eoff, name: name}, el, eoff) && known {
			out = reflect.Append(out, v)
		} else {
			ok = false
		}
	}
	if known && ok {
		dst.Set(out)
	}
	return known && ok
}

// scalar decodes a string, boolean or number into dst. done is false when
// the node's kind does not fit dst, for the caller to report.
func (d *decoder) scalar(dst reflect.Value, e *entry, n *unstable.Node, off int) (ok, done bool) {
	switch n.Kind {
	case unstable.String:
		if dst.Kind() == reflect.String {
			dst.SetString(string(n.Data))
			return true, true
		}
	case unstable.Bool:
		if dst.Kind() == reflect.Bool {
			dst.SetBool(string(n.Data) == "true")
			return true, true
		}
	case unstable.Integer:
		return d.integer(dst, e, n, off)
	case unstable.Float:
		if dst.Kind() == reflect.Float64 {
			dst.SetFloat(parseFloat(string(n.Data)))
			return true, true
		}
	}
	return false, false
}

// integer decodes an integer into an int or float field.
func (d *decoder) integer(dst reflect.Value, e *entry, n *unstable.Node, off int) (ok, done bool) {
	switch dst.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		i, err := strconv.ParseInt(string(n.Data), 0, 64)
		if err != nil || dst.OverflowInt(i) {
			d.add(off, "%s: integer %s is out of range", e.name, n.Data)
			d.markBad(e.name)
			return false, true
		}
		dst.SetInt(i)
		return true, true
	case reflect.Float64:
		i, err := strconv.ParseInt(string(n.Data), 0, 64)
		if err != nil {
			d.add(off, "%s: integer %s is out of range", e.name, n.Data)
			d.markBad(e.name)
			return false, true
		}
		dst.SetFloat(float64(i))
		return true, true
	}
	return false, false
}

func (d *decoder) markBad(key string) {
	if d.bad == nil {
		d.bad = map[string]bool{}
	}
	d.bad[key] = true
}

// parseFloat converts a float the parser accepted.
func parseFloat(s string) float64 {
	s = strings.ReplaceAll(s, "_", "")
	switch strings.TrimLeft(s, "+-") {
	case "inf":
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case "nan":
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// describe names a Go type as the TOML value it takes.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "an array of tables"
		}
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(describe(t.Elem()), "an "), "a ") + "s"
	case reflect.Map:
		return "a table of " + strings.TrimPrefix(strings.TrimPrefix(describe(t.Elem()), "an "), "a ") + "s"
	}
	return "a table"
}

// got describes a value found in the file.
func got(n *unstable.Node) string {
	switch n.Kind {
	case unstable.String:
		return "string " + short(strconv.Quote(string(n.Data)))
	case unstable.Integer:
		return "integer " + short(string(n.Data))
	case unstable.Float:
		return "float " + short(string(n.Data))
	case unstable.Bool:
		return "boolean " + string(n.Data)
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "an inline table"
	}
	return "date-time " + short(string(n.Data))
}

// short cuts s to about 40 bytes for messages.
func short(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
