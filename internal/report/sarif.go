package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// SARIF 2.1.0 (the Static Analysis Results Interchange Format read by code
// scanning services).
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// SrcRoot is the base of relative artifact URIs.
	SrcRoot = "%SRCROOT%"
)

// sarifLog is a SARIF log file with one run.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Invocations        []sarifInvocation           `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	// ColumnKind says how columns count: UTF-16 code units.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string            `json:"name"`
	Version        string            `json:"version,omitempty"`
	InformationURI string            `json:"informationUri,omitempty"`
	Rules          []sarifDescriptor `json:"rules"`
}

// sarifDescriptor describes one rule.
type sarifDescriptor struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name,omitempty"`
	ShortDescription     *sarifMessage       `json:"shortDescription,omitempty"`
	FullDescription      *sarifMessage       `json:"fullDescription,omitempty"`
	Help                 *sarifMessage       `json:"help,omitempty"`
	DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties *sarifProps     `json:"properties,omitempty"`
}

// sarifProps carries where in a capture a result is: its name and the JSON
// Pointer (code scanning shows the physical location only), and whether
// the position is the value's own.
type sarifProps struct {
	Capture string `json:"capture"`
	Pointer string `json:"pointer"`
	Exact   *bool  `json:"exact,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is a start position; lines and columns are 1-based, columns
// in UTF-16 code units.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes a one-run SARIF log. The rule table lists the rules the
// results refer to, described from opts.Rules (and SchemaRule), sorted by
// ID. Files inside opts.Root get URIs relative to it, recorded as
// %SRCROOT%. Capture results carry the capture and pointer as properties,
// and the pointer in the message too.
func writeSARIF(w io.Writer, r *Report, opts Options) error {
	known := map[string]*rules.Rule{SchemaRule.ID: SchemaRule}
	for _, rl := range opts.Rules {
		known[rl.ID] = rl
	}
	var ids []string
	for _, d := range r.Diagnostics {
		if !slices.Contains(ids, d.Rule) {
			ids = append(ids, d.Rule)
		}
	}
	slices.Sort(ids)
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: r.Tool, Version: r.Version, Rules: []sarifDescriptor{}}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: !r.Incomplete}},
		ColumnKind:  "utf16CodeUnits",
		Results:     []sarifResult{},
	}
	if opts.Root != "" {
		run.OriginalURIBaseIDs = rootBase(opts.Root)
	}
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, descriptor(id, known[id], opts.OptionsOf))
	}
	for _, d := range r.Diagnostics {
		res := sarifResult{RuleID: d.Rule, RuleIndex: index[d.Rule], Level: sarifLevel(d.Severity),
			Message: sarifMessage{Text: plainMessage(d)}, Locations: []sarifLocation{}}
		if d.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(opts.Root, d.File)}}
			if d.Line > 0 {
				col := d.Column16
				if col == 0 {
					col = d.Column
				}
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: max(col, 1)}
			}
			res.Locations = append(res.Locations, loc)
		}
		if d.Capture != "" {
			res.Properties = &sarifProps{Capture: d.Capture, Pointer: d.Pointer}
			if d.Line > 0 {
				exact := d.Exact
				res.Properties.Exact = &exact
			}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}})
}

// descriptor describes a rule for the rule table, with its documentation
// and the options optionsOf lists (nil: its own) as help text; a rule not
// described only has its ID.
func descriptor(id string, r *rules.Rule, optionsOf func(*rules.Rule) []rules.Option) sarifDescriptor {
	if r == nil {
		return sarifDescriptor{ID: id}
	}
	if optionsOf == nil {
		optionsOf = rules.OptionsOf
	}
	var md strings.Builder
	fmt.Fprintf(&md, "**%s** `%s` (default severity: %s)\n\n%s\n", r.ID, r.Name, r.Severity, r.Doc)
	if opts := optionsOf(r); len(opts) > 0 {
		md.WriteString("\n| option | default | meaning |\n| --- | --- | --- |\n")
		for _, o := range opts {
			fmt.Fprintf(&md, "| `%s` | `%s` | %s |\n", o.Name(), o.Default, o.Doc)
		}
	}
	return sarifDescriptor{ID: r.ID, Name: r.Name,
		ShortDescription:     &sarifMessage{Text: r.Summary()},
		FullDescription:      &sarifMessage{Text: r.Doc},
		Help:                 &sarifMessage{Text: r.Doc, Markdown: md.String()},
		DefaultConfiguration: &sarifConfiguration{Level: sarifLevel(r.Severity)},
	}
}

// artifact returns the location of a file: relative to root (with the
// %SRCROOT% base) when the file lies inside root, else an absolute file
// URI. A relative file name is relative to root, or to the working
// directory without one.
func artifact(root, file string) sarifArtifactLoc {
	abs := file
	if !filepath.IsAbs(file) {
		if root != "" {
			abs = filepath.Join(root, file)
		} else if a, err := filepath.Abs(file); err == nil {
			abs = a
		}
	}
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return sarifArtifactLoc{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: SrcRoot}
		}
	}
	return sarifArtifactLoc{URI: fileURI(abs)}
}

// fileURI returns the file URI of an absolute path.
func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive paths
	}
	return "file://" + escapePath(p)
}

// rootBase returns the originalUriBaseIds entry for a root folder (a base
// URI ends with a slash).
func rootBase(root string) map[string]sarifArtifactLoc {
	uri := fileURI(root)
	if !strings.HasSuffix(uri, "/") {
		uri += "/"
	}
	return map[string]sarifArtifactLoc{SrcRoot: {URI: uri}}
}

// escapePath percent-encodes each segment of a slash path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
