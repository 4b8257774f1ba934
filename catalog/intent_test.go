package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestIntent(t *testing.T) {
	cases := map[string]string{
		"Creating algorithmic art using p5.js with seeded randomness. Use this when users request art.": "creating algorithmic art using p5.js with seeded randomness",
		"Use this skill when you need to fill PDF forms; supports AcroForm.":                            "fill PDF forms",
		"PDF manipulation toolkit - extract text and tables, merge documents.":                          "PDF manipulation toolkit",
		"Toolkit for styling artifacts with a theme. These artifacts can be slides.":                    "toolkit for styling artifacts with a theme",
		"":      "",
		"Short": "short",
		"A very long description that goes on and on without any clause break whatsoever until it passes the limit": "a very long description that goes",
	}
	for in, want := range cases {
		if got := Intent(in); got != want {
			t.Errorf("Intent(%q) = %q, want %q", in, got, want)
		}
		if utf8.RuneCountInString(Intent(in)) > maxIntentChars {
			t.Errorf("intent of %q too long", in)
		}
	}
}

func TestCompactBlocksBudget(t *testing.T) {
	skills := []Skill{
		{Name: "pdf", Description: "Fill and merge PDF files."},
		{Name: "changelog-writer", Description: "Draft release notes from merged pull requests & commits <v2>."},
		{Name: "x", Description: "A deliberately long description for the budget test that will be cut somewhere sensible."},
	}
	// A big budget keeps every intent; XML and TSV escaping applies.
	big := CompactBlocks([][]Skill{skills}, 12000)[0]
	if !strings.HasPrefix(big, Marker+"\n"+indexOpen+"\npdf\tfill and merge PDF files\n") || !strings.Contains(big, "&amp; commits &lt;v2&gt;") || !strings.HasSuffix(big, indexClose+"\n"+Resolver) {
		t.Fatalf("unexpected block:\n%s", big)
	}
	// A tiny budget keeps every name and drops intents, cheapest admitted first.
	floorOnly := CompactBlocks([][]Skill{skills}, 0)[0]
	for _, sk := range skills {
		if !strings.Contains(floorOnly, "\n"+sk.Name+"\n") {
			t.Errorf("name %s missing from the floor", sk.Name)
		}
	}
	if strings.Contains(floorOnly, "\t") {
		t.Error("intents kept at zero budget")
	}
	mid := CompactBlocks([][]Skill{skills}, utf8.RuneCountInString(floorOnly)+len("\tfill and merge PDF files")+5)[0]
	if !strings.Contains(mid, "pdf\tfill and merge PDF files") || strings.Contains(mid, "changelog-writer\t") {
		t.Errorf("cheapest intent not admitted first:\n%s", mid)
	}
	// Two catalogs: one marker, one resolver, one shared budget.
	two := CompactBlocks([][]Skill{skills[:1], skills[1:]}, 12000)
	joined := strings.Join(two, "\n")
	if strings.Count(joined, Marker) != 1 || strings.Count(joined, Resolver) != 1 || strings.Count(joined, indexOpen) != 2 {
		t.Fatalf("two catalogs:\n%s", joined)
	}
}

func TestParsePiCatalog(t *testing.T) {
	text := "The following skills...\n\n<available_skills>\n  <skill>\n    <name>a-b</name>\n    <description>Use &lt;x&gt; &amp; y&apos;s &#233; &#x41;.</description>\n    <location>/s/a-b/SKILL.md</location>\n  </skill>\n  <skill>\n    <name>c</name>\n    <description>d</description>\n  </skill>\n</available_skills>"
	got := ParsePiCatalog(text)
	if len(got) != 2 || got[0].Name != "a-b" || got[0].Description != "Use <x> & y's é A." || got[0].Location != "/s/a-b/SKILL.md" || got[1].Location != "" {
		t.Fatalf("%+v", got)
	}
	if all := ParsePiCatalogs(text, "", text); len(all) != 4 || all[2].Name != "a-b" {
		t.Errorf("two catalogs: %+v", all)
	}
}
