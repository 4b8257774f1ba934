package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// obj is a JSON object of a schema document.
type obj = map[string]any

// Keywords kept in the generated schemas: those that validate. Their
// values are schemas (schemaKw), lists of schemas (schemaListKw), maps of
// schemas (schemaMapKw) or plain values.
var (
	schemaKw     = set("additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames")
	schemaListKw = set("allOf", "anyOf", "oneOf", "prefixItems")
	schemaMapKw  = set("properties", "patternProperties")
	valueKw      = set("type", "enum", "const", "required", "minItems", "maxItems", "uniqueItems",
		"minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "minProperties", "maxProperties", "minContains", "maxContains", "$ref")
	// Keywords that only annotate (or that only OpenAPI tooling reads) and
	// are dropped. Any keyword in neither list stops the generator, so that
	// a new constraint in a spec is never dropped silently.
	annotationKw = set("description", "title", "example", "examples", "default", "deprecated", "format",
		"discriminator", "readOnly", "writeOnly", "externalDocs", "enumDeprecated", "$comment",
		"contentEncoding", "contentMediaType", "$recursiveAnchor", "xml", "$schema", "$id")
)

func set(ks ...string) map[string]bool {
	m := make(map[string]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// spec is one loaded API description.
type spec struct {
	path    string
	sum     string // sha256 of the file
	schemas obj    // #/components/schemas
}

func loadSpec(ref, rel string) (*spec, error) {
	path := filepath.Join(ref, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc obj
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	comps, _ := doc["components"].(obj)
	schemas, _ := comps["schemas"].(obj)
	if schemas == nil {
		return nil, fmt.Errorf("%s: no components.schemas", rel)
	}
	h := sha256.Sum256(data)
	return &spec{path: rel, sum: hex.EncodeToString(h[:]), schemas: schemas}, nil
}

const componentPrefix = "#/components/schemas/"

// gen builds one provider shape's schema.
type gen struct {
	shape *shape
	spec  *spec
	defs  obj             // generated definitions, by their new names
	names map[string]bool // spec names already pulled in
}

// include pulls spec schema name and the closure of its references into the
// definitions, converted, and returns its new name.
func (g *gen) include(name string) (string, error) {
	newName := g.shape.rename(name)
	if g.names[name] {
		return newName, nil
	}
	raw, ok := g.spec.schemas[name]
	if !ok {
		return "", fmt.Errorf("%s: no schema %q", g.spec.path, name)
	}
	if _, clash := g.defs[newName]; clash {
		return "", fmt.Errorf("%s: %q and another schema both become %q", g.spec.path, name, newName)
	}
	g.names[name] = true
	g.defs[newName] = nil // reserve
	s, err := g.convert(clone(raw), name)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	g.defs[newName] = s
	return newName, nil
}

// convert rewrites one spec schema (self is the name of the components
// schema it belongs to, for $recursiveRef) into a draft 2020-12 schema with
// only validating keywords, pulling in what it references.
func (g *gen) convert(x any, self string) (any, error) {
	s, ok := x.(obj)
	if !ok {
		if _, isBool := x.(bool); isBool {
			return x, nil
		}
		return nil, fmt.Errorf("schema is %T, not an object", x)
	}
	out := obj{}
	nullable := false
	if g.shape.requiredFromDescriptions {
		if req := requiredFromDescriptions(s); len(req) > 0 {
			out["required"] = append(asList(s["required"]), req...)
		}
	}
	for k, v := range s {
		if k == "nullable" {
			nullable = v == true
			continue
		}
		if err := g.keyword(out, k, v, self); err != nil {
			return nil, err
		}
	}
	normalize(out)
	if nullable {
		out = makeNullable(out)
	}
	return simplify(out), nil
}

// requiredFromDescriptions lists the properties whose description starts
// with "Required.": Google marks so the fields a request must carry (the
// discovery format has no required list).
func requiredFromDescriptions(s obj) []any {
	props, _ := s["properties"].(obj)
	var req []any
	for _, name := range sortedKeys(props) {
		if p, ok := props[name].(obj); ok {
			if d, _ := p["description"].(string); strings.HasPrefix(d, "Required.") {
				req = append(req, name)
			}
		}
	}
	return req
}

// keyword converts keyword k of value v into out.
func (g *gen) keyword(out obj, k string, v any, self string) error {
	switch {
	case k == "$recursiveRef":
		// Draft 2019-09: "#" with a $recursiveAnchor on the enclosing
		// components schema means that schema.
		if v != "#" {
			return fmt.Errorf("$recursiveRef %v not supported", v)
		}
		n, err := g.include(self)
		if err != nil {
			return err
		}
		out["$ref"] = "#/$defs/" + n
	case k == "$ref":
		ref, _ := v.(string)
		if !strings.HasPrefix(ref, componentPrefix) {
			return fmt.Errorf("$ref %q not supported", ref)
		}
		n, err := g.include(strings.TrimPrefix(ref, componentPrefix))
		if err != nil {
			return err
		}
		out["$ref"] = "#/$defs/" + n
	case strings.HasPrefix(k, "x-") || annotationKw[k]:
	case schemaKw[k]:
		c, err := g.convert(v, self)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		out[k] = c
	case schemaListKw[k]:
		return g.convertList(out, k, v, self)
	case schemaMapKw[k]:
		return g.convertMap(out, k, v, self)
	case k == "required" && out["required"] != nil:
	case valueKw[k]:
		out[k] = v
	default:
		return fmt.Errorf("unknown keyword %q", k)
	}
	return nil
}

// convertList converts a keyword whose value is a list of schemas.
func (g *gen) convertList(out obj, k string, v any, self string) error {
	list, _ := v.([]any)
	conv := make([]any, 0, len(list))
	for i, e := range list {
		c, err := g.convert(e, self)
		if err != nil {
			return fmt.Errorf("%s/%d: %w", k, i, err)
		}
		conv = append(conv, c)
	}
	out[k] = conv
	return nil
}

// convertMap converts a keyword whose value is a map of schemas.
func (g *gen) convertMap(out obj, k string, v any, self string) error {
	m, _ := v.(obj)
	conv := make(obj, len(m))
	for name, e := range m {
		c, err := g.convert(e, self)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", k, name, err)
		}
		conv[name] = c
	}
	out[k] = conv
	return nil
}

// normalize says in draft 2020-12 what OpenAPI 3.0 said its own way.
func normalize(out obj) {
	// OpenAPI 3.0 boolean exclusive bounds.
	for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		if e, ok := out[b[0]].(bool); ok {
			delete(out, b[0])
			if e {
				out[b[0]] = out[b[1]]
				delete(out, b[1])
			}
		}
	}
	// "additionalProperties": {} is "anything": say it plainly.
	if ap, ok := out["additionalProperties"].(obj); ok && len(ap) == 0 {
		out["additionalProperties"] = true
	}
	// oneOf → anyOf: the providers dispatch on a discriminator (or try the
	// alternatives in order); none rejects a value for matching two
	// alternatives, which is all oneOf adds (REQUEST-SHAPES.md §9).
	if one, ok := out["oneOf"]; ok {
		if _, both := out["anyOf"]; both {
			out["allOf"] = append(asList(out["allOf"]), obj{"anyOf": one})
		} else {
			out["anyOf"] = one
		}
		delete(out, "oneOf")
	}
}

func sortedKeys(m obj) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

// makeNullable is OpenAPI 3.0's nullable: true in draft 2020-12.
func makeNullable(s obj) obj {
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
		if e, ok := s["enum"].([]any); ok {
			s["enum"] = append(e, nil)
		}
		return s
	case []any:
		for _, x := range t {
			if x == "null" {
				return s
			}
		}
		s["type"] = append(t, "null")
		if e, ok := s["enum"].([]any); ok {
			s["enum"] = append(e, nil)
		}
		return s
	}
	return obj{"anyOf": []any{s, obj{"type": "null"}}}
}

// simplify replaces a schema that is only an anyOf/allOf of one schema by
// that schema, and flattens nested anyOf lists.
func simplify(s obj) obj {
	for _, k := range []string{"anyOf", "allOf"} {
		list, ok := s[k].([]any)
		if !ok {
			continue
		}
		if k == "anyOf" {
			var flat []any
			for _, b := range list {
				if bo, ok := b.(obj); ok && len(bo) == 1 && bo["anyOf"] != nil {
					flat = append(flat, asList(bo["anyOf"])...)
				} else {
					flat = append(flat, b)
				}
			}
			list = dropSubsumed(flat)
			s[k] = list
		}
		if len(list) == 1 && len(s) == 1 {
			if only, ok := list[0].(obj); ok {
				return only
			}
		}
	}
	return s
}

// dropSubsumed removes from an anyOf the branches that only allow some
// strings when another branch allows every string ("any model name, or one
// of these known names" is "any string").
func dropSubsumed(list []any) []any {
	anyString := false
	for _, b := range list {
		if bo, ok := b.(obj); ok && len(bo) == 1 && bo["type"] == "string" {
			anyString = true
		}
	}
	if !anyString {
		return list
	}
	out := list[:0:0]
	for _, b := range list {
		if bo, ok := b.(obj); ok && onlyStrings(bo) {
			continue
		}
		out = append(out, b)
	}
	return out
}

func onlyStrings(s obj) bool {
	if len(s) == 0 {
		return false
	}
	for k, v := range s {
		switch k {
		case "type":
			if v != "string" {
				return false
			}
		case "const":
			if _, ok := v.(string); !ok {
				return false
			}
		case "enum":
			for _, e := range asList(v) {
				if _, ok := e.(string); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return s["const"] != nil || s["enum"] != nil
}

func clone(x any) any {
	switch v := x.(type) {
	case obj:
		c := make(obj, len(v))
		for k, e := range v {
			c[k] = clone(e)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = clone(e)
		}
		return c
	}
	return x
}

// walkSchemas calls f for every schema node under s (s included), parents
// before children.
func walkSchemas(s any, f func(obj)) {
	o, ok := s.(obj)
	if !ok {
		return
	}
	f(o)
	for k, v := range o {
		switch {
		case schemaKw[k]:
			walkSchemas(v, f)
		case schemaListKw[k]:
			for _, e := range asList(v) {
				walkSchemas(e, f)
			}
		case schemaMapKw[k]:
			m, _ := v.(obj)
			for _, e := range m {
				walkSchemas(e, f)
			}
		}
	}
}

// reachable returns the definitions reachable from root.
func reachable(defs obj, root string) map[string]bool {
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		walkSchemas(defs[name], func(o obj) {
			if r, ok := o["$ref"].(string); ok {
				visit(strings.TrimPrefix(r, "#/$defs/"))
			}
		})
	}
	visit(root)
	return seen
}

// build generates the schema document of one shape.
func (sh *shape) build(ref string) ([]byte, error) {
	sp, err := loadSpec(ref, sh.spec)
	if err != nil {
		return nil, err
	}
	g := &gen{shape: sh, spec: sp, defs: obj{}, names: map[string]bool{}}
	root, err := g.include(sh.root)
	if err != nil {
		return nil, err
	}
	for _, p := range sh.patches {
		if err := p.apply(g); err != nil {
			return nil, fmt.Errorf("%s: patch %q: %w", sh.name, p.what, err)
		}
	}
	boundIntegers(g.defs)
	keep := reachable(g.defs, root)
	for _, r := range sh.extraRoots {
		if _, ok := g.defs[r]; !ok {
			return nil, fmt.Errorf("%s: no definition %q for an extra root", sh.name, r)
		}
		for n := range reachable(g.defs, r) {
			keep[n] = true
		}
	}
	for n := range g.defs {
		if !keep[n] {
			delete(g.defs, n)
		}
	}
	return render(sh, sp, root, g.defs)
}

// The signed 64-bit range, which boundIntegers states on integer schemas.
const (
	int64Min = json.Number("-9223372036854775808")
	int64Max = json.Number("9223372036854775807")
)

// boundIntegers gives every integer schema that states no lower or no upper
// bound the one of the signed 64-bit range. JSON Schema's integer is any
// number without a fractional part, however large; the providers parse
// integer fields into 32- or 64-bit integers and reject the rest.
func boundIntegers(defs obj) {
	for _, d := range defs {
		walkSchemas(d, func(o obj) {
			types := asList(o["type"])
			if t, ok := o["type"].(string); ok {
				types = []any{t}
			}
			if !slices.Contains(types, any("integer")) || slices.Contains(types, any("number")) {
				return
			}
			if o["minimum"] == nil && o["exclusiveMinimum"] == nil {
				o["minimum"] = int64Min
			}
			if o["maximum"] == nil && o["exclusiveMaximum"] == nil {
				o["maximum"] = int64Max
			}
		})
	}
}

// closeObjects sets additionalProperties: false on every object schema
// that lists properties and says nothing about others.
func closeObjects(defs obj) {
	for _, d := range defs {
		walkSchemas(d, func(o obj) {
			if ps, _ := o["properties"].(obj); len(ps) > 0 {
				if _, set := o["additionalProperties"]; !set {
					o["additionalProperties"] = false
				}
			}
		})
	}
}

// render writes the schema document: the root definition referenced from
// the top, one definition per line, keys sorted.
func render(sh *shape, sp *spec, root string, defs obj) ([]byte, error) {
	var b bytes.Buffer
	enc := func(v any) error {
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			return err
		}
		b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
		return nil
	}
	b.WriteString("{\n\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\n")
	fmt.Fprintf(&b, "\"$id\":\"https://github.com/skillopt/skillopt/schemas/%s.json\",\n", sh.name)
	b.WriteString("\"$comment\":")
	if err := enc(fmt.Sprintf("Generated by internal/cmd/genschemas from %s (sha256 %s…), #/components/schemas/%s, with %d patches; do not edit.", sp.path, sp.sum[:12], sh.root, len(sh.patches))); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, ",\n\"$ref\":\"#/$defs/%s\",\n\"$defs\":{\n", root)
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if err := enc(n); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc(defs[n]); err != nil {
			return nil, err
		}
		if i < len(names)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n}\n")
	return b.Bytes(), nil
}

// Generate returns the generated schema files by file name.
func Generate(ref string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, sh := range shapes {
		data, err := sh.build(ref)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sh.name, err)
		}
		out[sh.name+".schema.json"] = data
	}
	return out, nil
}
