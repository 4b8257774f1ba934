package schemas

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/skillopt/skillopt/capture"
)

// The validator evaluates compiled schemas directly over capture's span
// index: there is one JSON reader in the program, no second tree of the
// document is built, strings are decoded only where a keyword needs their
// value, and numbers are compared as decimals in time linear in their
// spelling. santhosh-tekuri/jsonschema parses, resolves and meta-validates
// the schemas; this file applies the keywords the embedded schemas use
// (supported reports any other).

// loc is a location in the validated view of a document: a node of the
// index, or the single element of an object that a Gemini repeated field
// shows as a one-element array.
type loc struct {
	node int
	elem bool
}

// vnode is a value of the validated view.
type vnode struct {
	i      int
	wrap   bool // an object seen as a one-element array holding it
	elem   bool // the element of such an array
	opaque bool // Gemini: inside a user-defined map, kept as given
}

func (v vnode) loc() loc { return loc{v.i, v.elem} }

// evaluator applies schemas to one document.
type evaluator struct {
	d      *capture.Doc
	gemini bool // Gemini key spellings and repeated fields are normalised
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
		k := d.Key(c)
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
	if d.Get(v.i, key) >= 0 {
		return true
	}
	if !e.gemini || v.opaque {
		return false
	}
	for c := range d.Children(v.i) {
		if geminiKey(d.Key(c)) == key {
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

// eval returns the failures of v against s, nil when v is valid.
func (e *evaluator) eval(s *jsonschema.Schema, v vnode) []leaf {
	if s.Always != nil {
		if *s.Always {
			return nil
		}
		return []leaf{{at: v.loc(), keyword: "false"}}
	}
	var out []leaf
	if s.Ref != nil {
		out = e.eval(s.Ref, v)
	}
	kind := e.kind(v)
	if len(s.Types) > 0 && !e.typeOK(s.Types, v, kind) {
		return append(out, leaf{at: v.loc(), keyword: "type", arg: s.Types})
	}
	if len(s.Constant) > 0 && !e.equal(v, s.Constant[0]) {
		out = append(out, leaf{at: v.loc(), keyword: "const", arg: s.Constant[0]})
	}
	if s.Enum != nil {
		ok := false
		for _, x := range s.Enum {
			if e.equal(v, x) {
				ok = true
				break
			}
		}
		if !ok {
			out = append(out, leaf{at: v.loc(), keyword: "enum", arg: s.Enum})
		}
	}
	if s.Not != nil && e.eval(s.Not, v) == nil {
		out = append(out, leaf{at: v.loc(), keyword: "not"})
	}
	for _, sub := range s.AllOf {
		out = append(out, e.eval(sub, v)...)
	}
	if len(s.AnyOf) > 0 {
		var branches [][]leaf
		for _, sub := range s.AnyOf {
			ls := e.eval(sub, v)
			if ls == nil {
				branches = nil
				break
			}
			branches = append(branches, ls)
		}
		if branches != nil {
			out = append(out, e.pickBranch(branches, v.loc())...)
		}
	}
	if len(s.OneOf) > 0 {
		var branches [][]leaf
		matched := 0
		for _, sub := range s.OneOf {
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
	}
	if s.If != nil {
		if e.eval(s.If, v) == nil {
			if s.Then != nil {
				out = append(out, e.eval(s.Then, v)...)
			}
		} else if s.Else != nil {
			out = append(out, e.eval(s.Else, v)...)
		}
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

func (e *evaluator) object(s *jsonschema.Schema, v vnode, out []leaf) []leaf {
	needMembers := len(s.Properties) > 0 || s.AdditionalProperties != nil || len(s.PatternProperties) > 0 || s.MinProperties >= 0 || s.MaxProperties >= 0
	for _, r := range s.Required {
		if !e.has(v, r) {
			out = append(out, leaf{at: v.loc(), keyword: "required", arg: r})
		}
	}
	if !needMembers {
		return out
	}
	var buf [16]member
	ms := e.members(v, buf[:0])
	if s.MinProperties >= 0 && len(ms) < s.MinProperties {
		out = append(out, leaf{at: v.loc(), keyword: "minProperties", arg: s.MinProperties})
	}
	if s.MaxProperties >= 0 && len(ms) > s.MaxProperties {
		out = append(out, leaf{at: v.loc(), keyword: "maxProperties", arg: s.MaxProperties})
	}
	for _, m := range ms {
		matched := false
		if ps, ok := s.Properties[m.key]; ok {
			matched = true
			out = append(out, e.eval(ps, m.value)...)
		}
		for re, ps := range s.PatternProperties {
			if re.MatchString(m.key) {
				matched = true
				out = append(out, e.eval(ps, m.value)...)
			}
		}
		if matched {
			continue
		}
		switch ap := s.AdditionalProperties.(type) {
		case bool:
			if !ap {
				out = append(out, leaf{at: m.value.loc(), keyword: "additionalProperties", arg: m.key})
			}
		case *jsonschema.Schema:
			out = append(out, e.eval(ap, m.value)...)
		}
	}
	return out
}

func (e *evaluator) array(s *jsonschema.Schema, v vnode, out []leaf) []leaf {
	n := e.length(v)
	if s.MinItems >= 0 && n < s.MinItems {
		out = append(out, leaf{at: v.loc(), keyword: "minItems", arg: s.MinItems})
	}
	if s.MaxItems >= 0 && n > s.MaxItems {
		out = append(out, leaf{at: v.loc(), keyword: "maxItems", arg: s.MaxItems})
	}
	if len(s.PrefixItems) > 0 || s.Items2020 != nil {
		e.elements(v, func(k int, el vnode) {
			switch {
			case k < len(s.PrefixItems):
				out = append(out, e.eval(s.PrefixItems[k], el)...)
			case s.Items2020 != nil:
				out = append(out, e.eval(s.Items2020, el)...)
			}
		})
	}
	if s.Contains != nil {
		found := 0
		e.elements(v, func(_ int, el vnode) {
			if e.eval(s.Contains, el) == nil {
				found++
			}
		})
		if found < s.MinContains || (s.MaxContains >= 0 && found > s.MaxContains) {
			out = append(out, leaf{at: v.loc(), keyword: "contains"})
		}
	}
	if s.UniqueItems {
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

func (e *evaluator) str(s *jsonschema.Schema, v vnode, out []leaf) []leaf {
	if s.MinLength < 0 && s.MaxLength < 0 && s.Pattern == nil {
		return out
	}
	str := e.d.Str(v.i)
	if s.MinLength >= 0 || s.MaxLength >= 0 {
		n := utf8.RuneCountInString(str)
		if s.MinLength >= 0 && n < s.MinLength {
			out = append(out, leaf{at: v.loc(), keyword: "minLength", arg: s.MinLength})
		}
		if s.MaxLength >= 0 && n > s.MaxLength {
			out = append(out, leaf{at: v.loc(), keyword: "maxLength", arg: s.MaxLength})
		}
	}
	if s.Pattern != nil && !s.Pattern.MatchString(str) {
		out = append(out, leaf{at: v.loc(), keyword: "pattern", arg: s.Pattern.String()})
	}
	return out
}

func (e *evaluator) number(s *jsonschema.Schema, v vnode, out []leaf) []leaf {
	if s.Minimum == nil && s.Maximum == nil && s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil && s.MultipleOf == nil {
		return out
	}
	x := parseDecimal(e.d.Raw(v.i))
	bound := func(kw string, r *big.Rat, fail func(c int) bool) {
		if c := x.cmp(ratDecimal(r)); fail(c) {
			out = append(out, leaf{at: v.loc(), keyword: kw, arg: r.RatString()})
		}
	}
	if s.Minimum != nil {
		bound("minimum", s.Minimum, func(c int) bool { return c < 0 })
	}
	if s.Maximum != nil {
		bound("maximum", s.Maximum, func(c int) bool { return c > 0 })
	}
	if s.ExclusiveMinimum != nil {
		bound("exclusiveMinimum", s.ExclusiveMinimum, func(c int) bool { return c <= 0 })
	}
	if s.ExclusiveMaximum != nil {
		bound("exclusiveMaximum", s.ExclusiveMaximum, func(c int) bool { return c >= 0 })
	}
	if s.MultipleOf != nil {
		r, ok := x.rat()
		if !ok || !new(big.Rat).Quo(r, s.MultipleOf).IsInt() {
			out = append(out, leaf{at: v.loc(), keyword: "multipleOf", arg: s.MultipleOf.RatString()})
		}
	}
	return out
}

// typeOK reports whether v has one of the types. An integer is a number
// without a fractional part that fits in 64 bits: providers parse integer
// fields into 32- or 64-bit integers and answer anything larger with an
// error.
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
			if kind == capture.Number && parseDecimal(e.d.Raw(v.i)).fitsInt64() {
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

// supported reports a keyword of a compiled schema that eval does not
// apply, so that a schema edit cannot silently weaken validation.
func supported(root *jsonschema.Schema) error {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema) error
	walk = func(s *jsonschema.Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		bad := ""
		switch {
		case s.RecursiveRef != nil || s.DynamicRef != nil:
			bad = "$dynamicRef"
		case s.PropertyNames != nil:
			bad = "propertyNames"
		case len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0:
			bad = "dependentRequired/dependentSchemas"
		case s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil:
			bad = "unevaluatedProperties/unevaluatedItems"
		case s.Items != nil || s.AdditionalItems != nil:
			bad = "items (array form)"
		case s.ContentSchema != nil || s.ContentEncoding != "" || s.ContentMediaType != "":
			bad = "contentSchema/contentEncoding/contentMediaType"
		case len(s.Extensions) > 0:
			bad = "extension keywords"
		}
		if bad != "" {
			return fmt.Errorf("%s: keyword %s is not supported", s.Location, bad)
		}
		subs := []*jsonschema.Schema{s.Ref, s.Not, s.If, s.Then, s.Else, s.Items2020, s.Contains}
		subs = append(subs, s.AllOf...)
		subs = append(subs, s.AnyOf...)
		subs = append(subs, s.OneOf...)
		subs = append(subs, s.PrefixItems...)
		for _, p := range s.Properties {
			subs = append(subs, p)
		}
		for _, p := range s.PatternProperties {
			subs = append(subs, p)
		}
		if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			subs = append(subs, ap)
		}
		for _, sub := range subs {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root)
}
