package capture

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCatalogRangesRawMatchesDecoded(t *testing.T) {
	cat := "<available_skills>\n  <skill>\n    <name>a</name>\n    <description>x &amp; y</description>\n  </skill>\n</available_skills>"
	texts := []string{
		"intro\n\nThe following skills provide specialized instructions.\nUse them.\n\n" + cat + "\nCurrent date: today",
		cat,
		"no preamble here\n\n" + cat,
		"Some skill talk\n" + cat + " tail",
		"a\\n\\nfake blank line, skills\n" + cat, // literal backslash-n text is not a blank line
		"first skills\n\n" + cat + "\n\nsecond skills list:\n\n" + cat,
		"tabs and skills\t \r\n\t" + cat,
		"quote \" and skills \\ here\n\n\"skills\" \\\n" + cat,
	}
	for _, text := range texts {
		want := catalogRanges(text)
		raw := Quote(text)
		ranges, ok := catalogRangesRaw(raw[1 : len(raw)-1])
		if !ok {
			t.Fatalf("raw path failed on %q", text)
		}
		if len(ranges) != len(want) {
			t.Fatalf("%q: %d raw ranges, %d decoded", text, len(ranges), len(want))
		}
		for i, r := range ranges {
			got := unquote(append(append([]byte{'"'}, raw[1+r[0]:1+r[1]]...), '"'))
			if got != text[want[i][0]:want[i][1]] {
				t.Errorf("%q range %d: raw path gives %q, decoded %q", text, i, got, text[want[i][0]:want[i][1]])
			}
		}
		// Go-style \u003c escaping falls back to decoding and finds the same.
		goStyle, _ := json.Marshal(text)
		if _, ok := catalogRangesRaw(goStyle[1 : len(goStyle)-1]); ok {
			t.Errorf("escaped markers matched literally")
		}
		d, err := Parse([]byte(`{"model":"m","max_tokens":1,"system":` + string(goStyle) + `,"messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, s := range BuildSegments(d, Anthropic) {
			if s.Kind == SecCatalog {
				got := decodePart(d, s.Node, s.Start, s.End)
				if got != text[want[total][0]:want[total][1]] {
					t.Errorf("escaped %q: catalog %q", text, got)
				}
				total++
			}
		}
		if total != len(want) {
			t.Errorf("escaped %q: %d catalogs, want %d", text, total, len(want))
		}
	}
}

// CatalogTexts returns the decoded text of every native catalog (its
// preamble and block), in body order, and nothing for a body without one.
func TestCatalogTexts(t *testing.T) {
	cat := func(name string) string {
		return "<available_skills>\n<skill>\n<name>" + name + "</name>\n<description>d &amp; e</description>\n</skill>\n</available_skills>"
	}
	system := "intro\n\nThe following skills are available.\n\n" + cat("a") + "\n\nMore skills:\n\n" + cat("b")
	c := &Capture{Provider: Anthropic}
	d, err := Parse([]byte(`{"model":"m","max_tokens":1,"system":` + string(Quote(system)) + `,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Doc = d
	texts := c.CatalogTexts()
	if len(texts) != 2 || texts[0] != "The following skills are available.\n\n"+cat("a") || texts[1] != "More skills:\n\n"+cat("b") {
		t.Errorf("catalog texts %q", texts)
	}
	d, _ = Parse([]byte(`{"model":"m","max_tokens":1,"system":"no catalog","messages":[]}`))
	if got := (&Capture{Provider: Anthropic, Doc: d}).CatalogTexts(); len(got) != 0 {
		t.Errorf("body without a catalog: %q", got)
	}
}

// TestIndexMarker: indexMarker finds what bytes.Index finds, with
// underscores before, inside and after the marker, at either end and not
// at all.
func TestIndexMarker(t *testing.T) {
	for _, b := range []string{
		"", "_", "</available_skills>", "x</available_skills>y", "a_b_c</available_skills>",
		"</available_skills", "<available_skills></available_skills>", "__</available__skills>_</available_skills>",
		"available_skill", strings.Repeat("<skill>_</skill>", 50) + "</available_skills>",
	} {
		for _, m := range []string{piCatalogClose, piCatalogOpen, "available_skills"} {
			if got, want := indexMarker([]byte(b), m), bytes.Index([]byte(b), []byte(m)); got != want {
				t.Errorf("indexMarker(%q, %q) = %d, want %d", b, m, got, want)
			}
		}
	}
}

func FuzzIndexMarker(f *testing.F) {
	f.Add("a_b</available_skills>", "</available_skills>")
	f.Add("x_y_z", "y_z")
	f.Add("no marker", "plain")
	f.Fuzz(func(t *testing.T, b, m string) {
		if m == "" {
			return
		}
		if got, want := indexMarker([]byte(b), m), bytes.Index([]byte(b), []byte(m)); got != want {
			t.Fatalf("indexMarker(%q, %q) = %d, want %d", b, m, got, want)
		}
	})
}
