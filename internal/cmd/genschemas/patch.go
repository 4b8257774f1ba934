package main

import (
	"fmt"
	"strconv"
	"strings"
)

// patch is one deliberate deviation from an official description.
type patch struct {
	what  string // the deviation, briefly
	why   string // its reason: where the real API or real traffic differs
	apply func(g *gen) error
}

// at returns the schema object at path: a definition name followed by
// keyword and property tokens separated by "/" ("Tool/properties/name").
// A token that does not exist is an error, so that a patch whose target
// moved in a newer spec fails instead of doing nothing.
func (g *gen) at(path string) (obj, error) {
	toks := strings.Split(path, "/")
	cur, ok := g.defs[toks[0]].(obj)
	if !ok {
		return nil, fmt.Errorf("no definition %q", toks[0])
	}
	var x any = cur
	for _, t := range toks[1:] {
		switch v := x.(type) {
		case obj:
			next, ok := v[t]
			if !ok {
				return nil, fmt.Errorf("%s: no %q", path, t)
			}
			x = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(v) {
				return nil, fmt.Errorf("%s: no element %q", path, t)
			}
			x = v[i]
		default:
			return nil, fmt.Errorf("%s: %q is inside a %T", path, t, x)
		}
	}
	o, ok := x.(obj)
	if !ok {
		return nil, fmt.Errorf("%s is a %T, not a schema object", path, x)
	}
	return o, nil
}

// Patch operations. Each returns a func(g *gen) error for patch.apply.

// setKeys sets keywords of the schema at path.
func setKeys(path string, kv obj) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		for k, v := range kv {
			s[k] = clone(v)
		}
		return nil
	}
}

// addProperties adds properties (which must be new) to the object schema
// at path.
func addProperties(path string, props obj) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		ps, _ := s["properties"].(obj)
		if ps == nil {
			ps = obj{}
			s["properties"] = ps
		}
		for k, v := range props {
			if _, ok := ps[k]; ok {
				return fmt.Errorf("%s: property %q already exists", path, k)
			}
			ps[k] = clone(v)
		}
		return nil
	}
}

// require adds names to the required list of the schema at path.
func require(path string, names ...string) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		req := asList(s["required"])
		for _, n := range names {
			for _, r := range req {
				if r == n {
					return fmt.Errorf("%s: %q is already required", path, n)
				}
			}
			req = append(req, n)
		}
		s["required"] = req
		return nil
	}
}

// unrequire removes names (which must be required) from the required list
// of the schema at path.
func unrequire(path string, names ...string) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		req := asList(s["required"])
		for _, n := range names {
			found := false
			for i, r := range req {
				if r == n {
					req = append(req[:i:i], req[i+1:]...)
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("%s: %q is not required", path, n)
			}
		}
		if len(req) == 0 {
			delete(s, "required")
		} else {
			s["required"] = req
		}
		return nil
	}
}

// addEnum adds values to the enum of the schema at path.
func addEnum(path string, values ...any) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		e, ok := s["enum"].([]any)
		if !ok {
			return fmt.Errorf("%s has no enum", path)
		}
		s["enum"] = append(e, values...)
		return nil
	}
}

// addBranches appends schemas to the anyOf of the schema at path.
func addBranches(path string, branches ...any) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		a, ok := s["anyOf"].([]any)
		if !ok {
			return fmt.Errorf("%s has no anyOf", path)
		}
		for _, b := range branches {
			a = append(a, clone(b))
		}
		s["anyOf"] = a
		return nil
	}
}

// addDefs adds new definitions.
func addDefs(defs obj) func(*gen) error {
	return func(g *gen) error {
		for n, d := range defs {
			if _, ok := g.defs[n]; ok {
				return fmt.Errorf("definition %q already exists", n)
			}
			g.defs[n] = clone(d)
		}
		return nil
	}
}

// copyDef adds definition to as a copy of definition from with keywords
// set at paths inside the copy (relative to it).
func copyDef(from, to string, set map[string]obj) func(*gen) error {
	return func(g *gen) error {
		src, ok := g.defs[from]
		if !ok {
			return fmt.Errorf("no definition %q", from)
		}
		if _, ok := g.defs[to]; ok {
			return fmt.Errorf("definition %q already exists", to)
		}
		g.defs[to] = clone(src)
		for p, kv := range set {
			path := to
			if p != "" {
				path += "/" + p
			}
			if err := setKeys(path, kv)(g); err != nil {
				return err
			}
		}
		return nil
	}
}

// mergeAllOf replaces the allOf of the definition at path by one object
// schema holding the properties and required names of every part (parts
// given by $ref are looked up), so that the object can be closed.
func mergeAllOf(path string) func(*gen) error {
	return func(g *gen) error {
		s, err := g.at(path)
		if err != nil {
			return err
		}
		merged := obj{"type": "object"}
		if err := g.mergeInto(merged, s); err != nil {
			return err
		}
		for k := range s {
			delete(s, k)
		}
		for k, v := range merged {
			s[k] = v
		}
		return nil
	}
}

func (g *gen) mergeInto(dst, s obj) error {
	for k, v := range s {
		switch k {
		case "allOf":
			for _, part := range asList(v) {
				p, _ := part.(obj)
				if r, ok := p["$ref"].(string); ok && len(p) == 1 {
					d, ok := g.defs[strings.TrimPrefix(r, "#/$defs/")].(obj)
					if !ok {
						return fmt.Errorf("allOf: cannot resolve %s", r)
					}
					p = d
				}
				if err := g.mergeInto(dst, p); err != nil {
					return err
				}
			}
		case "properties":
			ps, _ := dst["properties"].(obj)
			if ps == nil {
				ps = obj{}
				dst["properties"] = ps
			}
			for n, p := range v.(obj) {
				ps[n] = clone(p)
			}
		case "required":
			dst["required"] = append(asList(dst["required"]), asList(v)...)
		case "type":
			if v != "object" {
				return fmt.Errorf("allOf part of type %v", v)
			}
		default:
			return fmt.Errorf("allOf part with keyword %q", k)
		}
	}
	return nil
}

// all runs several operations as one patch.
func all(ops ...func(*gen) error) func(*gen) error {
	return func(g *gen) error {
		for _, op := range ops {
			if err := op(g); err != nil {
				return err
			}
		}
		return nil
	}
}
