package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// referenceSchema compiles an embedded schema with santhosh-tekuri/jsonschema,
// a complete draft 2020-12 implementation, which also checks the document
// against the draft 2020-12 metaschema.
func referenceSchema(tb testing.TB, name string) *jsonschema.Schema {
	tb.Helper()
	data, err := schemaFiles.ReadFile(name + ".schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	url := "https://github.com/skillopt/skillopt/schemas/" + name + ".json"
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("no external schema may be loaded (%s)", s)
	}
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return s
}

// Every embedded schema is a valid draft 2020-12 document, and compiles.
func TestEmbeddedSchemasAreValid(t *testing.T) {
	names := append(append([]string{}, Providers...), Files...)
	entries, err := schemaFiles.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(names) {
		t.Errorf("%d embedded schemas, %d names", len(entries), len(names))
	}
	for _, n := range names {
		referenceSchema(t, n)
		if _, err := load(n); err != nil {
			t.Error(err)
		}
	}
}

// The evaluator and santhosh-tekuri/jsonschema agree on which bodies are
// valid: every corpus body and capture, and every body of testdata. Gemini
// is left out: its bodies are normalised first (snake_case, singletons),
// which a plain validator does not do.
func TestAgreesWithReferenceValidator(t *testing.T) {
	type body struct {
		provider, name string
		data           []byte
	}
	var bodies []body
	for _, m := range loadMutations(t) {
		bodies = append(bodies, body{m.provider, m.Base + " " + m.name, m.body})
	}
	for _, pattern := range []string{"invalid", "valid", "compatible"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern, "*", "*.json"))
		for _, f := range files {
			bodies = append(bodies, body{filepath.Base(filepath.Dir(f)), f, readFile(t, f)})
		}
	}
	if dir := filepath.Join("..", "..", "shared", "corpus"); isDir(dir) {
		for folder, provider := range exampleProvider {
			files, _ := filepath.Glob(filepath.Join(dir, "provider-examples", folder, "*.json"))
			for _, f := range files {
				data := readFile(t, f)
				if folder == "pi" {
					data = piBody(t, filepath.Base(f), data)
				}
				bodies = append(bodies, body{provider, f, data})
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "captures", "pi-0.73.1", "*.json"))
		for _, f := range files {
			bodies = append(bodies, body{captureProvider(filepath.Base(f)), f, readFile(t, f)})
		}
	}
	reference := map[string]*jsonschema.Schema{}
	checked := 0
	for _, b := range bodies {
		if b.provider == "gemini" {
			continue
		}
		ref := reference[b.provider]
		if ref == nil {
			ref = referenceSchema(t, b.provider)
			reference[b.provider] = ref
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(b.data))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		refErr := ref.Validate(v)
		errs, err := Validate(b.provider, b.data)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if (refErr == nil) != (len(errs) == 0) {
			t.Errorf("%s: reference validator says %v, ours %v", b.name, refErr, errs)
		}
		if refErr != nil && len(errs) > 0 {
			// Both reject: our pointers are among the reference's.
			var verr *jsonschema.ValidationError
			if ok := asValidationError(refErr, &verr); ok {
				locs := map[string]bool{}
				for _, l := range leaves(verr) {
					locs[l] = true
				}
				for _, e := range errs {
					if !locs[e.Pointer] && !locs[parentPointer(e.Pointer)] {
						t.Errorf("%s: %s not reported by the reference validator (%s)", b.name, e, strings.Join(sortedKeys(locs), " "))
					}
				}
			}
		}
		checked++
	}
	t.Logf("%d bodies checked against the reference validator", checked)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func asValidationError(err error, target **jsonschema.ValidationError) bool {
	v, ok := err.(*jsonschema.ValidationError)
	if ok {
		*target = v
	}
	return ok
}

// leaves returns the instance locations of every failure the reference
// validator found, alternatives included.
func leaves(e *jsonschema.ValidationError) []string {
	out := []string{e.InstanceLocation}
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func parentPointer(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
