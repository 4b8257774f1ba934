package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/skillopt/skillopt/rules"
)

// The official SARIF 2.1.0 schema (OASIS, errata 01), as published in the
// oasis-tcs/sarif-spec repository (Schemata/sarif-schema-2.1.0.json).
const schemaFile = "testdata/sarif-schema-2.1.0.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft4
	c.AssertFormat = true
	if err := c.AddResource("sarif.json", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sarifOf renders r as SARIF and decodes it.
func sarifOf(t *testing.T, r *Report, opts Options) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, "sarif", opts); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSARIFValidates checks the sample's log and a log of real files with
// astral-plane text against the official schema: relative URIs under
// %SRCROOT%, UTF-16 columns of at least 1, a rule table with help text.
func TestSARIFValidates(t *testing.T) {
	schema := compileSchema(t)
	if err := schema.Validate(sarifOf(t, sample(), sampleOpts)); err != nil {
		t.Fatalf("sample log does not validate: %v", err)
	}

	root := t.TempDir()
	dir := filepath.Join(root, "wrong name")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: x\n---\n😀 See [x](missing file.md).\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New("lint", "test")
	r.Diagnostics = []Diagnostic{
		// The link after "😀 See [x](" starts at code point 11, UTF-16 unit 12.
		{Rule: "SK043", Severity: rules.Warning, Message: "broken link", File: filepath.Join(dir, "SKILL.md"), Line: 4, Column: 11},
		{Rule: "SK017", Severity: rules.Error, Message: "outside", File: "/elsewhere/SKILL.md", Line: 0, Column: 0},
	}
	r.SetColumns16(&Files{})
	r.Finish()
	v := sarifOf(t, r, Options{Root: root, Rules: testRules})
	if err := schema.Validate(v); err != nil {
		t.Fatalf("log does not validate: %v", err)
	}
	var out bytes.Buffer
	Write(&out, r, "sarif", Options{Root: root, Rules: testRules})
	for _, want := range []string{
		`"uri": "` + fileURI(root) + `/"`,
		`"uri": "wrong%20name/SKILL.md"`,
		`"uriBaseId": "%SRCROOT%"`,
		`"startLine": 4,`,
		`"startColumn": 12`,
		`"uri": "file:///elsewhere/SKILL.md"`,
		`"help": {`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, out.String())
		}
	}
}

// TestSARIFSchemaRejects makes sure the validation can fail.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := compileSchema(t)
	r := New("lint", "")
	r.Diagnostics = []Diagnostic{{Rule: "SK001", Severity: rules.Error, File: "/x/y.md", Line: 1, Column: 1, Message: "m"}}
	v := sarifOf(t, r, Options{})
	if err := schema.Validate(v); err != nil {
		t.Fatalf("minimal log: %v", err)
	}
	run := v["runs"].([]any)[0].(map[string]any)
	region := run["results"].([]any)[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
	region["startColumn"] = 0
	if err := schema.Validate(v); err == nil {
		t.Error("column 0 validated")
	}
	v = sarifOf(t, r, Options{})
	v["version"] = "2.0.0"
	if err := schema.Validate(v); err == nil {
		t.Error("version 2.0.0 validated")
	}
}

// TestArtifact: relative names are relative to the root; files outside it
// get absolute file URIs; segments are percent-encoded.
func TestArtifact(t *testing.T) {
	for _, tc := range []struct{ root, file, uri, base string }{
		{"/repo", "a b/SKILL.md", "a%20b/SKILL.md", SrcRoot},
		{"/repo", "/repo/x/%.json", "x/%25.json", SrcRoot},
		{"/repo", "../other/c.json", "file:///other/c.json", ""},
		{"/repo", "/repo", ".", SrcRoot},
		{"/repo", "/repository/c.json", "file:///repository/c.json", ""},
	} {
		got := artifact(tc.root, tc.file)
		if got.URI != tc.uri || got.URIBaseID != tc.base {
			t.Errorf("artifact(%q, %q) = %+v, want %s %s", tc.root, tc.file, got, tc.uri, tc.base)
		}
	}
}

type demoOptions struct {
	Budget int `toml:"budget" doc:"how much"`
}

func (*demoOptions) Section() string { return "demo" }

// TestDescriptorOptions: a rule's help lists its own options, or what
// OptionsOf says the rule reads.
func TestDescriptorOptions(t *testing.T) {
	r := &rules.Rule{ID: "SK999", Name: "demo-rule", Doc: "Demo.", Options: &demoOptions{Budget: 7}}
	if md := descriptor(r.ID, r, nil).Help.Markdown; !strings.Contains(md, "| `demo.budget` | `7` | how much |") {
		t.Errorf("own options missing:\n%s", md)
	}
	reads := func(*rules.Rule) []rules.Option {
		return []rules.Option{{Section: "lint", Key: "profile", Default: `"default"`, Doc: "the profile"}}
	}
	if md := descriptor(r.ID, r, reads).Help.Markdown; !strings.Contains(md, "| `lint.profile` | `\"default\"` | the profile |") || strings.Contains(md, "demo.budget") {
		t.Errorf("options from OptionsOf missing:\n%s", md)
	}
}
