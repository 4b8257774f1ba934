package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
)

// refDir returns the official descriptions next to the repository, skipping
// the test when they are absent.
func refDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "shared", "reference", "providers")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("official API descriptions not found at %s: generated schemas not checked", dir)
	}
	return dir
}

// The embedded schemas are what the generator makes of the official
// descriptions: editing a generated file, or a patch without regenerating,
// fails here (go test ./internal/cmd/genschemas -update regenerates them).
func TestGeneratedSchemasUpToDate(t *testing.T) {
	files, err := Generate(refDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		golden.Check(t, filepath.Join("..", "..", "..", "schemas", name), data)
	}
	if len(files) != len(shapes) {
		t.Errorf("%d files for %d shapes", len(files), len(shapes))
	}
}

// BetaCreateMessageParams stands for both Anthropic request schemas only if
// it accepts everything CreateMessageParams does: every schema of the
// non-beta closure has a Beta twin with at least its properties, enum
// values and alternatives.
func TestAnthropicBetaSuperset(t *testing.T) {
	sp, err := loadSpec(refDir(t), "anthropic/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	closure := func(root string) map[string]bool {
		seen := map[string]bool{}
		var walk func(x any)
		walk = func(x any) {
			switch v := x.(type) {
			case obj:
				for k, e := range v {
					if r, ok := e.(string); ok && k == "$ref" && strings.HasPrefix(r, componentPrefix) {
						n := strings.TrimPrefix(r, componentPrefix)
						if !seen[n] {
							seen[n] = true
							walk(sp.schemas[n])
						}
						continue
					}
					walk(e)
				}
			case []any:
				for _, e := range v {
					walk(e)
				}
			}
		}
		seen[root] = true
		walk(sp.schemas[root])
		return seen
	}
	beta := closure("BetaCreateMessageParams")
	for name := range closure("CreateMessageParams") {
		twin := "Beta" + name
		if !beta[twin] {
			if name == "Model" { // shared by both
				continue
			}
			t.Errorf("%s has no %s in the beta closure", name, twin)
			continue
		}
		for _, fact := range facts(sp.schemas[name]) {
			if !contains(facts(sp.schemas[twin]), fact) {
				t.Errorf("%s allows %s, %s does not", name, fact, twin)
			}
		}
	}
}

// facts lists what a schema allows: property names, enum and const values
// and referenced schemas (without the Beta prefix), by path.
func facts(x any) []string {
	var out []string
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch v := x.(type) {
		case obj:
			for k, e := range v {
				switch {
				case k == "description" || k == "title" || k == "examples" || k == "discriminator" || strings.HasPrefix(k, "x-"):
				case k == "properties":
					for p, ps := range e.(obj) {
						out = append(out, path+"/properties/"+p)
						walk(path+"/properties/"+p, ps)
					}
				case k == "$ref":
					out = append(out, path+" ref "+strings.Replace(e.(string), componentPrefix+"Beta", componentPrefix, 1))
				case k == "enum":
					for _, val := range e.([]any) {
						b, _ := json.Marshal(val)
						out = append(out, path+" enum "+string(b))
					}
				case k == "const":
					b, _ := json.Marshal(e)
					out = append(out, path+" const "+string(b))
				case k == "anyOf" || k == "oneOf":
					// Alternatives are compared as a set (order may differ).
					for _, alt := range e.([]any) {
						walk(path+"/alt", alt)
					}
				default:
					walk(path+"/"+k, e)
				}
			}
		case []any:
			for _, e := range v {
				walk(path, e)
			}
		}
	}
	walk("", x)
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

func TestConvert(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"annotations go, property names stay",
			`{"type":"object","title":"T","description":"d","x-stainless":1,"default":{},"examples":[1],"properties":{"title":{"type":"string","format":"byte"},"description":{"type":"string","deprecated":true}}}`,
			`{"properties":{"description":{"type":"string"},"title":{"type":"string"}},"type":"object"}`},
		{"nullable type",
			`{"type":"integer","nullable":true}`,
			`{"type":["integer","null"]}`},
		{"nullable enum",
			`{"type":"string","enum":["a","b"],"nullable":true}`,
			`{"enum":["a","b",null],"type":["string","null"]}`},
		{"nullable reference",
			`{"$ref":"#/components/schemas/B","nullable":true}`,
			`{"anyOf":[{"$ref":"#/$defs/B"},{"type":"null"}]}`},
		{"oneOf with discriminator",
			`{"oneOf":[{"$ref":"#/components/schemas/B"},{"type":"string"}],"discriminator":{"propertyName":"type"}}`,
			`{"anyOf":[{"$ref":"#/$defs/B"},{"type":"string"}]}`},
		{"single alternative",
			`{"anyOf":[{"oneOf":[{"$ref":"#/components/schemas/B"}]}]}`,
			`{"$ref":"#/$defs/B"}`},
		{"nested alternatives flatten",
			`{"anyOf":[{"anyOf":[{"type":"string"},{"type":"number"}]},{"type":"null"}]}`,
			`{"anyOf":[{"type":"string"},{"type":"number"},{"type":"null"}]}`},
		{"known names of an open string",
			`{"anyOf":[{"type":"string"},{"const":"m-1","type":"string"},{"enum":["m-2"]}]}`,
			`{"type":"string"}`},
		{"recursive reference",
			`{"type":"object","properties":{"filters":{"items":{"oneOf":[{"$ref":"#/components/schemas/B"},{"$recursiveRef":"#"}]}}},"$recursiveAnchor":true}`,
			`{"properties":{"filters":{"items":{"anyOf":[{"$ref":"#/$defs/B"},{"$ref":"#/$defs/A"}]}}},"type":"object"}`},
		{"empty additionalProperties",
			`{"type":"object","additionalProperties":{}}`,
			`{"additionalProperties":true,"type":"object"}`},
		{"boolean exclusive minimum",
			`{"type":"number","minimum":0,"exclusiveMinimum":true}`,
			`{"exclusiveMinimum":0,"type":"number"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGen(t, `{"A":`+c.in+`,"B":{"type":"object"}}`, false)
			name, err := g.include("A")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(g.defs[name])
			if string(got) != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestConvertRequiredFromDescriptions(t *testing.T) {
	g := testGen(t, `{"A":{"type":"object","properties":{"a":{"type":"string","description":"Required. The a."},"b":{"type":"string","description":"Optional. The b."}}}}`, true)
	if _, err := g.include("A"); err != nil {
		t.Fatal(err)
	}
	if got := g.defs["A"].(obj)["required"]; !reflect.DeepEqual(got, []any{"a"}) {
		t.Errorf("required = %v", got)
	}
}

func TestConvertErrors(t *testing.T) {
	for name, schemas := range map[string]string{
		"unknown keyword":     `{"A":{"type":"object","dependentRequired":{"a":["b"]}}}`,
		"external reference":  `{"A":{"$ref":"other.json#/x"}}`,
		"missing reference":   `{"A":{"$ref":"#/components/schemas/Nope"}}`,
		"other recursive ref": `{"A":{"$recursiveRef":"#/x"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			g := testGen(t, schemas, false)
			if _, err := g.include("A"); err == nil {
				t.Error("no error")
			}
		})
	}
}

// A patch whose target is not in the spec any more fails instead of doing
// nothing.
func TestPatchTargetsMustExist(t *testing.T) {
	ops := map[string]func(*gen) error{
		"setKeys":       setKeys("A/properties/nope", obj{"pattern": "x"}),
		"addProperties": addProperties("A", obj{"a": obj{}}),
		"require":       require("A", "a"),
		"unrequire":     unrequire("A", "b"),
		"addEnum":       addEnum("A/properties/a", "x"),
		"addBranches":   addBranches("A", obj{}),
		"addDefs":       addDefs(obj{"A": obj{}}),
		"copyDef":       copyDef("Nope", "C", nil),
		"mergeAllOf":    mergeAllOf("Nope"),
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			g := testGen(t, `{"A":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}}`, false)
			if _, err := g.include("A"); err != nil {
				t.Fatal(err)
			}
			if err := op(g); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestMergeAllOfAndClose(t *testing.T) {
	g := testGen(t, `{
	  "A":{"allOf":[{"$ref":"#/components/schemas/B"},{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}]},
	  "B":{"type":"object","properties":{"b":{"type":"integer"},"m":{"type":"object","properties":{}}},"required":["b"]}}`, false)
	if _, err := g.include("A"); err != nil {
		t.Fatal(err)
	}
	if err := mergeAllOf("A")(g); err != nil {
		t.Fatal(err)
	}
	closeObjects(g.defs)
	got, _ := json.Marshal(g.defs)
	want := `{"A":{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":"integer"},"m":{"properties":{},"type":"object"}},"required":["b","a"],"type":"object"},` +
		`"B":{"additionalProperties":false,"properties":{"b":{"type":"integer"},"m":{"properties":{},"type":"object"}},"required":["b"],"type":"object"}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func testGen(t *testing.T, schemas string, requiredFromDescriptions bool) *gen {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(schemas))
	dec.UseNumber()
	var m obj
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	sh := &shape{name: "test", rename: same, requiredFromDescriptions: requiredFromDescriptions}
	return &gen{shape: sh, spec: &spec{path: "test.json", schemas: m}, defs: obj{}, names: map[string]bool{}}
}

// Every patch says what it changes and why.
func TestPatchTable(t *testing.T) {
	var b bytes.Buffer
	printPatches(&b)
	for _, sh := range shapes {
		for _, p := range sh.patches {
			if len(p.what) < 10 || len(p.why) < 20 || p.apply == nil {
				t.Errorf("%s: patch %q lacks a description, a reason or an operation", sh.name, p.what)
			}
		}
		if !strings.Contains(b.String(), sh.name+" (") {
			t.Errorf("%s missing from the printed table", sh.name)
		}
	}
	for _, c := range conversions {
		if !strings.Contains(b.String(), c.what) || len(c.why) < 20 {
			t.Errorf("conversion %q missing or without a reason", c.what)
		}
	}
}
