package synth

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// marshalString encodes s with encoding/json.
func marshalString(t *testing.T, s string, escapeHTML bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var trickyStrings = []string{
	"", "plain", `quote " and backslash \`, "<tag> & 'apos'", "line\nbreak\r\ttab\b\f\x00\x1f\x7f",
	"em — dash, ünïcödé, 漢字, emoji 🚀", "\u2028 and \u2029", "bad utf-8 \xff\xfe and \xe2\x80", "\xed\xa0\x80 surrogate",
	"&lt;already escaped&gt; &amp;", "U+FFFD \ufffd itself",
}

func TestAppendJSONTextMatchesEncodingJSON(t *testing.T) {
	inputs := append([]string(nil), trickyStrings...)
	for b := 0; b < 256; b++ {
		inputs = append(inputs, string([]byte{'a', byte(b), 'z'}))
	}
	r := newRNG(9)
	for k := 0; k < 2000; k++ {
		raw := make([]byte, r.intn(40))
		for i := range raw {
			raw[i] = byte(r.next())
		}
		inputs = append(inputs, string(raw))
	}
	for _, escapeHTML := range []bool{false, true} {
		for _, s := range inputs {
			want := marshalString(t, s, escapeHTML)
			got := append(appendJSONText([]byte{'"'}, s, escapeHTML), '"')
			if !bytes.Equal(got, want) {
				t.Fatalf("escapeHTML=%v %q: got %s, want %s", escapeHTML, s, got, want)
			}
			want = marshalString(t, EscapeXML(s), escapeHTML)
			got = append(appendXMLJSONText([]byte{'"'}, s, escapeHTML), '"')
			if !bytes.Equal(got, want) {
				t.Fatalf("XML escapeHTML=%v %q: got %s, want %s", escapeHTML, s, got, want)
			}
		}
	}
}

// captureReference encodes the full system prompt with encoding/json, the
// straightforward way CaptureWith avoids for speed.
func captureReference(provider string, skills []Skill, turns int, opts CaptureOptions) ([]byte, error) {
	e := &encoder{escapeHTML: opts.EscapeHTML}
	return encodeBody(provider, newSession(SystemPrompt(skills), promptLen(skills), turns), e)
}

func TestCaptureMatchesReference(t *testing.T) {
	odd := []Skill{{
		Name:        "odd-skill",
		Description: strings.Join(trickyStrings, " | "),
		Location:    "/home/dev/.pi/agent/skills/x/odd-skill/SKILL.md",
	}, {Name: "a<b>&c", Description: `"quoted" 'x'`, Location: "\u2028"}}
	sets := map[string][]Skill{"none": nil, "generated": Skills(300, 5), "odd": append(Skills(3, 1), odd...)}
	for setName, skills := range sets {
		for _, provider := range Providers {
			for _, opts := range []CaptureOptions{{}, {EscapeHTML: true}} {
				got, err := CaptureWith(provider, skills, 4, opts)
				if err != nil {
					t.Fatal(err)
				}
				want, err := captureReference(provider, skills, 4, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("%s/%s/%+v: differs from reference at byte %d: %.80q vs %.80q", setName, provider, opts, i, got[i:], want[i:])
				}
			}
		}
	}
}

func TestSystemPromptMatchesCatalog(t *testing.T) {
	skills := Skills(20, 2)
	sys := SystemPrompt(skills)
	if !strings.Contains(sys, "\n\n"+SkillsPreamble+"\n") || !strings.Contains(sys, Catalog(skills)+"\nCurrent date: ") {
		t.Error("system prompt does not embed the catalog as expected")
	}
	if est := promptLen(skills); est > len(sys) || est < len(sys)*9/10 {
		t.Errorf("promptLen %d, actual %d", est, len(sys))
	}
	if strings.Contains(SystemPrompt(nil), "<available_skills>") {
		t.Error("empty catalog rendered")
	}
}
