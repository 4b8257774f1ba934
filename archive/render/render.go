// Package render writes the results of the archive commands for people
// and programs: the list of archived originals, a verification and the
// temporary files a clean-up removed, as text and in their JSON shapes.
package render

import (
	"fmt"
	"io"

	"github.com/skillopt/skillopt/archive"
	"github.com/skillopt/skillopt/internal/escape"
	"github.com/skillopt/skillopt/measure/units"
)

// Options say how the text output looks.
type Options struct {
	// Color paints damage and stale files with ANSI colours.
	Color bool
	// Quiet leaves out the header and the totals.
	Quiet bool
}

func (o Options) paint(code, s string) string {
	if !o.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// stamp is how the text output shows a time.
const stamp = "2006-01-02 15:04:05Z"

// ListJSON is the archived originals in their JSON shape.
func ListJSON(entries []archive.Entry) any {
	return struct {
		Entries []archive.Entry `json:"entries"`
	}{entries}
}

// ListText writes the archived originals as a table: handles
// left-aligned, sizes right-aligned with thousands separators, as measure
// prints them; unless quiet, a header and the total.
func ListText(w io.Writer, entries []archive.Entry, o Options) error {
	hw, bw := len("HANDLE"), len("BYTES")
	total := int64(0)
	for _, en := range entries {
		total += en.Bytes
		hw = max(hw, len(en.Handle))
		bw = max(bw, len(units.Thousands(int(en.Bytes))))
	}
	if !o.Quiet {
		fmt.Fprintf(w, "%-*s  %*s  %s\n", hw, "HANDLE", bw, "BYTES", "STORED")
	}
	for _, en := range entries {
		fmt.Fprintf(w, "%-*s  %*s  %s\n", hw, en.Handle, bw, units.Thousands(int(en.Bytes)), en.Modified.Format(stamp))
	}
	if !o.Quiet {
		fmt.Fprintf(w, "%d original(s), %s bytes\n", len(entries), units.Thousands(int(total)))
	}
	return nil
}

// Verify is a verification of the archive in its JSON shape: how many
// originals were checked, the damaged ones and the stale temporary files.
type Verify struct {
	Objects int                `json:"objects"`
	Damaged []archive.Damage   `json:"damaged"`
	Stale   []archive.TempFile `json:"stale"`
}

// VerifyText writes each damaged original and stale temporary file and,
// unless quiet, the counts.
func VerifyText(w io.Writer, v Verify, o Options) error {
	for _, d := range v.Damaged {
		fmt.Fprintf(w, "%s: %s: %s\n", escape.Text(d.Handle), o.paint("31", "damaged"), escape.Text(d.Problem))
	}
	for _, st := range v.Stale {
		fmt.Fprintf(w, "%s: %s: %s bytes, last written %s\n", escape.Text(st.Path), o.paint("33", "stale temporary file"), units.Thousands(int(st.Bytes)), st.Modified.Format(stamp))
	}
	if o.Quiet {
		return nil
	}
	fmt.Fprintf(w, "%d original(s) verified, %d damaged\n", v.Objects, len(v.Damaged))
	if len(v.Stale) > 0 {
		fmt.Fprintf(w, "%d stale temporary file(s); `skillopt archive gc` removes them\n", len(v.Stale))
	}
	return nil
}

// RemovedJSON is the temporary files a clean-up removed in their JSON
// shape.
func RemovedJSON(removed []archive.TempFile) any {
	return struct {
		Removed []archive.TempFile `json:"removed"`
	}{removed}
}

// RemovedText writes each temporary file removed and, unless quiet, the
// count and the bytes freed.
func RemovedText(w io.Writer, removed []archive.TempFile, o Options) error {
	var total int64
	for _, st := range removed {
		total += st.Bytes
		fmt.Fprintf(w, "removed %s (%s bytes)\n", escape.Text(st.Path), units.Thousands(int(st.Bytes)))
	}
	if !o.Quiet {
		fmt.Fprintf(w, "%d temporary file(s) removed, %s bytes\n", len(removed), units.Thousands(int(total)))
	}
	return nil
}
