package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillopt/skillopt/rules"
)

// writeJSON writes the report as one indented JSON object (see
// docs/report.md), without HTML escaping.
func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	out := *r
	if out.Inputs == nil {
		out.Inputs = []Input{}
	}
	if out.Diagnostics == nil {
		out.Diagnostics = []Diagnostic{}
	}
	return enc.Encode(&out)
}

// jsonDiagnostic is a diagnostic's JSON shape, fields in the documented
// order: a pointer exactly for capture findings, a position when known,
// the byte offset and exactness for capture positions, and the UTF-16
// column only when it differs from the code-point one.
type jsonDiagnostic struct {
	Rule     string  `json:"rule"`
	Severity string  `json:"severity"`
	File     string  `json:"file,omitempty"`
	Capture  string  `json:"capture,omitempty"`
	Pointer  *string `json:"pointer,omitempty"`
	Line     *int    `json:"line,omitempty"`
	Column   *int    `json:"column,omitempty"`
	Column16 *int    `json:"column_utf16,omitempty"`
	Offset   *int    `json:"offset,omitempty"`
	Exact    *bool   `json:"exact,omitempty"`
	Message  string  `json:"message"`
	Fix      string  `json:"fix,omitempty"`
	// ConsequenceOf names the finding this one follows from.
	ConsequenceOf *jsonCause `json:"consequence_of,omitempty"`
}

// jsonCause names a finding of the same capture: its rule and pointer.
type jsonCause struct {
	Rule    string `json:"rule"`
	Pointer string `json:"pointer"`
}

// MarshalJSON renders the diagnostic in its documented shape.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	j := jsonDiagnostic{Rule: d.Rule, Severity: d.Severity.String(), File: d.File, Capture: d.Capture, Message: d.Message, Fix: d.Fix}
	if d.Capture != "" {
		j.Pointer = &d.Pointer
	}
	if d.CauseRule != "" {
		j.ConsequenceOf = &jsonCause{Rule: d.CauseRule, Pointer: d.CausePointer}
	}
	if d.Line > 0 {
		j.Line, j.Column = &d.Line, &d.Column
		if d.Column16 > 0 && d.Column16 != d.Column {
			j.Column16 = &d.Column16
		}
		if d.Capture != "" {
			j.Offset, j.Exact = &d.Offset, &d.Exact
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a diagnostic written by MarshalJSON; unknown fields,
// unknown severities and impossible positions are errors.
func (d *Diagnostic) UnmarshalJSON(data []byte) error {
	var j jsonDiagnostic
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	sev, err := rules.ParseSeverity(j.Severity)
	if err != nil || sev.String() != j.Severity {
		return fmt.Errorf("diagnostic: unknown severity %q (want error, warning or info)", j.Severity)
	}
	if j.Rule == "" {
		return errors.New("diagnostic: no rule")
	}
	switch j.Fix {
	case "", "safe", "unsafe":
	default:
		return fmt.Errorf("diagnostic: unknown fix %q (want safe or unsafe)", j.Fix)
	}
	*d = Diagnostic{Rule: j.Rule, Severity: sev, Message: j.Message, File: j.File, Capture: j.Capture, Fix: j.Fix}
	if j.Pointer != nil {
		if j.Capture == "" {
			return errors.New("diagnostic: a pointer without a capture")
		}
		if *j.Pointer != "" && !strings.HasPrefix(*j.Pointer, "/") {
			return fmt.Errorf("diagnostic: pointer %q does not start with /", *j.Pointer)
		}
		d.Pointer = *j.Pointer
	}
	if c := j.ConsequenceOf; c != nil {
		if j.Capture == "" || c.Rule == "" {
			return errors.New("diagnostic: consequence_of needs a capture and a rule")
		}
		if c.Pointer != "" && !strings.HasPrefix(c.Pointer, "/") {
			return fmt.Errorf("diagnostic: consequence_of pointer %q does not start with /", c.Pointer)
		}
		d.CauseRule, d.CausePointer = c.Rule, c.Pointer
	}
	if (j.Line == nil) != (j.Column == nil) {
		return errors.New("diagnostic: line and column go together")
	}
	if j.Line == nil {
		if j.Column16 != nil || j.Offset != nil || j.Exact != nil {
			return errors.New("diagnostic: a position detail without a line")
		}
		return nil
	}
	d.Line, d.Column = *j.Line, *j.Column
	if d.Line < 1 || d.Column < 1 {
		return fmt.Errorf("diagnostic: position %d:%d (lines and columns start at 1)", d.Line, d.Column)
	}
	if j.Column16 != nil {
		if d.Column16 = *j.Column16; d.Column16 < 1 {
			return fmt.Errorf("diagnostic: UTF-16 column %d (columns start at 1)", d.Column16)
		}
	}
	if (j.Offset != nil || j.Exact != nil) && j.Capture == "" {
		return errors.New("diagnostic: an offset without a capture")
	}
	if j.Offset != nil {
		if d.Offset = *j.Offset; d.Offset < 0 {
			return fmt.Errorf("diagnostic: offset %d", d.Offset)
		}
	}
	if j.Exact != nil {
		d.Exact = *j.Exact
	}
	return nil
}

// Read reads a report written in the json format, so that it can be
// rendered again in any format. Unknown fields, a report of another tool
// and data after the report are errors.
func Read(rd io.Reader) (*Report, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("read report: %w", located(dec, err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("read report: data after the report (byte %d)", dec.InputOffset())
	}
	if r.Tool != Tool {
		return nil, fmt.Errorf("read report: tool %q, want %q", r.Tool, Tool)
	}
	if r.Inputs == nil {
		r.Inputs = []Input{}
	}
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	s := r.Summary
	for _, n := range []*int{&s.Errors, &s.Warnings, &s.Info, s.Captures, s.Invalid, s.Invariants, s.Pipeline, s.Skills, s.Agents, s.Suppressed, s.Fixable, s.Fixed} {
		if n != nil && *n < 0 {
			return nil, fmt.Errorf("read report: negative count %d in the summary", *n)
		}
	}
	return &r, nil
}

// located adds the byte offset to a decoding error.
func located(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%w (byte %d)", err, se.Offset)
	case errors.As(err, &te):
		return fmt.Errorf("%w (byte %d)", err, te.Offset)
	case errors.Is(err, io.EOF):
		return errors.New("empty input")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("truncated JSON")
	}
	return fmt.Errorf("%w (near byte %d)", err, dec.InputOffset())
}
