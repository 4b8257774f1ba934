package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/internal/ruleset"
)

// reportInputs writes a skill tree and captures with findings (astral
// characters before them, so UTF-16 columns differ) into the working
// directory and returns the runs that report on them.
func reportInputs(t *testing.T) [][]string {
	t.Helper()
	files := map[string]string{
		"skills/wrong-name/SKILL.md": "---\nname: right-name\ndescription: \"😀 x\"\nowner: me\n---\n😀 See [x](missing.md).\n",
		"bad.json":                   "{\"model\":\"m\",\"messages\":[],\n \"system\":\"é😀\",\"max_tokens\":\"lots\",\"top_k\":\"k\"}\n",
		"record.json":                `{"url":"https://api.anthropic.com/v1/messages","body":"{\"model\":\"m\",\"max_tokens\":\"x\",\"messages\":[]}"}`,
		"fail-open.json":             "",
	}
	open, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "SO201", "fail-open-thanks", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	files["fail-open.json"] = string(open)
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return [][]string{
		{"lint", "--no-cache", "skills"},
		{"validate", "bad.json", "record.json", "missing.json"},
		{"check", "--rules", "SO201", "fail-open.json", "bad.json"},
	}
}

// TestReportFormats runs each reporting command in every format. The SARIF
// logs validate against the official schema; the JSON report, read back
// with report.Read, renders byte for byte what the command printed in
// every other format; and the exit code is the same for every format.
func TestReportFormats(t *testing.T) {
	schemaData, err := os.ReadFile(filepath.Join("..", "..", "internal", "report", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft4
	if err := c.AddResource("sarif.json", bytes.NewReader(schemaData)); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	runs := reportInputs(t)
	wd, _ := os.Getwd()
	for _, args := range runs {
		name := args[0]
		out := map[string]string{}
		codes := map[int][]string{}
		for _, format := range report.Formats {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"skillopt", "--format", format}, args...), nil, &stdout, &stderr)
			codes[code] = append(codes[code], format)
			out[format] = stdout.String()
			if strings.Contains(stderr.String(), "internal error") {
				t.Fatalf("%s %s: %s", name, format, stderr.String())
			}
		}
		if len(codes) != 1 {
			t.Errorf("%s: exit codes differ by format: %v", name, codes)
		}
		var v any
		if err := json.Unmarshal([]byte(out["sarif"]), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: SARIF does not validate: %v", name, err)
		}
		if !strings.Contains(out["sarif"], `"startColumn"`) {
			t.Errorf("%s: SARIF without a position:\n%s", name, out["sarif"])
		}
		rep, err := report.Read(strings.NewReader(out["json"]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rep.Diagnostics) == 0 {
			t.Fatalf("%s: no findings to compare", name)
		}
		for _, format := range report.Formats {
			var b bytes.Buffer
			if err := report.Write(&b, rep, format, report.Options{Root: wd, Rules: ruleset.All(), OptionsOf: ruleset.Registry().OptionsOf}); err != nil {
				t.Fatal(err)
			}
			if b.String() != out[format] {
				t.Errorf("%s: %s rendered from the JSON report:\n%s\nprinted:\n%s", name, format, b.String(), out[format])
			}
		}
	}
}
