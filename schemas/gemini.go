package schemas

import (
	"fmt"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// geminiOpaque lists the (lowerCamelCase) keys whose values are user-defined
// maps or schemas: their keys are never renamed and nothing inside them is
// wrapped.
var geminiOpaque = map[string]bool{
	"args":                 true,
	"response":             true,
	"parameters":           true,
	"parametersJsonSchema": true,
	"responseSchema":       true,
	"responseJsonSchema":   true,
	"labels":               true,
	"properties":           true,
	"partMetadata":         true,
}

// geminiRepeated lists the (lowerCamelCase) keys of repeated fields for which
// a single object is accepted in place of a one-element array.
var geminiRepeated = map[string]bool{
	"contents":             true,
	"parts":                true,
	"tools":                true,
	"functionDeclarations": true,
}

// geminiKey returns the lowerCamelCase spelling of a snake_case key. Keys
// without an underscore, or starting with one, are returned unchanged.
func geminiKey(k string) string {
	if !strings.Contains(k, "_") || strings.HasPrefix(k, "_") {
		return k
	}
	parts := strings.Split(k, "_")
	var b strings.Builder
	b.Grow(len(k))
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		if p == "" {
			continue
		}
		if c := p[0]; c >= 'a' && c <= 'z' {
			b.WriteByte(c - 'a' + 'A')
			b.WriteString(p[1:])
		} else {
			b.WriteString(p)
		}
	}
	return b.String()
}

// geminiDuplicates reports members that give both spellings of one key
// (snake_case and lowerCamelCase), as Google's parser would: the
// lowerCamelCase one is kept. Inside user-defined maps keys are left alone.
func (e *evaluator) geminiDuplicates(v vnode, out []Error) []Error {
	d := e.d
	switch d.Kind(v.i) {
	case capture.Object:
		if v.opaque {
			return out
		}
		for c := range d.Children(v.i) {
			k := d.Key(c)
			if nk := geminiKey(k); nk != k {
				if winner := e.winner(v.i, c, nk); winner != c {
					ks, _ := d.KeySpan(c)
					out = append(out, Error{
						Pointer: d.Pointer(c),
						Offset:  ks,
						Message: fmt.Sprintf("%s duplicates %s", subject([]string{k}), subject([]string{d.Key(winner)})),
					})
					continue
				}
			}
			out = e.geminiDuplicates(vnode{i: c, opaque: geminiOpaque[geminiKey(k)]}, out)
		}
	case capture.Array:
		if v.opaque {
			return out
		}
		for c := range d.Children(v.i) {
			out = e.geminiDuplicates(vnode{i: c}, out)
		}
	}
	return out
}

// winner returns the member of object obj that a Gemini parser keeps among
// those whose keys normalise to nk: the one spelt nk, else the first in key
// order. member is one of them.
func (e *evaluator) winner(obj capture.Node, member capture.Node, nk string) capture.Node {
	d := e.d
	if w := d.Get(obj, nk); w != capture.NoNode {
		return w
	}
	best, bestKey := member, d.Key(member)
	for c := range d.Children(obj) {
		if k := d.Key(c); c != member && geminiKey(k) == nk && k < bestKey {
			best, bestKey = c, k
		}
	}
	return best
}
