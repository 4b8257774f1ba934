package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/bench/synth"
)

// intentReference is Intent as first written: every whitespace run
// collapsed over the whole description, then the first sentence.
func intentReference(desc string) string {
	s := strings.Join(strings.Fields(desc), " ")
	if i := sentenceEnd(s); i > 0 {
		s = s[:i]
	}
	for changed := true; changed; {
		changed = false
		low := strings.ToLower(s)
		for _, p := range intentPrefixes {
			if strings.HasPrefix(low, p) && len(s) > len(p)+8 {
				s = s[len(p):]
				changed = true
				break
			}
		}
	}
	for _, sep := range []string{"; ", " — ", " – ", " - ", ": ", " (", ", including ", ", such as ", ". "} {
		if i := strings.Index(s, sep); i >= 12 {
			s = s[:i]
		}
	}
	if utf8.RuneCountInString(s) > maxIntentChars {
		s = shorten(s, maxIntentChars)
	}
	for {
		i := strings.LastIndexByte(s, ' ')
		if i < 0 || !danglingWord(strings.ToLower(strings.TrimRight(s[i+1:], ",;:"))) {
			break
		}
		s = s[:i]
	}
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	if r, size := utf8.DecodeRuneInString(s); size > 0 && unicode.IsUpper(r) {
		if r2, _ := utf8.DecodeRuneInString(s[size:]); !unicode.IsUpper(r2) {
			s = string(unicode.ToLower(r)) + s[size:]
		}
	}
	return s
}

func intentInputs(t testing.TB) []string {
	var in []string
	for _, sk := range synth.Skills(3000, 7) {
		in = append(in, sk.Description)
	}
	in = append(in, "", " ", "A.", "Use when x. Then y.", "e.g. this. and that", "x!y ? z", "Use this skill when\tthe user asks to do\n\nthings. More.",
		"\u212A elvin sign at the start of a long enough description", "Use when \xff\xfe invalid bytes appear in the text here.", "  leading and trailing   ")
	root := filepath.Join("..", "..", "shared", "corpus", "skills")
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "SKILL.md" {
			if data, err := os.ReadFile(p); err == nil {
				if doc, err := ParseSkillDoc(p, data); err == nil {
					if f := doc.Field("description"); f != nil {
						in = append(in, f.Node.Value)
					}
				}
			}
		}
		return nil
	})
	return in
}

func TestIntentMatchesReference(t *testing.T) {
	for _, d := range intentInputs(t) {
		if got, want := intent(d), intentReference(d); got != want {
			t.Errorf("%.60q: got %q, want %q", d, got, want)
		}
	}
}

func FuzzIntent(f *testing.F) {
	for _, d := range []string{"Use when the user asks to convert PDFs. Also more.", "i.e. odd. Yes", "\u212A\u212A\u212A use for x"} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if got, want := intent(d), intentReference(d); got != want {
			t.Fatalf("%q: got %q, want %q", d, got, want)
		}
	})
}

func BenchmarkIntent(b *testing.B) {
	sk := synth.Skills(10000, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range sk {
			intent(s.Description)
		}
	}
}

// When the names fill the budget no intent is derived, and the index is
// the one the full computation gives: names only.
func TestCompactNamesOnly(t *testing.T) {
	skills := synth.Skills(400, 3)
	groups := [][]Skill{make([]Skill, len(skills))}
	for i, sk := range skills {
		groups[0][i] = Skill{Name: sk.Name, Description: sk.Description}
	}
	full, fs := Compact(groups, 1<<30)
	if fs.NamesOnly || fs.Intents == 0 || fs.Kept != fs.Intents {
		t.Fatalf("large budget: %+v", fs)
	}
	tight, ts := Compact(groups, fs.Floor+1)
	if !ts.NamesOnly || ts.Intents != 0 || ts.Kept != 0 {
		t.Fatalf("tight budget: %+v", ts)
	}
	if strings.Contains(tight[0], "\t") || len(tight[0]) >= len(full[0]) {
		t.Errorf("names-only index carries intents")
	}
	some, ss := Compact(groups, fs.Floor+200)
	if ss.NamesOnly || ss.Kept == 0 || ss.Kept >= ss.Intents || strings.Count(some[0], "\t") != ss.Kept {
		t.Errorf("some intents: %+v", ss)
	}
}
