package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/config"
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

func validate(t *testing.T, s *jsonschema.Schema, log *Log) error {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, log); err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// TestLintLogValidates lints a tree with findings in ASCII and astral-plane
// text and checks the log against the official schema: relative URIs under
// %SRCROOT%, UTF-16 columns of at least 1, a rule table with help text.
func TestLintLogValidates(t *testing.T) {
	schema := compileSchema(t)
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wrong name/SKILL.md", "---\nname: right-name\ndescription: \"😀😀 <x>\"\nextra: 1\n---\n😀 See [x](missing file.md).\n")
	write("ok/SKILL.md", "---\nname: ok\ndescription: Fine.\n---\nBody.\n")
	rep, err := catalog.Lint(catalog.LintOptions{Paths: []string{root}, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Diagnostics) < 3 {
		t.Fatalf("want findings, got %v", rep.Diagnostics)
	}
	log := Build("skillopt", "test", "", FromRules(catalog.LintRules()), FromDiagnostics(rep.Diagnostics), root)
	if err := validate(t, schema, log); err != nil {
		t.Fatalf("log does not validate: %v", err)
	}
	run := log.Runs[0]
	if run.OriginalURIBaseIDs[SrcRoot].URI != FileURI(root)+"/" {
		t.Errorf("base %v", run.OriginalURIBaseIDs)
	}
	found := false
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URIBaseID != SrcRoot || strings.HasPrefix(loc.ArtifactLocation.URI, "/") {
			t.Errorf("not a relative URI: %+v", loc.ArtifactLocation)
		}
		if loc.Region.StartColumn < 1 || loc.Region.StartLine < 1 {
			t.Errorf("region %+v", loc.Region)
		}
		if r.RuleIndex < 0 || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("rule index %d for %s", r.RuleIndex, r.RuleID)
		}
		// The link after "😀 See [x](" starts at code point 11, UTF-16 unit 12.
		if r.RuleID == "SK043" {
			found = true
			if loc.ArtifactLocation.URI != "wrong%20name/SKILL.md" || loc.Region.StartLine != 6 || loc.Region.StartColumn != 12 {
				t.Errorf("SK043 at %s %+v", loc.ArtifactLocation.URI, loc.Region)
			}
		}
	}
	if !found {
		t.Error("no SK043 result")
	}
	for _, d := range run.Tool.Driver.Rules {
		if d.Help == nil || d.Help.Text == "" || d.ShortDescription.Text == "" {
			t.Errorf("rule %s has no help", d.ID)
		}
	}
}

// TestSchemaRejects makes sure the validation can fail.
func TestSchemaRejects(t *testing.T) {
	schema := compileSchema(t)
	good := Build("skillopt", "", "", nil, []Finding{{Rule: "SK001", Severity: "error", File: "/x/y.md", Line: 1, Column: 1, Message: "m"}}, "")
	if err := validate(t, schema, good); err != nil {
		t.Fatalf("minimal log: %v", err)
	}
	bad := Build("skillopt", "", "", nil, []Finding{{Rule: "SK001", Severity: "error", File: "/x/y.md", Line: 1, Column: 1, Message: "m"}}, "")
	bad.Runs[0].Results[0].Locations[0].PhysicalLocation.Region.StartColumn = 0
	if err := validate(t, schema, bad); err == nil {
		t.Error("column 0 validated")
	}
	bad = Build("skillopt", "", "", nil, nil, "")
	bad.Version = "2.0.0"
	if err := validate(t, schema, bad); err == nil {
		t.Error("version 2.0.0 validated")
	}
}

func TestColumn16(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	if err := os.WriteFile(p, []byte("\ufeffa😀b\r\nx😀😀y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var l Lines
	for _, tc := range []struct{ line, col, want int }{{1, 1, 1}, {1, 2, 2}, {1, 3, 4}, {2, 4, 6}, {2, 9, 11}, {3, 5, 5}} {
		if got := l.Column16(p, tc.line, tc.col); got != tc.want {
			t.Errorf("%d:%d → %d, want %d", tc.line, tc.col, got, tc.want)
		}
	}
	if got := l.Column16(filepath.Join(dir, "missing"), 1, 3); got != 3 {
		t.Errorf("missing file: %d", got)
	}
}
