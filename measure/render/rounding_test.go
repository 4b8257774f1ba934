package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/measure"
	"github.com/skillopt/skillopt/measure/render"
)

// A share reads the same in every view: 651,490 of 1,000,000 bytes is
// 65.149 %, carried as 65.15 in JSON and shown as 65.1 % by the quiet
// total, the capture table, the savings table and Markdown alike (written
// from the exact share, not from the two-decimal figure).
func TestOneRoundingInEveryView(t *testing.T) {
	c := &measure.CaptureReport{Name: "a.json", Provider: "anthropic", Bytes: 1000000, After: measure.After{Bytes: 348510},
		Savings: []measure.Saving{{Rule: "SO301", Name: "output.reduce", BytesBefore: 1000000, BytesAfter: 348510, SavedBytes: 651490, SavedPct: 65.15}}}
	other := &measure.CaptureReport{Name: "b.json", Provider: "anthropic", Bytes: 10, After: measure.After{Bytes: 10}}
	rep := measure.Summarize([]*measure.CaptureReport{c, other}, nil)
	if rep.Totals.SavedPct != 65.15 {
		t.Fatalf("saved_pct %v, want 65.15", rep.Totals.SavedPct)
	}
	for _, view := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"quiet text", func(b *bytes.Buffer) error { return render.WriteText(b, rep, render.TextOptions{Quiet: true}) }},
		{"text", func(b *bytes.Buffer) error { return render.WriteText(b, rep, render.TextOptions{Details: true}) }},
		{"quiet markdown", func(b *bytes.Buffer) error { return render.WriteMarkdown(b, rep, render.TextOptions{Quiet: true}) }},
		{"markdown", func(b *bytes.Buffer) error { return render.WriteMarkdown(b, rep, render.TextOptions{Details: true}) }},
	} {
		var b bytes.Buffer
		if err := view.write(&b); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); !strings.Contains(out, "65.1 %") || strings.Contains(out, "65.2") {
			t.Errorf("%s: want 65.1 %% and no 65.2:\n%s", view.name, out)
		}
	}
}
