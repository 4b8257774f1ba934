package schemas

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/capture"
)

func TestCompileErrors(t *testing.T) {
	cases := map[string]string{
		"not JSON":            `{"type":`,
		"not a schema":        `[1]`,
		"unknown keyword":     `{"dependentRequired":{"a":["b"]}}`,
		"unknown type":        `{"type":"float"}`,
		"array items":         `{"items":[{"type":"string"}]}`,
		"external reference":  `{"$ref":"other.json"}`,
		"unresolved":          `{"$ref":"#/$defs/nope"}`,
		"self reference":      `{"$ref":"#"}`,
		"cycle through allOf": `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`,
		"bad pattern":         `{"pattern":"("}`,
		"negative length":     `{"minLength":-1}`,
		"zero multipleOf":     `{"multipleOf":0}`,
		"empty anyOf":         `{"anyOf":[]}`,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := compileDoc("test", []byte(doc), ""); err == nil {
				t.Errorf("%s compiled", doc)
			}
		})
	}
	// Recursion that goes one level into the value is fine.
	if _, err := compileDoc("test", []byte(`{"properties":{"a":{"$ref":"#"}},"items":{"$ref":"#"}}`), ""); err != nil {
		t.Error(err)
	}
}

// validateWith runs a schema document over a body.
func validateWith(t *testing.T, schemaDoc, body string) []pm {
	t.Helper()
	s, err := compileDoc("test", []byte(schemaDoc), "")
	if err != nil {
		t.Fatal(err)
	}
	d, err := capture.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	e := &evaluator{d: d}
	var out []Error
	for _, l := range e.eval(s[0], vnode{}) {
		out = append(out, e.render(l)...)
	}
	return project(finish(out))
}

func TestDiscriminatedUnion(t *testing.T) {
	schema := `{"type":"array","items":{"anyOf":[
	  {"type":"object","required":["type","text"],"additionalProperties":false,
	   "properties":{"type":{"const":"text"},"text":{"type":"string","minLength":1}}},
	  {"type":"object","required":["type","id"],"additionalProperties":false,
	   "properties":{"type":{"const":"call"},"id":{"type":"string"},"name":{"const":"search"}}},
	  {"type":"object","required":["name"],"additionalProperties":false,
	   "properties":{"type":{"anyOf":[{"type":"null"},{"const":"custom"}]},"name":{"type":"string"},"input":{"type":"object"}}}
	]}}`
	cases := []struct {
		body string
		want []pm
	}{
		{`[{"type":"text","text":"hi"},{"type":"call","id":"1"},{"name":"f"},{"type":null,"name":"g"}]`, []pm{}},
		// The alternative the type names is the one reported.
		{`[{"type":"text","text":""}]`, []pm{{"/0/text", "text must be at least 1 character long"}}},
		{`[{"type":"call","id":"1","name":"lookup"}]`, []pm{{"/0/name", `name must be "search", got "lookup"`}}},
		// A type no alternative has is reported at the type, with all types.
		{`[{"type":"txt","text":"hi"}]`, []pm{{"/0/type", `type "txt" is not one of text, call, custom`}}},
		// Without type, only the alternative that allows that is tried.
		{`[{"name":"f","input":[]}]`, []pm{{"/0/input", "input must be object, got array"}}},
		// Other kinds of value are checked against every alternative.
		{`[{"type":5}]`, []pm{{"/0/type", "type must be string or null, got number 5"}}},
	}
	for _, c := range cases {
		if got := validateWith(t, schema, c.body); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.body, got, c.want)
		}
	}
}

func TestStringChecks(t *testing.T) {
	cases := []struct {
		schema, body string
		want         []pm
	}{
		{`{"pattern":"\\S"}`, `"  \n\t"`, []pm{{"", "body must contain non-whitespace text"}}},
		{`{"pattern":"\\S"}`, `" \u0020\u000a\f\r"`, []pm{{"", "body must contain non-whitespace text"}}},
		{`{"pattern":"\\S"}`, `" \u0041"`, []pm{}},
		{`{"pattern":"\\S"}`, `"\"\\"`, []pm{}},
		{`{"pattern":"\\S"}`, `"\u00a0"`, []pm{}}, // \S is ASCII: U+00A0 is not in [\t\n\f\r ]
		{`{"minLength":3}`, `"\ud83d\ude00\ud83d\ude00"`, []pm{{"", "body must be at least 3 characters long"}}},
		{`{"minLength":2}`, `"` + strings.Repeat(`\u00e9`, 50) + `"`, []pm{}},
		{`{"maxLength":3}`, `"\u00e9\u00e9\u00e9"`, []pm{}},
		{`{"maxLength":3}`, `"abcd"`, []pm{{"", "body must be at most 3 characters long"}}},
		// A length failure is reported instead of the pattern saying the same.
		{`{"maxLength":3,"pattern":"^[a-z]{1,3}$"}`, `"abcd"`, []pm{{"", "body must be at most 3 characters long"}}},
		{`{"maxLength":3,"pattern":"^[a-z]{1,3}$"}`, `"a-c"`, []pm{{"", `body "a-c" does not match pattern ^[a-z]{1,3}$`}}},
	}
	for _, c := range cases {
		if got := validateWith(t, c.schema, c.body); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s on %s:\n got %v\nwant %v", c.schema, c.body, got, c.want)
		}
	}
}

func TestPropertyNames(t *testing.T) {
	got := validateWith(t, `{"propertyNames":{"maxLength":3,"pattern":"^[a-z]+$"}}`, `{"abcd":1,"A":2,"ok":3}`)
	want := []pm{
		{"/A", `property name "A" does not match pattern ^[a-z]+$`},
		{"/abcd", `property name "abcd" must be at most 3 characters long`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestUnion(t *testing.T) {
	cases := []struct{ a, b, want []int }{
		{nil, nil, nil},
		{[]int{1, 3}, nil, []int{1, 3}},
		{nil, []int{2}, []int{2}},
		{[]int{1, 3, 5}, []int{2, 3, 6}, []int{1, 2, 3, 5, 6}},
	}
	for _, c := range cases {
		if got := union(c.a, c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("union(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// Gemini enum values match in any case, as Google's parser reads them.
func TestGeminiEnumCase(t *testing.T) {
	body := `{"contents":[{"role":"USER","parts":[{"text":"hi"}]}],"toolConfig":{"functionCallingConfig":{"mode":"any"}}}`
	errs, err := Validate("gemini", []byte(body))
	if err != nil || len(errs) != 0 {
		t.Errorf("%v %v", errs, err)
	}
	errs, _ = Validate("gemini", []byte(`{"contents":[{"role":"assistant","parts":[{"text":"hi"}]}]}`))
	if len(errs) != 1 || errs[0].Pointer != "/contents/0/role" {
		t.Errorf("got %v", errs)
	}
}
