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
