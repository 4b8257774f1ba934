package capture

import (
	"sort"
	"strings"
)

// fix replaces span of a document (or file) with repl on output.
type fix struct {
	span [2]int
	repl []byte
}

// applyFixes returns src with the fixes spliced in. Fixes may come in any
// order; one that overlaps an earlier one is dropped.
func applyFixes(src []byte, fixes []fix) []byte {
	fs := append([]fix(nil), fixes...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].span[0] < fs[j].span[0] })
	// The result's size first: a transform's output is often a fraction of
	// its input, and a buffer of the input's size would be mostly waste.
	size, prev := len(src), 0
	for _, f := range fs {
		if f.span[0] >= prev {
			size += len(f.repl) - (f.span[1] - f.span[0])
			prev = f.span[1]
		}
	}
	out := make([]byte, 0, size)
	prev = 0
	for _, f := range fs {
		if f.span[0] < prev {
			continue
		}
		out = append(out, src[prev:f.span[0]]...)
		out = append(out, f.repl...)
		prev = f.span[1]
	}
	return append(out, src[prev:]...)
}

type walkMode uint8

const (
	modePlain   walkMode = iota // names decide; strings go through the text redactor
	modeSecret                  // under a secret name: every string and number is secret
	modeCookies                 // under "cookies": every cookie value is secret
)

// walker redacts a document outside the body. An envelope is walked by
// its shape (see envelope.go): values under names keep does not keep are
// replaced whole, and the strings of known fields go through the text
// redactor. JSON text found in a string is walked by names (walk): values
// under a secret name are replaced whole (strings and numbers, inside
// arrays and objects too); {name|key, value} objects and [name, value]
// pairs are judged by their name; cookies are always secret; every other
// string and member key goes through the text redactor.
type walker struct {
	d     *Doc
	depth int               // nesting of JSON text inside strings
	keep  *Keep             // names kept in an envelope; nil in free text
	skip  func(i Node) bool // nodes left alone (the body)
	fixes []fix             // in d.Src coordinates
	strs  map[Node]string   // redacted value of a string or number node
	keys  map[Node]string   // redacted key of a member node
}

func newWalker(d *Doc, depth int, keep *Keep) *walker {
	return &walker{d: d, depth: depth, keep: keep}
}

func (w *walker) set(i Node, s string) {
	n := &w.d.Nodes[i]
	w.fixes = append(w.fixes, fix{[2]int{int(n.Start), int(n.End)}, Quote(s)})
	if w.strs == nil {
		w.strs = map[Node]string{}
	}
	w.strs[i] = s
}

func (w *walker) secret(i Node) {
	d := w.d
	if d.Kind(i) == String && (d.StrIs(i, Redacted) || d.StrIs(i, "")) {
		return
	}
	w.set(i, Redacted)
}

func (w *walker) walk(i Node, mode walkMode) {
	if i == NoNode || w.skip != nil && w.skip(i) {
		return
	}
	d := w.d
	switch d.Kind(i) {
	case String:
		if mode != modePlain {
			w.secret(i)
		} else if t, ok := redactText(d.Str(i), w.depth, w.keep); ok {
			w.set(i, t)
		}
	case Number:
		if mode != modePlain {
			w.secret(i)
		}
	case Array:
		if mode == modePlain && d.Len(i) == 2 {
			// A [name, value] pair.
			var pair [2]Node
			k := 0
			for e := range d.Children(i) {
				pair[k] = e
				k++
			}
			if d.Kind(pair[0]) == String && IsSecretName(d.Str(pair[0])) {
				w.walk(pair[1], modeSecret)
				return
			}
		}
		for e := range d.Children(i) {
			w.walk(e, mode)
		}
	case Object:
		w.object(i, mode)
	}
}

func (w *walker) object(i Node, mode walkMode) {
	d := w.d
	name, value := NoNode, NoNode
	if v := d.Get(i, "value"); v != NoNode {
		if n := d.GetAny(i, "name", "key"); d.Kind(n) == String {
			name, value = n, v
		}
	}
	for m := range d.Children(i) {
		if w.skip != nil && w.skip(m) {
			continue
		}
		k := d.Key(m)
		w.key(m, k)
		sub := modePlain
		switch {
		case mode == modeSecret:
			sub = modeSecret
		case m == value:
			if mode == modeCookies || IsSecretName(d.Str(name)) {
				sub = modeSecret
			}
		case m == name:
			// the name of a {name, value} pair, not a secret itself
		case mode == modeCookies && value == NoNode:
			sub = modeSecret // a map of cookie names to values
		case normName(k) == "cookies":
			sub = modeCookies
		case IsSecretName(k):
			sub = modeSecret
		}
		w.walk(m, sub)
	}
}

// key runs member m's key k through the text redactor.
func (w *walker) key(m Node, k string) {
	t, ok := redactText(k, w.depth, w.keep)
	if !ok {
		return
	}
	s, e := w.d.KeySpan(m)
	w.fixes = append(w.fixes, fix{[2]int{s, e}, Quote(t)})
	if w.keys == nil {
		w.keys = map[Node]string{}
	}
	w.keys[m] = t
}

// str returns the redacted value of string node i.
func (w *walker) str(i Node) string {
	if t, ok := w.strs[i]; ok {
		return t
	}
	return w.d.Str(i)
}

// keyOf returns the redacted key of member node m.
func (w *walker) keyOf(m Node) string {
	if t, ok := w.keys[m]; ok {
		return t
	}
	return w.d.Key(m)
}

// raw returns the JSON of node i with the walker's fixes applied.
func (w *walker) raw(i Node) []byte {
	n := &w.d.Nodes[i]
	start, end := int(n.Start), int(n.End)
	var in []fix
	for _, f := range w.fixes {
		if f.span[0] >= start && f.span[1] <= end {
			in = append(in, fix{[2]int{f.span[0] - start, f.span[1] - start}, f.repl})
		}
	}
	if len(in) == 0 {
		return w.d.Raw(i)
	}
	return applyFixes(w.d.Raw(i), in)
}

// text returns a header or URL value as text: strings decoded, lists joined
// with ", ", anything else as its JSON.
func (w *walker) text(i Node) string {
	if t, ok := w.strs[i]; ok {
		return t
	}
	switch w.d.Kind(i) {
	case String:
		return w.str(i)
	case Array:
		var parts []string
		for e := range w.d.Children(i) {
			parts = append(parts, w.text(e))
		}
		return strings.Join(parts, ", ")
	case None:
		return ""
	}
	return string(w.raw(i))
}

// url returns the redacted URL held by node u: a string, or an object
// with a raw or href member (Postman, WHATWG URL objects).
func (w *walker) url(u Node) string {
	d := w.d
	switch d.Kind(u) {
	case String:
		return w.str(u)
	case Object:
		if v := d.GetAny(u, "raw", "href", "url"); d.Kind(v) == String {
			return w.str(v)
		}
	}
	return ""
}

// headers reads the headers held by node h, in any of the shapes captures
// use: an object of strings, lists or nested groups (axios' common, post);
// a list of {name|key, value} objects, of [name, value] pairs or of
// "Name: value" lines; or one string of such lines.
func (w *walker) headers(h Node) []Header {
	var out []Header
	w.addHeaders(&out, h, 0)
	return out
}

func (w *walker) addHeaders(out *[]Header, h Node, depth int) {
	d := w.d
	add := func(name, value string) {
		if value != "" && !w.keep.Keeps(name) {
			value = Redacted
		}
		*out = append(*out, Header{Name: name, Value: value})
	}
	switch d.Kind(h) {
	case Object:
		for m := range d.Children(h) {
			if isHeaderGroup(d, m, depth) {
				w.addHeaders(out, m, depth+1)
				continue
			}
			add(w.keyOf(m), w.text(m))
		}
	case Array:
		for e := range d.Children(h) {
			switch d.Kind(e) {
			case Object:
				if n, v := d.GetAny(e, "name", "key"), d.Get(e, "value"); d.Kind(n) == String && v != NoNode {
					add(w.str(n), w.text(v))
				}
			case Array:
				var pair []Node
				for x := range d.Children(e) {
					pair = append(pair, x)
				}
				if len(pair) >= 2 && d.Kind(pair[0]) == String {
					add(w.str(pair[0]), w.text(pair[1]))
				}
			case String:
				headerLines(w.str(e), add)
			}
		}
	case String:
		headerLines(w.str(h), add)
	}
}

// headerLines reads "Name: value" lines, skipping request and status lines.
func headerLines(s string, add func(name, value string)) {
	for line := range strings.Lines(s) {
		name, value, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
		name = strings.Trim(name, " \t")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		add(name, strings.Trim(value, " \t"))
	}
}

// strOnly returns the redacted value of node i when it is a string, else "".
func (w *walker) strOnly(i Node) string {
	if w.d.Kind(i) != String {
		return ""
	}
	return w.str(i)
}
