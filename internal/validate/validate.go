// Package validate checks captured requests against their provider's
// schema and the request-validity rules, for skillopt validate: the
// results as report lines, each error placed in its file and the
// consequences of another error marked as such.
package validate

import (
	"fmt"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/report"
	"github.com/skillopt/skillopt/rules"
	"github.com/skillopt/skillopt/schemas"
	"github.com/skillopt/skillopt/validity"
)

// File validates the captures of one file: one line each, the
// diagnostics placed in the file. forceStrict and lenient override how
// each capture's endpoint judges unknown keys. A capture that could not
// be validated is left out, its error returned for the caller to report
// as an input error.
func File(f *capture.File, renv *rules.Env, forceStrict, lenient bool) (lines []report.Line, failed []error) {
	src := report.NewSource(f.Data)
	for _, capt := range f.Captures {
		errs, err := schemas.ValidateDoc(string(capt.Provider), capt.Doc)
		if err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", capt.Name, err))
			continue
		}
		strict, endpoint := validity.Strict(capt)
		switch {
		case forceStrict:
			strict, endpoint = true, "--strict: unknown keys are errors"
		case lenient:
			strict, endpoint = false, "--lenient: unknown keys are reported as extensions"
		}
		valid := true
		var diags []report.Diagnostic
		for _, se := range errs {
			sev, note := validity.SchemaError(capt, se, strict)
			d := report.Diagnostic{Rule: report.SchemaRule.ID, Severity: sev, Message: se.Message + note,
				File: f.Name, Capture: capt.Name, Pointer: se.Pointer}
			off, exact := capt.FileOffset(se.Offset)
			src.Place(&d, off, exact)
			diags = append(diags, d)
		}
		vds, err := validity.Check(capt, renv)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		for _, vd := range vds {
			d := report.FromRule(vd)
			d.File = f.Name
			if i, err := capt.Doc.Lookup(vd.Pointer); err == nil {
				off, exact := capt.FileOffset(int(capt.Doc.Nodes[i].Start))
				src.Place(&d, off, exact)
			}
			diags = append(diags, d)
		}
		diags = RootCausesFirst(capt.Doc, diags)
		for _, d := range diags {
			valid = valid && d.Severity != rules.Error
		}
		in := report.InputOf(capt)
		in.Valid, in.Endpoint = &valid, endpoint
		lines = append(lines, report.NewLine(in, diags))
	}
	return lines, failed
}

// RootCausesFirst marks the errors of one capture that follow from another
// (validity.Causes), with a note naming the cause, and drops those that
// repeat their cause; the report lists each consequence after its cause.
func RootCausesFirst(doc *capture.Doc, ds []report.Diagnostic) []report.Diagnostic {
	var fs []validity.Finding
	var at []int
	for i, d := range ds {
		if d.Severity == rules.Error {
			n, err := doc.Lookup(d.Pointer)
			k := doc.Kind(n)
			scalar := err == nil && k != capture.Object && k != capture.Array
			fs = append(fs, validity.Finding{Rule: d.Rule, Pointer: d.Pointer, Scalar: scalar})
			at = append(at, i)
		}
	}
	cause, dup := validity.Causes(fs)
	drop := make([]bool, len(ds))
	for k, c := range cause {
		if c < 0 {
			continue
		}
		d, from := &ds[at[k]], ds[at[c]]
		if dup[k] {
			drop[at[k]] = true
			continue
		}
		d.CauseRule, d.CausePointer = from.Rule, from.Pointer
		d.Message += " (follows from " + from.Rule + " at " + pointerText(from.Pointer) + ")"
	}
	out := ds[:0]
	for i, d := range ds {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// pointerText names a pointer in a note; the whole body has the empty one.
func pointerText(p string) string {
	if p == "" {
		return "the body"
	}
	return p
}
