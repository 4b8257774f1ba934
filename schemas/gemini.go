package schemas

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
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

// geminiView is a Gemini body normalised to the form the schema is written
// for, with what is needed to map locations back to the body as given.
type geminiView struct {
	orig   any      // the request as given (inside the wrapper, if any)
	prefix []string // location of orig in the body: ["request"] or none
	norm   any      // the normalised request
	errs   []Error  // problems found while normalising
	at     []string // location being normalised, in the body as given
}

// newGeminiView unwraps the Code Assist wrapper {model, project, request}
// and normalises the request. v is not modified.
func newGeminiView(v any) *geminiView {
	g := &geminiView{orig: v}
	if m, ok := v.(map[string]any); ok {
		if req, ok := m["request"].(map[string]any); ok {
			if _, direct := m["contents"]; !direct {
				g.orig, g.prefix = req, []string{"request"}
			}
		}
	}
	g.at = append(g.at, g.prefix...)
	g.norm = g.normalise(g.orig, false)
	g.at = nil
	return g
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

// normalise returns a normalised copy of v, which is at g.at in the body as
// given. opaque is true inside user-defined maps, which are kept as they are.
func (g *geminiView) normalise(v any, opaque bool) any {
	switch x := v.(type) {
	case map[string]any:
		if opaque {
			return x
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		from := make(map[string]string, len(x))
		for _, k := range keys {
			nk := geminiKey(k)
			if prev, dup := from[nk]; dup {
				// Both spellings given: the lowerCamelCase one is kept.
				loser, winner := k, prev
				if k == nk {
					loser, winner = prev, k
				}
				g.errs = append(g.errs, Error{
					Pointer: formatPointer(append(g.at, loser)),
					Message: fmt.Sprintf("%s duplicates %s", subject([]string{loser}), subject([]string{winner})),
				})
				if k != nk {
					continue
				}
			}
			from[nk] = k
			g.at = append(g.at, k)
			child := g.normalise(x[k], geminiOpaque[nk])
			g.at = g.at[:len(g.at)-1]
			if geminiRepeated[nk] {
				if m, ok := child.(map[string]any); ok {
					child = []any{m}
				}
			}
			out[nk] = child
		}
		return out
	case []any:
		if opaque {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			g.at = append(g.at, strconv.Itoa(i))
			out[i] = g.normalise(e, false)
			g.at = g.at[:len(g.at)-1]
		}
		return out
	}
	return v
}

// original maps a location in the normalised request to the body as given:
// renamed keys get their original spelling back and the index inserted for
// a wrapped single object is dropped.
func (g *geminiView) original(loc []string) []string {
	out := append([]string(nil), g.prefix...)
	cur, opaque := g.orig, false
	for i := 0; i < len(loc); i++ {
		t := loc[i]
		switch c := cur.(type) {
		case map[string]any:
			k, ok := t, false
			if _, ok = c[t]; !ok && !opaque {
				for ck := range c {
					if geminiKey(ck) == t {
						k, ok = ck, true
						break
					}
				}
			}
			if !ok {
				return append(out, loc[i:]...)
			}
			out = append(out, k)
			cur = c[k]
			if !opaque && geminiRepeated[t] && i+1 < len(loc) && loc[i+1] == "0" {
				if _, single := cur.(map[string]any); single {
					i++
				}
			}
			opaque = opaque || geminiOpaque[t]
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(c) {
				return append(out, loc[i:]...)
			}
			out = append(out, t)
			cur = c[n]
		default:
			return append(out, loc[i:]...)
		}
	}
	return out
}
