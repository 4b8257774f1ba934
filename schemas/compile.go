package schemas

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/skillopt/skillopt/capture"
)

// schema is one compiled JSON Schema (draft 2020-12) of the keywords the
// evaluator applies. The embedded documents are read with capture's parser
// (the program's one JSON reader); compiling one takes about a millisecond,
// which keeps a command's first validation cheap. The test suite also
// compiles every embedded document with santhosh-tekuri/jsonschema, which
// checks it against the draft 2020-12 metaschema, and compares the two
// validators' verdicts on real bodies.
type schema struct {
	always *bool // a boolean schema

	ref *schema

	types    []string
	constant []any // one element when const is given (nil is a valid const)
	enum     []any

	not                *schema
	allOf, anyOf       []*schema
	oneOf              []*schema
	ifS, thenS, elseS  *schema
	disc               *discriminator // anyOf alternatives told apart by one member
	indexed            bool           // disc was computed
	required           []string
	properties         map[string]*schema
	patternProperties  []patternSchema
	additional         *schema // additionalProperties as a schema (false is a boolean schema)
	propertyNames      *schema
	minProps, maxProps int

	prefixItems            []*schema
	items                  *schema
	contains               *schema
	minContains            int
	maxContains            int
	minItems, maxItems     int
	uniqueItems            bool
	minLength, maxLength   int
	pattern                *pattern
	nonSpace               bool // pattern is \S: the string has a non-whitespace character
	minimum, maximum       *big.Rat
	exclusiveMin, exclMax  *big.Rat
	multipleOf             *big.Rat
	hasNumberBounds        bool
	hasStringBounds        bool
	hasObjectMemberChecks  bool
	additionalPropertiesOK bool // additionalProperties is absent or true
}

type patternSchema struct {
	re *pattern
	s  *schema
}

// Keywords that only annotate and are skipped.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"examples": true, "default": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"format": true, "$defs": true,
}

// compiler turns one schema document into schemas.
type compiler struct {
	d       *capture.Doc
	name    string
	done    map[capture.Node]*schema
	regexps map[string]*pattern // patterns repeat: compile each once
}

// compileDoc compiles the schema document data (name is used in errors)
// from each entry point, given as a JSON Pointer ("" is the document); an
// entry point the document lacks compiles to nil.
func compileDoc(name string, data []byte, entries ...string) ([]*schema, error) {
	d, err := capture.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &compiler{d: d, name: name, done: map[capture.Node]*schema{}, regexps: map[string]*pattern{}}
	out := make([]*schema, len(entries))
	for k, ptr := range entries {
		i, err := d.Lookup(ptr)
		if err != nil {
			continue
		}
		if out[k], err = c.compile(i); err != nil {
			return nil, err
		}
	}
	if err := c.checkCycles(); err != nil {
		return nil, err
	}
	for _, s := range c.done {
		s.index()
	}
	return out, nil
}

// checkCycles rejects a document in which a schema applies itself to the
// same value again ({"$ref": "#"}, or through allOf, anyOf, not, if …):
// evaluating it would never end. Cycles through properties or items are
// fine, as each step goes one level into the value.
func (c *compiler) checkCycles() error {
	const (
		unseen = iota
		active
		done
	)
	state := make(map[*schema]int, len(c.done))
	var visit func(s *schema) bool
	visit = func(s *schema) bool {
		switch state[s] {
		case active:
			return false
		case done:
			return true
		}
		state[s] = active
		next := []*schema{s.ref, s.not, s.ifS, s.thenS, s.elseS}
		next = append(next, s.allOf...)
		next = append(next, s.anyOf...)
		next = append(next, s.oneOf...)
		for _, n := range next {
			if n != nil && !visit(n) {
				return false
			}
		}
		state[s] = done
		return true
	}
	nodes := make([]capture.Node, 0, len(c.done))
	for i := range c.done {
		nodes = append(nodes, i)
	}
	slices.Sort(nodes)
	for _, i := range nodes {
		if !visit(c.done[i]) {
			return c.errorf(i, "the schema applies itself to the same value again (a reference cycle)")
		}
	}
	return nil
}

func (c *compiler) errorf(i capture.Node, format string, a ...any) error {
	return fmt.Errorf("%s: %s: %s", c.name, c.d.Pointer(i), fmt.Sprintf(format, a...))
}

// compile compiles the schema at node i (once; references may cycle).
func (c *compiler) compile(i capture.Node) (*schema, error) {
	if s, ok := c.done[i]; ok {
		return s, nil
	}
	d := c.d
	s := &schema{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1,
		minLength: -1, maxLength: -1, maxContains: -1, minContains: 1, additionalPropertiesOK: true}
	c.done[i] = s
	switch d.Kind(i) {
	case capture.True, capture.False:
		b := d.Kind(i) == capture.True
		s.always = &b
		return s, nil
	case capture.Object:
	default:
		return nil, c.errorf(i, "a schema must be an object or a boolean")
	}
	for k := range d.Children(i) {
		if err := c.keyword(s, k); err != nil {
			return nil, err
		}
	}
	s.summarize()
	return s, nil
}

// summarize sets the flags by which the evaluator skips a family of
// keywords the schema does not use without looking at each of them.
func (s *schema) summarize() {
	s.hasNumberBounds = s.minimum != nil || s.maximum != nil || s.exclusiveMin != nil || s.exclMax != nil || s.multipleOf != nil
	s.hasStringBounds = s.minLength >= 0 || s.maxLength >= 0 || s.pattern != nil
	s.hasObjectMemberChecks = len(s.properties) > 0 || s.additional != nil || len(s.patternProperties) > 0 ||
		s.propertyNames != nil || s.minProps >= 0 || s.maxProps >= 0
}

// keyword compiles member k of a schema object into s. The keywords come in
// the families of the draft's vocabularies, each compiled by a method of its
// own that reports whether the name is one of its keywords; a name no family
// knows must be an annotation, which is skipped. The families are called
// directly, not from a table: an indirect call would move the compiler to
// the heap.
func (c *compiler) keyword(s *schema, k capture.Node) error {
	key := c.d.Key(k)
	if ok, err := c.valueKeyword(s, key, k); ok {
		return err
	}
	if ok, err := c.applicatorKeyword(s, key, k); ok {
		return err
	}
	if ok, err := c.objectKeyword(s, key, k); ok {
		return err
	}
	if ok, err := c.arrayKeyword(s, key, k); ok {
		return err
	}
	if ok, err := c.stringKeyword(s, key, k); ok {
		return err
	}
	if ok, err := c.numberKeyword(s, key, k); ok {
		return err
	}
	if !annotations[key] {
		return c.errorf(k, "keyword %q is not supported", key)
	}
	return nil
}

// valueKeyword compiles the keywords that constrain a value as a whole:
// its type, or the values it may be (const, enum).
func (c *compiler) valueKeyword(s *schema, key string, k capture.Node) (bool, error) {
	d := c.d
	switch key {
	case "type":
		switch d.Kind(k) {
		case capture.String:
			s.types = []string{d.Str(k)}
		case capture.Array:
			for e := range d.Children(k) {
				s.types = append(s.types, d.Str(e))
			}
		}
		var err error
		for _, t := range s.types {
			switch t {
			case "object", "array", "string", "number", "integer", "boolean", "null":
			default:
				err = c.errorf(k, "unknown type %q", t)
			}
		}
		return true, err
	case "const":
		s.constant = []any{value(d, k)}
	case "enum":
		if d.Kind(k) != capture.Array {
			return true, c.errorf(k, "enum must be an array")
		}
		s.enum = []any{}
		for e := range d.Children(k) {
			s.enum = append(s.enum, value(d, e))
		}
	default:
		return false, nil
	}
	return true, nil
}

// applicatorKeyword compiles the keywords that apply other schemas to the
// same value: $ref, not, the combinators and if/then/else. These are the
// edges checkCycles follows.
func (c *compiler) applicatorKeyword(s *schema, key string, k capture.Node) (bool, error) {
	var err error
	switch key {
	case "$ref":
		s.ref, err = c.ref(k)
	case "not":
		s.not, err = c.compile(k)
	case "allOf":
		s.allOf, err = c.list(k)
	case "anyOf":
		s.anyOf, err = c.list(k)
	case "oneOf":
		s.oneOf, err = c.list(k)
	case "if":
		s.ifS, err = c.compile(k)
	case "then":
		s.thenS, err = c.compile(k)
	case "else":
		s.elseS, err = c.compile(k)
	default:
		return false, nil
	}
	return true, err
}

// objectKeyword compiles the keywords of objects: required members, the
// schemas of members by name or pattern, and the member count.
func (c *compiler) objectKeyword(s *schema, key string, k capture.Node) (bool, error) {
	d := c.d
	var err error
	switch key {
	case "required":
		for e := range d.Children(k) {
			s.required = append(s.required, d.Str(e))
		}
	case "properties":
		s.properties = map[string]*schema{}
		for p := range d.Children(k) {
			if s.properties[d.Key(p)], err = c.compile(p); err != nil {
				break
			}
		}
	case "patternProperties":
		err = c.patternProperties(s, k)
	case "additionalProperties":
		s.additional, err = c.compile(k)
		s.additionalPropertiesOK = d.Kind(k) == capture.True
	case "propertyNames":
		s.propertyNames, err = c.compile(k)
	case "minProperties":
		s.minProps, err = c.count(k)
	case "maxProperties":
		s.maxProps, err = c.count(k)
	default:
		return false, nil
	}
	return true, err
}

// patternProperties compiles the patterns and schemas of patternProperties
// member k, in the order given.
func (c *compiler) patternProperties(s *schema, k capture.Node) error {
	d := c.d
	for p := range d.Children(k) {
		re, err := c.regexp(p, d.Key(p))
		if err != nil {
			return err
		}
		ps, err := c.compile(p)
		if err != nil {
			return err
		}
		s.patternProperties = append(s.patternProperties, patternSchema{re, ps})
	}
	return nil
}

// arrayKeyword compiles the keywords of arrays: the schemas of items by
// position, contains with its bounds, the length and uniqueness.
func (c *compiler) arrayKeyword(s *schema, key string, k capture.Node) (bool, error) {
	var err error
	switch key {
	case "prefixItems":
		s.prefixItems, err = c.list(k)
	case "items":
		if c.d.Kind(k) == capture.Array {
			return true, c.errorf(k, "the array form of items is not draft 2020-12")
		}
		s.items, err = c.compile(k)
	case "contains":
		s.contains, err = c.compile(k)
	case "minContains":
		s.minContains, err = c.count(k)
	case "maxContains":
		s.maxContains, err = c.count(k)
	case "minItems":
		s.minItems, err = c.count(k)
	case "maxItems":
		s.maxItems, err = c.count(k)
	case "uniqueItems":
		s.uniqueItems = c.d.Kind(k) == capture.True
	default:
		return false, nil
	}
	return true, err
}

// stringKeyword compiles the keywords of strings: the length in characters
// and the pattern (the common \S is recorded, the evaluator checks it
// without the regular expression).
func (c *compiler) stringKeyword(s *schema, key string, k capture.Node) (bool, error) {
	var err error
	switch key {
	case "minLength":
		s.minLength, err = c.count(k)
	case "maxLength":
		s.maxLength, err = c.count(k)
	case "pattern":
		s.pattern, err = c.regexp(k, c.d.Str(k))
		s.nonSpace = c.d.Str(k) == `\S`
	default:
		return false, nil
	}
	return true, err
}

// numberKeyword compiles the keywords of numbers, kept as exact rationals:
// the bounds and multipleOf.
func (c *compiler) numberKeyword(s *schema, key string, k capture.Node) (bool, error) {
	var err error
	switch key {
	case "minimum":
		s.minimum, err = c.number(k)
	case "maximum":
		s.maximum, err = c.number(k)
	case "exclusiveMinimum":
		s.exclusiveMin, err = c.number(k)
	case "exclusiveMaximum":
		s.exclMax, err = c.number(k)
	case "multipleOf":
		s.multipleOf, err = c.number(k)
		if err == nil && s.multipleOf.Sign() <= 0 {
			err = c.errorf(k, "multipleOf must be > 0")
		}
	default:
		return false, nil
	}
	return true, err
}

func (c *compiler) regexp(i capture.Node, expr string) (*pattern, error) {
	if re, ok := c.regexps[expr]; ok {
		return re, nil
	}
	// A bad expression is the schema's error, found here; the program is
	// compiled when a value first meets it.
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		return nil, c.errorf(i, "%v", err)
	}
	re := &pattern{expr: expr}
	c.regexps[expr] = re
	return re, nil
}

func (c *compiler) list(i capture.Node) ([]*schema, error) {
	if c.d.Kind(i) != capture.Array || c.d.Len(i) == 0 {
		return nil, c.errorf(i, "must be a non-empty array of schemas")
	}
	var out []*schema
	for e := range c.d.Children(i) {
		s, err := c.compile(e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (c *compiler) count(i capture.Node) (int, error) {
	n, err := strconv.Atoi(string(c.d.Raw(i)))
	if err != nil || n < 0 {
		return 0, c.errorf(i, "must be a non-negative integer")
	}
	return n, nil
}

func (c *compiler) number(i capture.Node) (*big.Rat, error) {
	r, ok := new(big.Rat).SetString(string(c.d.Raw(i)))
	if c.d.Kind(i) != capture.Number || !ok {
		return nil, c.errorf(i, "must be a number")
	}
	return r, nil
}

// ref resolves a $ref: a JSON Pointer fragment into the same document.
func (c *compiler) ref(i capture.Node) (*schema, error) {
	r := c.d.Str(i)
	if !strings.HasPrefix(r, "#") {
		return nil, c.errorf(i, "only references inside the document are supported, not %q", r)
	}
	target, err := c.d.Lookup(r[1:])
	if err != nil {
		return nil, c.errorf(i, "unresolved reference %q", r)
	}
	return c.compile(target)
}

// value returns node i as a Go value (numbers as json.Number), for const and
// enum.
func value(d *capture.Doc, i capture.Node) any {
	switch d.Kind(i) {
	case capture.Null:
		return nil
	case capture.True:
		return true
	case capture.False:
		return false
	case capture.Number:
		return json.Number(d.Raw(i))
	case capture.String:
		return d.Str(i)
	case capture.Array:
		out := []any{}
		for e := range d.Children(i) {
			out = append(out, value(d, e))
		}
		return out
	case capture.Object:
		out := map[string]any{}
		for m := range d.Children(i) {
			out[d.Key(m)] = value(d, m)
		}
		return out
	}
	return nil
}

// discriminator tells the alternatives of an anyOf apart by the
// string value of one member, as the providers' own parsers do ("type" of a
// content block or tool, "role" of a message): only the alternatives that
// accept the value are evaluated, and a value no alternative accepts is
// reported at the member, listing the accepted values.
type discriminator struct {
	key    string
	byVal  map[string][]int // alternatives accepting the value
	free   []int            // alternatives that do not constrain the member to listed strings
	null   []int            // alternatives that also accept null
	absent []int            // alternatives that accept a missing member
	all    []int            // every alternative
	values []any            // every listed value, in order, for messages
}

// index computes s's discriminator, if its alternatives have one. An
// alternative that is itself a discriminated anyOf on the same member (an
// "item" union inside an "input item" union) counts with all its values.
func (s *schema) index() {
	if s.indexed {
		return
	}
	s.indexed = true
	alts := s.anyOf
	if len(alts) < 2 {
		return
	}
	for _, key := range []string{"type", "role"} {
		d := &discriminator{key: key, byVal: map[string][]int{}}
		constrained := 0
		seen := map[string]bool{}
		for n, alt := range alts {
			vals, nullOK, ok, required := alternative(alt, key)
			if !ok {
				d.free = append(d.free, n)
			} else {
				constrained++
				for _, v := range vals {
					d.byVal[v] = append(d.byVal[v], n)
					if !seen[v] {
						seen[v] = true
						d.values = append(d.values, v)
					}
				}
			}
			if nullOK {
				d.null = append(d.null, n)
			}
			if !required {
				d.absent = append(d.absent, n)
			}
			d.all = append(d.all, n)
		}
		if constrained >= 2 {
			s.disc = d
			return
		}
	}
}

// alternative tells what an anyOf alternative accepts for member key: ok
// when only the strings vals (and null when nullOK), required when the
// member must be present.
func alternative(alt *schema, key string) (vals []string, nullOK, ok, required bool) {
	for alt.always == nil && alt.properties == nil && alt.anyOf == nil && alt.ref != nil {
		alt = alt.ref
	}
	if alt.always != nil {
		return nil, *alt.always, false, false
	}
	if p, has := alt.properties[key]; has {
		vals, nullOK, ok = stringValues(p)
		return vals, nullOK, ok, contains(alt.required, key)
	}
	if alt.anyOf != nil {
		alt.index()
		if d := alt.disc; d != nil && d.key == key && len(d.free) == 0 {
			for _, v := range d.values {
				vals = append(vals, v.(string))
			}
			return vals, len(d.null) > 0, true, len(d.absent) == 0
		}
	}
	return nil, true, false, contains(alt.required, key)
}

// plain follows references of a schema that is only a reference.
func plain(s *schema) *schema {
	for s.ref != nil && s.onlyRef() {
		s = s.ref
	}
	return s
}

func (s *schema) onlyRef() bool {
	return s.always == nil && s.types == nil && s.constant == nil && s.enum == nil && s.not == nil &&
		s.allOf == nil && s.anyOf == nil && s.oneOf == nil && s.ifS == nil && s.required == nil &&
		!s.hasObjectMemberChecks && s.prefixItems == nil && s.items == nil && s.contains == nil &&
		s.minItems < 0 && s.maxItems < 0 && !s.uniqueItems && !s.hasStringBounds && !s.hasNumberBounds
}

// stringValues returns the strings a property schema allows when it allows
// only listed strings (and perhaps null); ok is false otherwise.
func stringValues(p *schema) (vals []string, nullOK, ok bool) {
	if p == nil {
		return nil, false, false
	}
	p = plain(p)
	add := func(x any) bool {
		switch v := x.(type) {
		case string:
			vals = append(vals, v)
		case nil:
			nullOK = true
		default:
			return false
		}
		return true
	}
	switch {
	case p.constant != nil:
		return vals, nullOK, add(p.constant[0])
	case p.enum != nil:
		for _, x := range p.enum {
			if !add(x) {
				return nil, false, false
			}
		}
		return vals, nullOK, true
	case p.anyOf != nil:
		for _, b := range p.anyOf {
			b = plain(b)
			if len(b.types) == 1 && b.types[0] == "null" && b.constant == nil && b.enum == nil {
				nullOK = true
				continue
			}
			bv, bn, bok := stringValues(b)
			if !bok {
				return nil, false, false
			}
			vals = append(vals, bv...)
			nullOK = nullOK || bn
		}
		return vals, nullOK, true
	}
	return nil, false, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
