package schemas

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
)

// The validator evaluates compiled schemas (compile.go) directly over
// capture's span index: there is one JSON reader in the program, no second
// tree of the document is built, strings are decoded only where a keyword
// needs their value, and numbers are compared as decimals in time linear in
// their spelling.

// loc is a location in the validated view of a document: a node of the
// index, or the single element of an object that a Gemini repeated field
// shows as a one-element array.
type loc struct {
	node capture.Node
	elem bool
}

// vnode is a value of the validated view.
type vnode struct {
	i      capture.Node
	wrap   bool // an object seen as a one-element array holding it
	elem   bool // the element of such an array
	opaque bool // Gemini: inside a user-defined map, kept as given
}

func (v vnode) loc() loc { return loc{v.i, v.elem} }

// evaluator applies schemas to one document.
type evaluator struct {
	d      *capture.Doc
	gemini bool // Gemini key spellings and repeated fields are normalised
	// budget, when positive, bounds the schema applications; once spent,
	// the rest of the value is not checked. Only tests of arbitrary
	// schemas set it (alternatives that all descend into the same value
	// cost time exponential in its depth; the embedded schemas have none).
	budget int
}

func (e *evaluator) kind(v vnode) capture.Kind {
	if v.wrap {
		return capture.Array
	}
	return e.d.Kind(v.i)
}

// member is one object member of the view.
type member struct {
	key   string
	value vnode
}

// members returns the members of object v, under their view names. A
// Gemini object giving both spellings of a key keeps the lowerCamelCase one
// (the other is reported by geminiDuplicates).
func (e *evaluator) members(v vnode, buf []member) []member {
	d := e.d
	norm := e.gemini && !v.opaque
	for c := range d.Children(v.i) {
		k := d.KeyView(c)
		child := vnode{i: c, opaque: v.opaque}
		if norm {
			nk := geminiKey(k)
			if nk != k && e.winner(v.i, c, nk) != c {
				continue
			}
			k = nk
			child.opaque = geminiOpaque[nk]
			child.wrap = geminiRepeated[nk] && d.Kind(c) == capture.Object
		}
		buf = append(buf, member{k, child})
	}
	return buf
}

// has reports whether object v has a member named key in the view.
func (e *evaluator) has(v vnode, key string) bool {
	d := e.d
	if d.Get(v.i, key) != capture.NoNode {
		return true
	}
	if !e.gemini || v.opaque {
		return false
	}
	for c := range d.Children(v.i) {
		if geminiKey(d.KeyView(c)) == key {
			return true
		}
	}
	return false
}

// elements calls f for each element of array v.
func (e *evaluator) elements(v vnode, f func(k int, el vnode)) {
	if v.wrap {
		f(0, vnode{i: v.i, elem: true, opaque: v.opaque})
		return
	}
	k := 0
	for c := range e.d.Children(v.i) {
		f(k, vnode{i: c, opaque: v.opaque})
		k++
	}
}

func (e *evaluator) length(v vnode) int {
	if v.wrap {
		return 1
	}
	return e.d.Len(v.i)
}

// eval returns the failures of v against s, nil when v is valid. The
// keywords on v itself come first, then those of its type's family; each
// group a schema lacks costs one test here, not a call (this is the
// validator's inner loop).
func (e *evaluator) eval(s *schema, v vnode) []leaf {
	if e.budget > 0 {
		if e.budget == 1 {
			return nil
		}
		e.budget--
	}
	if s.always != nil {
		if *s.always {
			return nil
		}
		return []leaf{{at: v.loc(), keyword: "false"}}
	}
	var out []leaf
	if s.ref != nil {
		out = e.eval(s.ref, v)
	}
	kind := e.kind(v)
	if len(s.types) > 0 && !e.typeOK(s.types, v, kind) {
		return append(out, leaf{at: v.loc(), keyword: "type", arg: s.types})
	}
	if s.constant != nil || s.enum != nil {
		out = e.values(s, v, out)
	}
	if s.not != nil && e.eval(s.not, v) == nil {
		out = append(out, leaf{at: v.loc(), keyword: "not"})
	}
	for _, sub := range s.allOf {
		out = append(out, e.eval(sub, v)...)
	}
	if len(s.anyOf) > 0 {
		out = e.anyOf(s, v, kind, out)
	}
	if len(s.oneOf) > 0 {
		out = e.oneOf(s, v, out)
	}
	if s.ifS != nil {
		out = e.conditional(s, v, out)
	}
	switch kind {
	case capture.Object:
		out = e.object(s, v, out)
	case capture.Array:
		out = e.array(s, v, out)
	case capture.String:
		out = e.str(s, v, out)
	case capture.Number:
		out = e.number(s, v, out)
	}
	return out
}

// values applies const and enum: v must equal the constant, and one of
// the enum's values.
func (e *evaluator) values(s *schema, v vnode, out []leaf) []leaf {
	if s.constant != nil && !e.equal(v, s.constant[0]) {
		out = append(out, leaf{at: v.loc(), keyword: "const", arg: s.constant[0]})
	}
	if s.enum != nil {
		ok := false
		for _, x := range s.enum {
			if e.equal(v, x) {
				ok = true
				break
			}
		}
		if !ok {
			out = append(out, leaf{at: v.loc(), keyword: "enum", arg: s.enum})
		}
	}
	return out
}

// anyOf applies s's anyOf: nothing when one alternative accepts v, else the
// failures of the alternative v most likely meant. Alternatives told apart
// by one member are narrowed to those its value selects first (not under
// Gemini's normalised view, where the member may be spelled otherwise).
func (e *evaluator) anyOf(s *schema, v vnode, kind capture.Kind, out []leaf) []leaf {
	if s.disc != nil && kind == capture.Object && !e.gemini {
		return append(out, e.discriminated(s, v)...)
	}
	var branches [][]leaf
	for _, sub := range s.anyOf {
		ls := e.eval(sub, v)
		if ls == nil {
			return out
		}
		branches = append(branches, ls)
	}
	return append(out, e.pickBranch(branches, v.loc())...)
}

// oneOf applies s's oneOf: exactly one alternative must accept v. With none,
// the failures of the likeliest alternative are reported; with several, the
// oneOf itself.
func (e *evaluator) oneOf(s *schema, v vnode, out []leaf) []leaf {
	var branches [][]leaf
	matched := 0
	for _, sub := range s.oneOf {
		ls := e.eval(sub, v)
		if ls == nil {
			matched++
		} else {
			branches = append(branches, ls)
		}
	}
	switch {
	case matched == 0:
		out = append(out, e.pickBranch(branches, v.loc())...)
	case matched > 1:
		out = append(out, leaf{at: v.loc(), keyword: "oneOf"})
	}
	return out
}

// conditional applies if/then/else: then when v passes if, else otherwise.
// The failures of if itself are never reported.
func (e *evaluator) conditional(s *schema, v vnode, out []leaf) []leaf {
	if e.eval(s.ifS, v) == nil {
		if s.thenS != nil {
			out = append(out, e.eval(s.thenS, v)...)
		}
	} else if s.elseS != nil {
		out = append(out, e.eval(s.elseS, v)...)
	}
	return out
}

// discriminated evaluates an anyOf whose alternatives are told apart by one
// member of object v: only the alternatives accepting the member's value
// are tried, so that a failure is reported inside the alternative the value
// meant, and a value no alternative accepts is reported at the member.
func (e *evaluator) discriminated(s *schema, v vnode) []leaf {
	dc := s.disc
	m := e.d.Get(v.i, dc.key)
	var cands []int
	switch {
	case m == capture.NoNode:
		cands = dc.absent
		if len(cands) == 0 {
			return []leaf{{at: v.loc(), keyword: "required", arg: dc.key}}
		}
	case e.d.Kind(m) == capture.String:
		cands = union(dc.byVal[e.d.Str(m)], dc.free)
		if len(cands) == 0 {
			return []leaf{{at: loc{node: m}, keyword: "enum", arg: dc.values}}
		}
	case e.d.Kind(m) == capture.Null:
		cands = union(dc.null, dc.free)
		if len(cands) == 0 {
			return []leaf{{at: loc{node: m}, keyword: "type", arg: []string{"string"}}}
		}
	case len(dc.free) == 0:
		// Every alternative wants a listed string (or null).
		types := []string{"string"}
		if len(dc.null) > 0 {
			types = append(types, "null")
		}
		return []leaf{{at: loc{node: m}, keyword: "type", arg: types}}
	default:
		cands = dc.all
	}
	branches := make([][]leaf, 0, len(cands))
	for _, n := range cands {
		ls := e.eval(s.anyOf[n], v)
		if ls == nil {
			return nil
		}
		branches = append(branches, ls)
	}
	return e.pickBranch(branches, v.loc())
}

// union merges two ascending lists of alternative numbers.
func union(a, b []int) []int {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func (e *evaluator) object(s *schema, v vnode, out []leaf) []leaf {
	for _, r := range s.required {
		if !e.has(v, r) {
			out = append(out, leaf{at: v.loc(), keyword: "required", arg: r})
		}
	}
	if !s.hasObjectMemberChecks {
		return out
	}
	var buf [16]member
	ms := e.members(v, buf[:0])
	if s.minProps >= 0 && len(ms) < s.minProps {
		out = append(out, leaf{at: v.loc(), keyword: "minProperties", arg: s.minProps})
	}
	if s.maxProps >= 0 && len(ms) > s.maxProps {
		out = append(out, leaf{at: v.loc(), keyword: "maxProperties", arg: s.maxProps})
	}
	for _, m := range ms {
		if s.propertyNames != nil {
			for _, l := range e.keyLeaves(s.propertyNames, m.key) {
				l.at = m.value.loc()
				out = append(out, l)
			}
		}
		matched := false
		if ps, ok := s.properties[m.key]; ok {
			matched = true
			out = append(out, e.eval(ps, m.value)...)
		}
		for _, pp := range s.patternProperties {
			if pp.re.MatchString(m.key) {
				matched = true
				out = append(out, e.eval(pp.s, m.value)...)
			}
		}
		if matched || s.additional == nil {
			continue
		}
		if s.additional.always != nil && !*s.additional.always {
			out = append(out, leaf{at: m.value.loc(), keyword: "additionalProperties", arg: m.key})
			continue
		}
		out = append(out, e.eval(s.additional, m.value)...)
	}
	return out
}

// keyLeaves applies a propertyNames schema to a member name; only the string
// keywords apply (a name is a string).
func (e *evaluator) keyLeaves(s *schema, key string) []leaf {
	var out []leaf
	for s != nil {
		n := utf8.RuneCountInString(key)
		if s.minLength >= 0 && n < s.minLength {
			out = append(out, leaf{keyword: "keyMinLength", arg: s.minLength})
		}
		if s.maxLength >= 0 && n > s.maxLength {
			out = append(out, leaf{keyword: "keyMaxLength", arg: s.maxLength})
		}
		if s.pattern != nil && !s.pattern.MatchString(key) {
			out = append(out, leaf{keyword: "keyPattern", arg: s.pattern.String()})
		}
		s = s.ref
	}
	return out
}

func (e *evaluator) array(s *schema, v vnode, out []leaf) []leaf {
	n := e.length(v)
	if s.minItems >= 0 && n < s.minItems {
		out = append(out, leaf{at: v.loc(), keyword: "minItems", arg: s.minItems})
	}
	if s.maxItems >= 0 && n > s.maxItems {
		out = append(out, leaf{at: v.loc(), keyword: "maxItems", arg: s.maxItems})
	}
	if len(s.prefixItems) > 0 || s.items != nil {
		e.elements(v, func(k int, el vnode) {
			switch {
			case k < len(s.prefixItems):
				out = append(out, e.evalElem(s.prefixItems[k], el)...)
			case s.items != nil:
				out = append(out, e.evalElem(s.items, el)...)
			}
		})
	}
	if s.contains != nil {
		found := 0
		e.elements(v, func(_ int, el vnode) {
			if e.eval(s.contains, el) == nil {
				found++
			}
		})
		if found < s.minContains || (s.maxContains >= 0 && found > s.maxContains) {
			out = append(out, leaf{at: v.loc(), keyword: "contains"})
		}
	}
	if s.uniqueItems {
		seen := make(map[string]int, n)
		e.elements(v, func(k int, el vnode) {
			key := e.canonical(el)
			if _, dup := seen[key]; dup {
				out = append(out, leaf{at: el.loc(), keyword: "uniqueItems"})
				return
			}
			seen[key] = k
		})
	}
	return out
}

// str applies the string keywords. Strings are decoded only as far as a
// keyword needs: a long prompt meets a minimum length, a maximum it cannot
// exceed, or "has a non-whitespace character" within its first bytes.
func (e *evaluator) str(s *schema, v vnode, out []leaf) []leaf {
	if !s.hasStringBounds {
		return out
	}
	d := e.d
	before := len(out)
	raw := d.Raw(v.i)
	body := raw[1 : len(raw)-1] // the token without its quotes
	var full *string
	decoded := func() string {
		if full == nil {
			str := d.Str(v.i)
			full = &str
		}
		return *full
	}
	if s.minLength > 0 {
		// A character takes at most 12 bytes of a JSON token (a
		// surrogate pair of \u escapes).
		limit := 12 * (s.minLength + 1)
		var n int
		if len(body) <= limit {
			n = utf8.RuneCountInString(decoded())
		} else {
			n = utf8.RuneCountInString(d.StrPrefix(v.i, limit))
		}
		if n < s.minLength {
			out = append(out, leaf{at: v.loc(), keyword: "minLength", arg: s.minLength})
		}
	}
	// Every character takes at least one byte of the token.
	if s.maxLength >= 0 && len(body) > s.maxLength && utf8.RuneCountInString(decoded()) > s.maxLength {
		out = append(out, leaf{at: v.loc(), keyword: "maxLength", arg: s.maxLength})
	}
	if len(out) > before {
		// A length failure says what a pattern of the same value would
		// (names are {1,128} patterns with the same bounds).
		return out
	}
	switch {
	case s.nonSpace:
		if !hasNonSpace(body) {
			out = append(out, leaf{at: v.loc(), keyword: "pattern", arg: s.pattern.String()})
		}
	case s.pattern != nil:
		if !s.pattern.MatchString(decoded()) {
			out = append(out, leaf{at: v.loc(), keyword: "pattern", arg: s.pattern.String()})
		}
	}
	return out
}

// hasNonSpace reports whether the JSON string token body (without quotes)
// decodes to a string with a character outside [\t\n\f\r ], as the
// pattern \S asks.
func hasNonSpace(body []byte) bool {
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case ' ', '\t', '\n', '\r', '\f':
			continue
		case '\\':
		default:
			return true
		}
		if i+1 >= len(body) {
			return true
		}
		i++
		switch body[i] {
		case 't', 'n', 'r', 'f':
			continue
		case 'u':
			if i+4 >= len(body) {
				return true
			}
			r, err := strconv.ParseUint(string(body[i+1:i+5]), 16, 32)
			i += 4
			if err == nil && (r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f') {
				continue
			}
			return true
		default:
			return true
		}
	}
	return false
}

func (e *evaluator) number(s *schema, v vnode, out []leaf) []leaf {
	if !s.hasNumberBounds {
		return out
	}
	x := parseDecimal(e.d.Raw(v.i))
	bound := func(kw string, r *big.Rat, fail func(c int) bool) {
		if c := x.cmp(ratDecimal(r)); fail(c) {
			out = append(out, leaf{at: v.loc(), keyword: kw, arg: r.RatString()})
		}
	}
	if s.minimum != nil {
		bound("minimum", s.minimum, func(c int) bool { return c < 0 })
	}
	if s.maximum != nil {
		bound("maximum", s.maximum, func(c int) bool { return c > 0 })
	}
	if s.exclusiveMin != nil {
		bound("exclusiveMinimum", s.exclusiveMin, func(c int) bool { return c <= 0 })
	}
	if s.exclMax != nil {
		bound("exclusiveMaximum", s.exclMax, func(c int) bool { return c >= 0 })
	}
	if s.multipleOf != nil {
		r, ok := x.rat()
		if !ok || !new(big.Rat).Quo(r, s.multipleOf).IsInt() {
			out = append(out, leaf{at: v.loc(), keyword: "multipleOf", arg: s.multipleOf.RatString()})
		}
	}
	return out
}

// typeOK reports whether v has one of the types. An integer is a number
// without a fractional part, however large (draft 2020-12); the 64-bit
// range the providers enforce is written in the schemas as minimum and
// maximum.
func (e *evaluator) typeOK(types []string, v vnode, kind capture.Kind) bool {
	for _, t := range types {
		switch t {
		case "object":
			if kind == capture.Object {
				return true
			}
		case "array":
			if kind == capture.Array {
				return true
			}
		case "string":
			if kind == capture.String {
				return true
			}
		case "number":
			if kind == capture.Number {
				return true
			}
		case "integer":
			if kind == capture.Number && parseDecimal(e.d.Raw(v.i)).isInteger() {
				return true
			}
		case "boolean":
			if kind == capture.True || kind == capture.False {
				return true
			}
		case "null":
			if kind == capture.Null {
				return true
			}
		}
	}
	return false
}

// equal reports JSON equality of v and a schema value (decoded with
// json.Number): numbers by value, objects regardless of member order.
func (e *evaluator) equal(v vnode, x any) bool {
	d := e.d
	switch kind := e.kind(v); kind {
	case capture.Null:
		return x == nil
	case capture.True, capture.False:
		b, ok := x.(bool)
		return ok && b == (kind == capture.True)
	case capture.String:
		s, ok := x.(string)
		if ok && e.gemini {
			// Google's parser reads enum names in any case; its own REST
			// samples send "mode": "auto".
			return strings.EqualFold(d.Str(v.i), s)
		}
		return ok && d.StrIs(v.i, s)
	case capture.Number:
		num, ok := numberText(x)
		return ok && parseDecimal(d.Raw(v.i)).cmp(parseDecimal([]byte(num))) == 0
	case capture.Array:
		arr, ok := x.([]any)
		if !ok || len(arr) != e.length(v) {
			return false
		}
		eq := true
		e.elements(v, func(k int, el vnode) {
			eq = eq && e.equal(el, arr[k])
		})
		return eq
	case capture.Object:
		obj, ok := x.(map[string]any)
		if !ok {
			return false
		}
		var buf [16]member
		ms := e.members(v, buf[:0])
		if len(ms) != len(obj) {
			return false
		}
		for _, m := range ms {
			want, ok := obj[m.key]
			if !ok || !e.equal(m.value, want) {
				return false
			}
		}
		return true
	}
	return false
}

func numberText(x any) (string, bool) {
	switch n := x.(type) {
	case fmt.Stringer:
		return n.String(), true
	case float64:
		return fmt.Sprint(n), true
	}
	return "", false
}

// canonical is a spelling-independent form of v, for uniqueItems.
func (e *evaluator) canonical(v vnode) string {
	var b strings.Builder
	e.writeCanonical(&b, v)
	return b.String()
}

func (e *evaluator) writeCanonical(b *strings.Builder, v vnode) {
	d := e.d
	switch kind := e.kind(v); kind {
	case capture.Null, capture.True, capture.False:
		b.WriteString(kind.String())
		if kind == capture.True {
			b.WriteString(":t")
		}
	case capture.Number:
		b.WriteString(parseDecimal(d.Raw(v.i)).canonical())
	case capture.String:
		b.Write(capture.Quote(d.Str(v.i)))
	case capture.Array:
		b.WriteByte('[')
		e.elements(v, func(k int, el vnode) {
			if k > 0 {
				b.WriteByte(',')
			}
			e.writeCanonical(b, el)
		})
		b.WriteByte(']')
	case capture.Object:
		ms := e.members(v, nil)
		sort.Slice(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
		b.WriteByte('{')
		for k, m := range ms {
			if k > 0 {
				b.WriteByte(',')
			}
			b.Write(capture.Quote(m.key))
			b.WriteByte(':')
			e.writeCanonical(b, m.value)
		}
		b.WriteByte('}')
	}
}
