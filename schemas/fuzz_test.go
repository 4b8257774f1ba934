package schemas

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

// FuzzValidate: validation never panics, every error points at a value of
// the body, and errors come sorted and without duplicates.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*", "*.json"))
	for i, p := range files {
		data, err := os.ReadFile(p)
		if err == nil && len(data) < 4096 {
			f.Add(uint8(i), data)
		}
	}
	f.Add(uint8(0), []byte(`{"model":"m","max_tokens":1e1000000000,"messages":[]}`))
	f.Add(uint8(3), []byte(`{"contents":{"parts":{"text":1}},"system_instruction":{},"systemInstruction":{}}`))
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		names := append(append([]string{}, Providers...), Files...)
		provider := names[int(which)%len(names)]
		d, perr := capture.Parse(body)
		errs, err := Validate(provider, body)
		if (perr == nil) != (err == nil) {
			t.Fatalf("parse error %v, validate error %v", perr, err)
		}
		if err != nil {
			return
		}
		sorted := finish(append([]Error(nil), errs...))
		if len(sorted) != len(errs) {
			t.Fatalf("duplicate errors: %v", errs)
		}
		for i, e := range errs {
			if sorted[i] != e {
				t.Fatalf("errors not sorted: %v", errs)
			}
			if _, lerr := d.Lookup(e.Pointer); lerr != nil {
				t.Fatalf("error pointer %q does not resolve: %v", e.Pointer, lerr)
			}
			if e.Message == "" {
				t.Fatalf("empty message at %q", e.Pointer)
			}
		}
	})
}

// FuzzCompile: reading any schema document either fails with an error or
// gives a schema that validates any body without panicking or looping.
func FuzzCompile(f *testing.F) {
	for _, n := range append(append([]string{}, Providers...), Files...) {
		data, err := schemaFiles.ReadFile(n + ".schema.json")
		if err == nil && len(data) < 2<<10 {
			f.Add(data, []byte(`{"model":"m","messages":[]}`))
		}
	}
	f.Add([]byte(`{"$ref":"#"}`), []byte(`{}`))
	f.Add([]byte(`{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"}]},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`), []byte(`1`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#"}},"additionalProperties":false}`), []byte(`{"a":{"a":{"b":1}}}`))
	f.Add([]byte(`{"anyOf":[{"properties":{"type":{"const":"a"},"x":{"minLength":2}},"required":["type"]},{"properties":{"type":{"enum":["b",null]}}}]}`), []byte(`{"type":"a","x":"y"}`))
	f.Add([]byte(`{"items":{"pattern":"\\S","maxLength":3},"uniqueItems":true,"minItems":1}`), []byte(`[" ","\\u0020x"," "]`))
	f.Add([]byte(`{"propertyNames":{"maxLength":2},"patternProperties":{"^x":{"type":"integer","minimum":1e3}}}`), []byte(`{"xyz":5}`))
	f.Fuzz(func(t *testing.T, schemaDoc, body []byte) {
		if len(schemaDoc) > 1<<16 || len(body) > 1<<16 {
			return
		}
		s, err := compileDoc("fuzz", schemaDoc, "")
		if err != nil || s[0] == nil {
			return
		}
		d, err := capture.Parse(body)
		if err != nil {
			return
		}
		e := &evaluator{d: d, budget: 100000}
		for _, l := range e.eval(s[0], vnode{}) {
			if errs := e.render(l); len(errs) == 0 || errs[0].Message == "" {
				t.Fatalf("empty rendering of %+v", l)
			}
		}
	})
}
