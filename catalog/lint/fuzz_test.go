package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// FuzzScanLinks: the markdown link scanner never panics and every link
// destination it returns is the text at its offset.
func FuzzScanLinks(f *testing.F) {
	f.Add([]byte("See [a](b.md) and ![c](d%20e.png#x).\n\n```\n[no](x)\n```\n[ref]: r.md\n"))
	f.Add([]byte("`[code](x)` [a](<b c.md>) [d](e(f).md) \\[g](h)\n[^1]: foot\n"))
	f.Add([]byte("~~~~\n[a](b)\n~~~\n[c](d)\n~~~~\n[e](f)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		for _, l := range scanLinks(data, 0) {
			if l.off < 0 || l.off+len(l.target) > len(data) || string(data[l.off:l.off+len(l.target)]) != l.target {
				t.Fatalf("link %q at %d does not match the input", l.target, l.off)
			}
			if t2, ok := localTarget(l.target); ok && t2 == "" {
				t.Fatalf("empty local target from %q", l.target)
			}
		}
	})
}

// FuzzTokenCache: any cache file opens without panicking; a saved cache
// reads back the same counts.
func FuzzTokenCache(f *testing.F) {
	f.Add([]byte(tokenCacheVersion + " o200k_base\n00112233445566778899aabbccddeeff 12\n"))
	f.Add([]byte(tokenCacheVersion + " o200k_base\nzz 1\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "lint-tokens-o200k_base"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := openTokenCache(dir, "o200k_base")
		k := bodyKey(data)
		c.put(k, len(data))
		if err := c.save(); err != nil {
			t.Fatal(err)
		}
		again := openTokenCache(dir, "o200k_base")
		if n, ok := again.get(k); !ok || n != len(data) {
			t.Fatalf("saved count not read back: %d %v", n, ok)
		}
		for key, n := range c.old {
			if m, ok := again.get(key); !ok || m != n {
				t.Fatalf("old entry lost")
			}
		}
	})
}

// FuzzInline: the suppression comment reader never panics, and every
// directive it returns covers lines of the file in order.
func FuzzInline(f *testing.F) {
	f.Add([]byte("---\nname: a\nversion: 1 # skillopt: disable-line=SK030 -- why\n---\n<!-- skillopt: disable=SK043 -->\nx\n<!-- skillopt: enable=SK043 -->\n"))
	f.Add([]byte("---\nname: a\n---\n```\n<!-- skillopt: disable-file=SK0 -->\n```\ntext <!-- skillopt: disable-next-line=sk043, AG -->\n"))
	f.Add([]byte("<!-- skillopt: disable=SK043\n# skillopt: disable=SK030\n<!-- skillopt:disable-line= -->"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		d, _ := catalog.ParseSkillDoc("SKILL.md", data)
		for _, dd := range parseInline(d, false) {
			if dd.line < 1 || dd.line > d.Lines() || dd.col < 1 || dd.ref == "" {
				t.Fatalf("directive %+v outside the file of %d lines", dd, d.Lines())
			}
			if dd.to != 0 && dd.to < dd.from {
				t.Fatalf("directive %+v covers lines backwards", dd)
			}
		}
	})
}

// FuzzFix: fixing any skill file never panics, never makes the
// frontmatter unreadable, leaves no rule with more findings (while the
// frontmatter is readable) and is stable: fixing the result again changes
// nothing once the first fix has run its rounds.
func FuzzFix(f *testing.F) {
	f.Add([]byte("---\nname: My_Skill\ndescription: Use when: asked\nversion: 1.0\ntags: [a, b]\n---\nText.  \n\n\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\nname: 42\r\ndescription: x\r\nmetadata:\r\n  v: 1.0\r\n  k: true\r\nauthor: A \r\n---\r\nbody"))
	f.Add([]byte("---\nname: ｐｄｆ\ndescription: \"q\"\nmetadata:\n  owner: x\n\n  # c\n  y: \"2\"\nextra:\nlist:\n- a\n- b\n---\n"))
	f.Add([]byte("---\nname: a\ndescription: b\nx: 1 # skillopt: disable-line=SK030\n---\n<!-- skillopt: disable-file=SK063 -->\nt \t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "my-skill", "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		lintFix := func(content []byte) (*Report, []FileFix) {
			if err := os.WriteFile(p, content, 0o644); err != nil {
				t.Fatal(err)
			}
			// The token budget (SK041) loads a vocabulary: not what this
			// target is about.
			off := &rules.Levels{Severity: map[string]rules.Severity{}, Off: map[string]bool{"SK041": true}}
			rep, err := Run(Options{Paths: []string{dir}, Workers: 1, Levels: off})
			if err != nil {
				t.Fatal(err)
			}
			fixes, err := rep.Fixes(FixOptions{Unsafe: true})
			if err != nil {
				t.Fatal(err)
			}
			return rep, fixes
		}
		before, fixes := lintFix(data)
		if len(fixes) == 0 {
			return
		}
		after, again := lintFix(fixes[0].After)
		b, a := map[string]int{}, map[string]int{}
		for _, d := range before.Diagnostics {
			b[d.Rule]++
		}
		for _, d := range after.Diagnostics {
			a[d.Rule]++
		}
		fm := 0
		for id := range frontmatterRules {
			fm += b[id]
			if a[id] > b[id] {
				t.Fatalf("%s: %d findings before the fix, %d after\n%q\n%q", id, b[id], a[id], data, fixes[0].After)
			}
		}
		if fm == 0 {
			for id, n := range a {
				// A fix may take away what a suppression comment silenced
				// (a blank line it covered): the comment is then unused,
				// as it would be after a hand edit.
				if n > b[id] && id != "SK059" {
					t.Fatalf("%s: %d findings before the fix, %d after\n%q\n%q", id, b[id], n, data, fixes[0].After)
				}
			}
		}
		if len(again) > 0 && fm == 0 && len(before.Diagnostics) < maxFixRounds {
			t.Fatalf("a second fix changes the file again\n%q\n%q\n%q", data, fixes[0].After, again[0].After)
		}
	})
}
