package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/golden"
	"github.com/skillopt/skillopt/rules"
)

type allowOptions struct {
	Allow []string `toml:"allow" doc:"fields to accept"`
}

func (*allowOptions) Section() string { return "lint" }

// testRules describe the rules of the sample report for SARIF's table.
var testRules = []*rules.Rule{
	{ID: "SK017", Name: "name-matches-folder", Severity: rules.Error, Doc: "The name must match the folder. Loaders key skills by folder."},
	{ID: "SK030", Name: "unknown-field", Severity: rules.Warning, Doc: "Unknown frontmatter field.",
		Options: &allowOptions{Allow: []string{}}},
	{ID: "SO401", Name: "shape-preserved", Kind: rules.Invariant, Severity: rules.Error, Doc: "The envelope and provider shape are preserved."},
}

// sample is one result set with every kind of finding: a skill-file
// finding past an astral character (its UTF-16 column differs), capture
// findings with an exact position, with the position of the string holding
// an encoded body, and with a pointer only, an unlocated capture finding,
// one of each severity, and text every format must escape.
func sample() *Report {
	r := New("check", "1.2.3")
	valid, invalid := true, false
	r.Inputs = []Input{
		{Name: "captures/a.jsonl#2", File: "captures/a.jsonl", Envelope: "bare", Provider: "anthropic", Reason: "body shape", Valid: &invalid},
		{Name: "captures/h.har#1", File: "captures/h.har", Envelope: "har", Provider: "openai-responses", Reason: "url", Valid: &invalid},
		{Name: "captures/ok.json", File: "captures/ok.json", Envelope: "record", Provider: "gemini", Reason: "url", Valid: &valid},
	}
	r.Diagnostics = []Diagnostic{
		{Rule: "SK030", Severity: rules.Warning, Message: "unknown field \"owner\": move it under metadata", File: "skills/wrong,name/SKILL.md", Line: 4, Column: 1, Column16: 1},
		{Rule: "SK017", Severity: rules.Error, Message: "name \"right-name\" does not match its folder \"wrong,name\"", File: "skills/wrong,name/SKILL.md", Line: 2, Column: 9, Column16: 10},
		{Rule: "schema", Severity: rules.Error, Message: "want integer, got string \"100%\"\nsee <docs> | `max_tokens` *now*", File: "captures/a.jsonl", Capture: "captures/a.jsonl#2", Pointer: "/max_tokens", Line: 2, Column: 27, Column16: 28, Offset: 140, Exact: true},
		{Rule: "schema", Severity: rules.Error, Message: "missing property \"model\"", File: "captures/h.har", Capture: "captures/h.har#1", Pointer: "", Line: 9, Column: 21, Offset: 310, Exact: false},
		{Rule: "SO401", Severity: rules.Info, Message: "tool \"a,b:c\" is deferred", File: "captures/ok.json", Capture: "captures/ok.json", Pointer: "/tools/0"},
		{Rule: "SO999", Severity: rules.Warning, Message: "a capture found nowhere", Capture: "<stdin>#3", Pointer: "/a~1b"},
		// An exact duplicate is dropped.
		{Rule: "SK030", Severity: rules.Warning, Message: "unknown field \"owner\": move it under metadata", File: "skills/wrong,name/SKILL.md", Line: 4, Column: 1, Column16: 1},
	}
	r.Summary.Captures = Count(3)
	r.Summary.Invariants = Count(12)
	r.Summary.Pipeline = Count(2)
	r.Incomplete = true
	cfg := "skillopt.toml"
	r.Config = &cfg
	r.Finish()
	return r
}

var sampleOpts = Options{Root: "/repo", Rules: testRules}

// TestGolden renders the sample in every format against its golden file
// (go test ./internal/report -update rewrites them).
func TestGolden(t *testing.T) {
	cases := []struct {
		name, format string
		opts         Options
	}{
		{"golden.text", "text", sampleOpts},
		{"golden-quiet-color.text", "text", Options{Quiet: true, Color: true}},
		{"golden.json", "json", sampleOpts},
		{"golden.markdown", "markdown", sampleOpts},
		{"golden.sarif", "sarif", sampleOpts},
		{"golden.github", "github", sampleOpts},
		{"golden-quiet.github", "github", Options{Quiet: true}},
	}
	for _, tc := range cases {
		var b bytes.Buffer
		if err := Write(&b, sample(), tc.format, tc.opts); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		golden.Check(t, filepath.Join("testdata", tc.name), b.Bytes())
	}
}

// TestReadRendersTheSame: a report written as JSON and read back renders
// exactly as the original in every format.
func TestReadRendersTheSame(t *testing.T) {
	orig := sample()
	var j bytes.Buffer
	if err := Write(&j, orig, "json", sampleOpts); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(j.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats {
		for _, opts := range []Options{sampleOpts, {Quiet: true, Color: true}} {
			var a, b bytes.Buffer
			if err := Write(&a, orig, format, opts); err != nil {
				t.Fatal(err)
			}
			if err := Write(&b, back, format, opts); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s after Read:\n%s\nwant:\n%s", format, b.String(), a.String())
			}
		}
	}
}

func TestReadRejects(t *testing.T) {
	var j bytes.Buffer
	if err := Write(&j, sample(), "json", sampleOpts); err != nil {
		t.Fatal(err)
	}
	good := j.String()
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "empty input"},
		{"truncated", good[:len(good)/2], "truncated"},
		{"not JSON", "tool: skillopt", "invalid character"},
		{"other tool", `{"tool":"other"}`, `tool "other"`},
		{"unknown field", strings.Replace(good, `"tool"`, `"tools": 1, "tool"`, 1), "unknown field"},
		{"unknown diagnostic field", strings.Replace(good, `"rule": "SK017"`, `"rule": "SK017", "col": 3`, 1), "unknown field"},
		{"bad severity", strings.Replace(good, `"severity": "error"`, `"severity": "fatal"`, 1), `unknown severity "fatal"`},
		{"severity alias", strings.Replace(good, `"severity": "warning"`, `"severity": "warn"`, 1), `unknown severity "warn"`},
		{"line 0", strings.Replace(good, `"line": 2,`, `"line": 0,`, 1), "lines and columns start at 1"},
		{"bad pointer", strings.Replace(good, `"pointer": "/max_tokens"`, `"pointer": "max_tokens"`, 1), "does not start with /"},
		{"negative count", strings.Replace(good, `"errors": 3`, `"errors": -3`, 1), "negative count"},
		{"trailing data", good + "{}", "data after the report"},
		{"wrong type", strings.Replace(good, `"incomplete": true`, `"incomplete": "yes"`, 1), "cannot unmarshal"},
	} {
		if tc.data == good {
			t.Fatalf("%s: the replacement did not apply", tc.name)
		}
		_, err := Read(strings.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestFinish sorts by file and position, drops exact duplicates only and
// counts by severity.
func TestFinish(t *testing.T) {
	r := New("lint", "")
	d := func(file string, line int, rule, msg string, sev rules.Severity) Diagnostic {
		return Diagnostic{Rule: rule, Severity: sev, Message: msg, File: file, Line: line, Column: 1}
	}
	r.Diagnostics = []Diagnostic{
		d("b.md", 1, "SK1", "x", rules.Error),
		d("a.md", 10, "SK1", "x", rules.Info),
		d("a.md", 2, "SK2", "y", rules.Warning),
		d("a.md", 2, "SK1", "z", rules.Warning),
		d("a.md", 2, "SK1", "z", rules.Warning),
		d("a.md", 2, "SK1", "z", rules.Error),
	}
	r.Finish()
	var got []string
	for _, x := range r.Diagnostics {
		got = append(got, where(x)+" "+x.Rule+" "+x.Severity.String()+" "+x.Message)
	}
	want := []string{"a.md:2:1 SK1 error z", "a.md:2:1 SK1 warning z", "a.md:2:1 SK2 warning y", "a.md:10:1 SK1 info x", "b.md:1:1 SK1 error x"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := r.Summary; s.Errors != 2 || s.Warnings != 2 || s.Info != 1 || !r.Failed() {
		t.Errorf("summary %+v", s)
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, sample(), "html", Options{}); err == nil {
		t.Error("no error for an unknown format")
	}
}

// TestGitHubEscaping: property values escape %, CR, LF, ':' and ','; the
// message escapes %, CR and LF only; '%' is never read as a format verb.
func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Rule: "SK017", Severity: rules.Error, Message: "a: b, c", File: "x,y:z.md", Line: 2, Column: 7},
			"::error file=x%2Cy%3Az.md,line=2,col=7,title=SK017::a: b, c"},
		{Diagnostic{Rule: "R%1", Severity: rules.Warning, Message: "100%d %s %25\r\nnext", File: "a%b.md", Line: 1, Column: 1},
			"::warning file=a%25b.md,line=1,col=1,title=R%251::100%25d %25s %2525\\r%0Anext"},
		{Diagnostic{Rule: "SO401", Severity: rules.Info, Message: "m", File: "c.json", Capture: "c.json", Pointer: "/a"},
			"::notice file=c.json,title=SO401::/a: m"},
		{Diagnostic{Rule: "SO401", Severity: rules.Info, Message: "m", Capture: "<stdin>#2"},
			"::notice title=SO401::<stdin>#2: m"},
	} {
		if got := annotation(tc.d); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// TestSourcePos: lines end at \n; columns count code points and UTF-16
// units; offsets past the end are clamped.
func TestSourcePos(t *testing.T) {
	s := NewSource([]byte("ab\n\"é😀x\"\r\n\n"))
	for _, tc := range []struct{ off, line, col, col16 int }{
		{0, 1, 1, 1}, {2, 1, 3, 3}, {3, 2, 1, 1}, {4, 2, 2, 2}, {6, 2, 3, 3}, {10, 2, 4, 5}, {11, 2, 5, 6},
		{13, 2, 7, 8}, {14, 3, 1, 1}, {99, 4, 1, 1}, {-1, 1, 1, 1},
	} {
		line, col, col16 := s.Pos(tc.off)
		if line != tc.line || col != tc.col || col16 != tc.col16 {
			t.Errorf("offset %d: %d:%d (utf16 %d), want %d:%d (%d)", tc.off, line, col, col16, tc.line, tc.col, tc.col16)
		}
	}
}

func TestColumn16(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	if err := os.WriteFile(p, []byte("\ufeffa😀b\r\nx😀😀y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var f Files
	for _, tc := range []struct{ line, col, want int }{{1, 1, 1}, {1, 2, 2}, {1, 3, 4}, {2, 4, 6}, {2, 9, 11}, {3, 5, 5}, {1, 0, 1}} {
		if got := f.Column16(p, tc.line, tc.col); got != tc.want {
			t.Errorf("%d:%d → %d, want %d", tc.line, tc.col, got, tc.want)
		}
	}
	if got := f.Column16(filepath.Join(dir, "missing"), 1, 3); got != 3 {
		t.Errorf("missing file: %d", got)
	}
}

// Columns asked in any order, on one line or another, convert as a fresh
// conversion does (each line is read once when they come in order).
func TestColumn16Order(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	line := strings.Repeat("a😀\xffé", 50)
	if err := os.WriteFile(p, []byte(line+"\n"+line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var f Files
	for _, q := range [][2]int{{1, 1}, {1, 7}, {1, 7}, {1, 90}, {1, 5}, {2, 3}, {1, 200}, {1, 201}, {1, 250}, {2, 250}, {1, 2}} {
		var fresh Files
		if got, want := f.Column16(p, q[0], q[1]), fresh.Column16(p, q[0], q[1]); got != want {
			t.Errorf("%d:%d → %d, want %d", q[0], q[1], got, want)
		}
	}
	var fresh Files
	if got := fresh.Column16(p, 1, 5); got != 6 {
		t.Errorf("1:5 → %d, want 6", got)
	}
}

func TestLineSortsAndFlattens(t *testing.T) {
	valid := false
	in := Input{Name: "a.json", File: "a.json", Provider: "anthropic", Valid: &valid}
	d := Diagnostic{Rule: "SO501", Severity: rules.Error, Message: "bad name", File: "a.json", Capture: "a.json", Pointer: "/tools/0/name", Line: 3, Column: 5, Column16: 5}
	early := d
	early.Line, early.Column, early.Column16 = 1, 2, 2
	b, err := json.Marshal(NewLine(in, []Diagnostic{d, early, d}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"a.json","file":"a.json","provider":"anthropic","valid":false,"diagnostics":[` +
		`{"rule":"SO501","severity":"error","file":"a.json","capture":"a.json","pointer":"/tools/0/name","line":1,"column":2,"offset":0,"exact":false,"message":"bad name"},` +
		`{"rule":"SO501","severity":"error","file":"a.json","capture":"a.json","pointer":"/tools/0/name","line":3,"column":5,"offset":0,"exact":false,"message":"bad name"}]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if b, _ := json.Marshal(NewLine(in, nil)); !bytes.Contains(b, []byte(`"diagnostics":[]`)) {
		t.Fatalf("no diagnostics is not an empty list: %s", b)
	}
}
