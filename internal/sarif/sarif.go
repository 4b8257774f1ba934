// Package sarif writes SARIF 2.1.0 logs (the Static Analysis Results
// Interchange Format read by code-scanning services) from file:line:col
// diagnostics.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/rules"
)

// maxSourceBytes bounds a source file read for UTF-16 columns (the lint's
// limit on skill and agent files).
const maxSourceBytes = 16 << 20

// Version and SchemaURI identify SARIF 2.1.0.
const (
	Version   = "2.1.0"
	SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// SrcRoot is the base of relative artifact URIs.
	SrcRoot = "%SRCROOT%"
)

// Log is a SARIF log file.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of one tool.
type Run struct {
	Tool               Tool                        `json:"tool"`
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	// ColumnKind says how columns count: UTF-16 code units.
	ColumnKind string   `json:"columnKind"`
	Results    []Result `json:"results"`
}

// Tool describes the analysis tool.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's main component and its rules.
type Driver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri,omitempty"`
	Rules          []Descriptor `json:"rules"`
}

// Descriptor describes one rule.
type Descriptor struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     *Message       `json:"shortDescription,omitempty"`
	FullDescription      *Message       `json:"fullDescription,omitempty"`
	Help                 *Message       `json:"help,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
}

// Configuration is a rule's default reporting configuration.
type Configuration struct {
	Level string `json:"level"`
}

// Message is plain text, optionally with a Markdown rendering.
type Message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Result is one finding.
type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Message    `json:"message"`
	Locations []Location `json:"locations"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation names a file by URI, relative to a base when UriBaseID
// is set.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a start position; lines and columns are 1-based, columns in
// UTF-16 code units.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// Level maps a severity name to a SARIF level.
func Level(severity string) string {
	switch severity {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "note"
}

// Write encodes the log as indented JSON without HTML escaping.
func Write(w io.Writer, log *Log) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// Artifact returns the location of a file: relative to root (with the
// %SRCROOT% base) when the file lies inside root, else an absolute file
// URI.
func Artifact(root, file string) ArtifactLocation {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ArtifactLocation{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: SrcRoot}
		}
	}
	return ArtifactLocation{URI: FileURI(abs)}
}

// FileURI returns the file URI of an absolute path (with a trailing slash
// kept, as a base URI needs).
func FileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive paths
	}
	return "file://" + escapePath(p)
}

// RootBase returns the originalUriBaseIds entry for a root folder.
func RootBase(root string) map[string]ArtifactLocation {
	uri := FileURI(root)
	if !strings.HasSuffix(uri, "/") {
		uri += "/"
	}
	return map[string]ArtifactLocation{SrcRoot: {URI: uri}}
}

// escapePath percent-encodes each segment of a slash path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// Lines reads files on demand to convert code-point columns into UTF-16
// columns; it keeps each file's lines once read.
type Lines struct {
	files map[string][]string
}

// Column16 converts a 1-based code-point column of a file's line into a
// 1-based UTF-16 column. When the file or line cannot be read, the column
// is returned as it is.
func (l *Lines) Column16(file string, line, col int) int {
	if col < 1 {
		return 1
	}
	if l.files == nil {
		l.files = map[string][]string{}
	}
	lines, ok := l.files[file]
	if !ok {
		// The file was linted, so it was a regular file within the
		// skill-file limit; it may have been swapped since.
		data, err := untrusted.ReadFile(file, maxSourceBytes)
		if err == nil {
			text := strings.TrimPrefix(string(data), "\ufeff")
			text = strings.ReplaceAll(text, "\r\n", "\n")
			lines = strings.Split(strings.ReplaceAll(text, "\r", "\n"), "\n")
		}
		l.files[file] = lines
	}
	if line < 1 || line > len(lines) {
		return col
	}
	units, i := 0, 0
	for _, r := range lines[line-1] {
		if i >= col-1 {
			break
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i++
	}
	return units + (col - 1 - i) + 1
}

// RuleInfo describes a rule for the log's rule table.
type RuleInfo struct {
	ID, Name string
	Summary  string // one sentence
	Doc      string // the whole documentation, plain text
	Markdown string // the documentation as Markdown ("" to omit)
	Severity string // default severity: error, warning or info
}

// Finding is one diagnostic at a file position; Column counts code points.
type Finding struct {
	Rule, Severity, File string
	Line, Column         int
	Message              string
}

// Build makes a one-run log. Files inside root get URIs relative to it
// (root is recorded as %SRCROOT%); columns are converted to UTF-16 units
// by reading the files' lines. Positions below 1 become 1.
func Build(tool, version, informationURI string, rules []RuleInfo, findings []Finding, root string) *Log {
	run := Run{
		Tool:       Tool{Driver: Driver{Name: tool, Version: version, InformationURI: informationURI, Rules: []Descriptor{}}},
		ColumnKind: "utf16CodeUnits",
		Results:    []Result{},
	}
	if root != "" {
		run.OriginalURIBaseIDs = RootBase(root)
	}
	index := map[string]int{}
	for i, r := range rules {
		index[r.ID] = i
		d := Descriptor{ID: r.ID, Name: r.Name,
			ShortDescription:     &Message{Text: r.Summary},
			FullDescription:      &Message{Text: r.Doc},
			Help:                 &Message{Text: r.Doc, Markdown: r.Markdown},
			DefaultConfiguration: &Configuration{Level: Level(r.Severity)},
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, d)
	}
	var lines Lines
	for _, f := range findings {
		line := max(f.Line, 1)
		col := lines.Column16(f.File, line, max(f.Column, 1))
		res := Result{RuleID: f.Rule, RuleIndex: -1, Level: Level(f.Severity), Message: Message{Text: f.Message},
			Locations: []Location{{PhysicalLocation: PhysicalLocation{
				ArtifactLocation: Artifact(root, f.File),
				Region:           &Region{StartLine: line, StartColumn: max(col, 1)},
			}}}}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = i
		}
		run.Results = append(run.Results, res)
	}
	return &Log{Schema: SchemaURI, Version: Version, Runs: []Run{run}}
}

// FromRules describes rules for the rule table, with their documentation
// as help text.
func FromRules(rs []*rules.Rule) []RuleInfo {
	out := make([]RuleInfo, len(rs))
	for i, r := range rs {
		var md strings.Builder
		fmt.Fprintf(&md, "**%s** `%s` (default severity: %s)\n\n%s\n", r.ID, r.Name, r.Severity, r.Doc)
		if len(r.OptionDocs) > 0 {
			md.WriteString("\n| option | default | meaning |\n| --- | --- | --- |\n")
			for _, o := range r.OptionDocs {
				fmt.Fprintf(&md, "| `%s` | `%s` | %s |\n", o.Name, o.Default, o.Doc)
			}
		}
		out[i] = RuleInfo{ID: r.ID, Name: r.Name, Summary: r.Summary(), Doc: r.Doc, Markdown: md.String(), Severity: r.Severity.String()}
	}
	return out
}

// FromDiagnostics turns file diagnostics into findings.
func FromDiagnostics(ds []rules.Diagnostic) []Finding {
	out := make([]Finding, len(ds))
	for i, d := range ds {
		out[i] = Finding{Rule: d.Rule, Severity: d.Severity.String(), File: d.File, Line: d.Line, Column: d.Column, Message: d.Message}
	}
	return out
}
