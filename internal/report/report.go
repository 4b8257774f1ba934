// Package report is skillopt's one result model and its printers. A command
// that reports findings (validate, check, lint) builds a Report: what it
// read, what it found (each Diagnostic located by file:line:col, and by
// capture and JSON Pointer inside a capture) and a summary. Write renders it
// in any of Formats, one file per format. A Report written as JSON reads
// back with Read and renders the same again in every format.
package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/rules"
)

// Tool is the name reports carry.
const Tool = "skillopt"

// Formats lists the output formats, the default first.
var Formats = []string{"text", "json", "markdown", "sarif", "github"}

// Report is the result of one command run.
type Report struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Command is the command that produced the report: validate, check or
	// lint.
	Command string `json:"command"`
	// Inputs are the captures the command read (validate, check); lint
	// counts what it read in the summary instead.
	Inputs      []Input      `json:"inputs"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Summary     Summary      `json:"summary"`
	// Incomplete is set when an input could not be read or a rule failed
	// on one: the findings cover the rest, and the exit code is 2.
	Incomplete bool `json:"incomplete"`
	// Config is the configuration file used; nil for the built-in
	// defaults.
	Config *string `json:"config"`
}

// Input is one capture a command read.
type Input struct {
	Name     string `json:"name"` // FILE or FILE#N
	File     string `json:"file"`
	Envelope string `json:"envelope,omitempty"`
	Provider string `json:"provider,omitempty"`
	Reason   string `json:"reason,omitempty"` // why Provider was chosen
	// Endpoint is how validate judges keys the provider's API does not
	// define, and why: errors for the provider's own endpoint, extensions
	// for a compatible server (named by the URL, the Host header or the
	// model id).
	Endpoint string `json:"endpoint,omitempty"`
	// Valid is the schema verdict (validate only).
	Valid *bool `json:"valid,omitempty"`
}

// InputOf describes a capture read for a report.
func InputOf(c *capture.Capture) Input {
	return Input{Name: c.Name, File: c.File.Name, Envelope: c.Envelope, Provider: string(c.Provider), Reason: c.Reason}
}

// Diagnostic is one finding. A finding in a skill or agent file has File
// and a position; a finding in a capture has Capture and Pointer, and File
// and a position when its place in the capture's file is known.
type Diagnostic struct {
	Rule     string
	Severity rules.Severity
	Message  string
	// File is the file the finding is in: a skill or agent file, or the
	// file holding the capture ("<stdin>" for standard input).
	File string
	// Capture names the capture (FILE or FILE#N); "" for file findings.
	Capture string
	// Pointer is the JSON Pointer into the capture's body ("" is the whole
	// body); meaningful only with Capture.
	Pointer string
	// Line and Column are 1-based; Column counts Unicode code points. 0
	// means the position is not known.
	Line, Column int
	// Column16 is the column in UTF-16 code units (what SARIF counts); 0
	// means the same as Column.
	Column16 int
	// Offset is the byte offset of the position in File (captures only).
	Offset int
	// Exact is false for a capture position that is not the value's own:
	// the start of the JSON string holding an encoded body.
	Exact bool
	// Fix is "safe" or "unsafe" when `skillopt lint --fix` (with
	// --unsafe-fixes for unsafe ones) can fix the finding, else "".
	Fix string
	// CauseRule and CausePointer name the finding of the same capture
	// this one follows from (validate: an error that is a consequence of
	// another); "" for a finding that is its own cause. The report lists
	// a consequence right after its cause.
	CauseRule, CausePointer string
}

// Summary counts the findings and what was looked at. The counts of one
// command are nil for the others.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Info     int `json:"info"`
	// Captures counts the captures validated (validate) or checked (check).
	Captures *int `json:"captures,omitempty"`
	// Invalid counts the captures the schema rejected (validate).
	Invalid *int `json:"invalid,omitempty"`
	// Invariants and Pipeline count the invariant rules verified and the
	// pipeline rules run (check).
	Invariants *int `json:"invariants,omitempty"`
	Pipeline   *int `json:"pipeline,omitempty"`
	// Skills, Agents and Suppressed count the skills and agent definitions
	// linted and the findings silenced by suppressions (lint).
	Skills     *int `json:"skills,omitempty"`
	Agents     *int `json:"agents,omitempty"`
	Suppressed *int `json:"suppressed,omitempty"`
	// Fixable counts the findings --fix would fix (safe fixes) and Fixed
	// the findings it fixed in this run (lint).
	Fixable *int `json:"fixable,omitempty"`
	Fixed   *int `json:"fixed,omitempty"`
}

// Count returns a summary count.
func Count(n int) *int { return &n }

// Options are the rendering choices that are not part of the result.
type Options struct {
	// Color paints severities in text output (ANSI escapes).
	Color bool
	// Quiet prints only warnings and errors, without the summary (text
	// and github); valid captures are not listed.
	Quiet bool
	// Root is the folder SARIF artifact URIs are relative to (recorded as
	// %SRCROOT%); relative file names are taken relative to it.
	Root string
	// Rules describe the rules for SARIF's rule table; SchemaRule is always
	// known.
	Rules []*rules.Rule
	// OptionsOf lists the options a rule reads, for its SARIF help (the
	// registry's OptionsOf; nil: the rule's own options).
	OptionsOf func(*rules.Rule) []rules.Option
	// Statistics writes the number of findings per rule instead of the
	// findings (text and json; see WriteStatistics).
	Statistics bool
}

// SchemaRule names the findings of `skillopt validate`: a request body
// that the JSON Schema of its provider rejects. It is not a pipeline rule.
var SchemaRule = &rules.Rule{
	ID:       "schema",
	Name:     "provider-schema",
	Kind:     rules.Check,
	Severity: rules.Error,
	Doc: "The request body does not match skillopt's JSON Schema for its provider. " +
		"The provider rejects such a request, or reads it differently than intended; " +
		"the pointer names the value concerned.",
}

// New returns an empty report of a command.
func New(command, version string) *Report {
	return &Report{Tool: Tool, Version: version, Command: command, Inputs: []Input{}, Diagnostics: []Diagnostic{}}
}

// FromRule converts a diagnostic of the rule engine.
func FromRule(d rules.Diagnostic) Diagnostic {
	return Diagnostic{Rule: d.Rule, Severity: d.Severity, Message: d.Message, File: d.File, Capture: d.Capture,
		Pointer: d.Pointer, Line: d.Line, Column: d.Column}
}

// Finish drops UTF-16 columns equal to the code-point ones, sorts the
// diagnostics (by file, position, capture, pointer, rule
// and message), drops exact duplicates and counts them by severity.
func (r *Report) Finish() {
	for i := range r.Diagnostics {
		if d := &r.Diagnostics[i]; d.Column16 == d.Column {
			d.Column16 = 0
		}
	}
	slices.SortStableFunc(r.Diagnostics, compare)
	r.Diagnostics = causesFirst(slices.Compact(r.Diagnostics))
	r.Summary.Errors, r.Summary.Warnings, r.Summary.Info = 0, 0, 0
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case rules.Error:
			r.Summary.Errors++
		case rules.Warning:
			r.Summary.Warnings++
		default:
			r.Summary.Info++
		}
	}
}

// causesFirst moves each consequence right after the finding it follows
// from (the first of that rule at that pointer of its capture), keeping
// the order of everything else; a consequence whose cause is not in the
// report stays where it is.
func causesFirst(ds []Diagnostic) []Diagnostic {
	type key struct{ capture, rule, pointer string }
	causes := map[key]bool{}
	for _, d := range ds {
		if d.CauseRule != "" {
			causes[key{d.Capture, d.CauseRule, d.CausePointer}] = false
		}
	}
	if len(causes) == 0 {
		return ds
	}
	for _, d := range ds {
		if k := (key{d.Capture, d.Rule, d.Pointer}); d.CauseRule == "" {
			if _, ok := causes[k]; ok {
				causes[k] = true
			}
		}
	}
	follows := map[key][]Diagnostic{}
	for _, d := range ds {
		if k := (key{d.Capture, d.CauseRule, d.CausePointer}); d.CauseRule != "" && causes[k] {
			follows[k] = append(follows[k], d)
		}
	}
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.CauseRule != "" && causes[key{d.Capture, d.CauseRule, d.CausePointer}] {
			continue
		}
		out = append(out, d)
		if k := (key{d.Capture, d.Rule, d.Pointer}); d.CauseRule == "" {
			out = append(out, follows[k]...)
			delete(follows, k)
		}
	}
	return out
}

func compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Capture, b.Capture),
		cmp.Compare(a.Pointer, b.Pointer),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(b.Severity, a.Severity),
	)
}

// Failed reports whether a finding is an error.
func (r *Report) Failed() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == rules.Error {
			return true
		}
	}
	return false
}

// Write renders the report in format (one of Formats).
func Write(w io.Writer, r *Report, format string, opts Options) error {
	if opts.Statistics {
		return writeStatistics(w, r, format, opts)
	}
	switch format {
	case "text":
		return writeText(w, r, opts)
	case "json", "sarif":
		var b bytes.Buffer
		write := writeJSON
		if format == "sarif" {
			write = func(w io.Writer, r *Report) error { return writeSARIF(w, r, opts) }
		}
		if err := write(&b, r); err != nil {
			return err
		}
		_, err := w.Write(escape.JSON(b.Bytes()))
		return err
	case "markdown":
		return writeMarkdown(w, r)
	case "github":
		return writeGitHub(w, r, opts)
	}
	return fmt.Errorf("unknown format %q (want one of text, json, markdown, sarif, github)", format)
}

// where renders a diagnostic's place: file:line:col when known, else the
// capture or file; then the pointer of a capture finding, if not the root.
func where(d Diagnostic) string {
	var s string
	switch {
	case d.File != "" && d.Line > 0:
		s = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
	case d.Capture != "":
		s = d.Capture
	default:
		s = d.File
	}
	if d.Capture != "" && d.Pointer != "" {
		if s == "" {
			return d.Pointer
		}
		s += ": " + d.Pointer
	}
	return s
}

// summaryLine is the report's one-line summary, "" when it has none.
func summaryLine(r *Report) string {
	s := r.Summary
	switch {
	case s.Skills != nil:
		line := fmt.Sprintf("%s, %s: %s, %s, %d info", plural(val(s.Skills), "skill"), plural(val(s.Agents), "agent definition"),
			plural(s.Errors, "error"), plural(s.Warnings, "warning"), s.Info)
		if n := val(s.Suppressed); n > 0 {
			line += fmt.Sprintf(" (%d suppressed)", n)
		}
		if n := val(s.Fixed); n > 0 {
			line += fmt.Sprintf(", %d fixed", n)
		}
		if n := val(s.Fixable); n > 0 {
			line += fmt.Sprintf("; %d fixable with --fix", n)
		}
		return line
	case s.Invariants != nil:
		// Info notes (a rule that fails open, a dropped transform) are
		// not findings: they are counted apart.
		line := fmt.Sprintf("%d capture(s) checked with %d invariant(s) and %d pipeline rule(s): %s",
			val(s.Captures), val(s.Invariants), val(s.Pipeline), plural(s.Errors+s.Warnings, "finding"))
		if s.Errors+s.Warnings > 0 {
			line += fmt.Sprintf(" (%s, %s)", plural(s.Errors, "error"), plural(s.Warnings, "warning"))
		}
		return line + ", " + plural(s.Info, "info note")
	case s.Invalid != nil:
		return fmt.Sprintf("%d capture(s) validated: %d valid, %d invalid", val(s.Captures), val(s.Captures)-val(s.Invalid), val(s.Invalid))
	}
	return ""
}

func val(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
