package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadIsContained(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(root, "good", "SKILL.md"), "---\nname: good\ndescription: A good skill.\n---\nBody\r\nwith CRLF\r\n")
	writeFile(t, filepath.Join(root, "good", "scripts", "run.sh"), "echo hi\n")
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret")
	writeFile(t, filepath.Join(outside, "evil", "SKILL.md"), "---\nname: evil\ndescription: Lives elsewhere.\n---\n")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "good", "leak.txt")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	skills, errs := FromDisk([]string{root})
	if len(errs) > 0 || len(skills) != 1 {
		t.Fatalf("skills %+v errs %v", skills, errs)
	}
	// A skill whose recorded file lies outside its root (as a capture or a
	// tampered source could claim) is refused.
	skills = append(skills, Skill{Name: "evil", Description: "x", Location: filepath.Join(outside, "evil", "SKILL.md"), Root: root})
	s := NewSnapshot(skills, Options{})
	data, err := s.Load("good")
	if err != nil || !strings.Contains(string(data), "with CRLF\r\n") {
		t.Fatalf("load: %q %v", data, err)
	}
	if _, err := s.Load("evil"); !errors.Is(err, ErrEscape) {
		t.Fatalf("escape not refused: %v", err)
	}
	if _, err := s.Load("nope"); !errors.Is(err, ErrNotFound) || strings.Contains(err.Error(), root) {
		t.Fatalf("unknown name: %v", err)
	}
	if data, err := s.Resource("good", "scripts/run.sh"); err != nil || string(data) != "echo hi\n" {
		t.Fatalf("resource: %q %v", data, err)
	}
	for _, bad := range []string{"../../secret.txt", "/etc/passwd", "leak.txt", "scripts/../../good/../../x"} {
		_, err := s.Resource("good", bad)
		if err == nil {
			t.Errorf("resource %q allowed", bad)
		} else if strings.Contains(err.Error(), root) || strings.Contains(err.Error(), outside) {
			t.Errorf("error names a path: %v", err)
		}
	}
}

// TestRealSkillCorpus builds a catalog from the shared skill repositories:
// every skill reachable by pagination, listed in the compact index, and
// loadable.
func TestRealSkillCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "skills")
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared corpus not present")
	}
	skills, _ := FromDisk([]string{root})
	if len(skills) < 300 {
		t.Fatalf("only %d skills found", len(skills))
	}
	s := NewSnapshot(skills, Options{})
	index := CompactBlocks([][]Skill{s.Skills}, 12000)[0]
	ambiguous := 0
	for _, n := range s.Names() {
		if strings.Count(index, "\n"+cell(n)+"\t")+strings.Count(index, "\n"+cell(n)+"\n") != 1 {
			t.Errorf("%s not listed exactly once", n)
		}
		// The corpus repeats six names (init, run, status x2, review,
		// brand-guidelines): those are refused as ambiguous.
		if _, err := s.Load(n); err != nil && !errors.Is(err, ErrAmbiguous) {
			t.Errorf("load %s: %v", n, err)
		} else if err != nil {
			ambiguous++
		}
	}
	if ambiguous != 5 {
		t.Errorf("%d ambiguous names, want 5", ambiguous)
	}
	if strings.Contains(index, "/SKILL.md") {
		t.Error("a path leaked into the index")
	}
	seen := map[string]int{}
	req := BrowseRequest{Tags: []string{Unclassified}, PageSize: 40}
	for {
		page, data, err := s.Browse(req)
		if err != nil {
			t.Fatal(err)
		}
		if len([]rune(string(data))) > MaxPageChars {
			t.Fatal("page too long")
		}
		for _, c := range page.Cards {
			seen[c.Name]++
		}
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	if len(seen) != s.Len() {
		t.Fatalf("pagination reached %d of %d", len(seen), s.Len())
	}
	if res := s.Search("create a slack gif", 3); len(res) == 0 || res[0].Name != "slack-gif-creator" {
		t.Errorf("search: %+v", res)
	}
	t.Logf("%d skills, compact index %d bytes", s.Len(), len(index))
}

// A name that several files declare cannot be fetched by that name: the
// catalog keeps the first, and Load, Resource and Location list them all.
func TestLoadAmbiguousName(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a", "init", "SKILL.md"), "---\nname: init\ndescription: First.\n---\n")
	writeFile(t, filepath.Join(root, "b", "init", "SKILL.md"), "---\nname: init\ndescription: Second.\n---\n")
	writeFile(t, filepath.Join(root, "b", "other", "SKILL.md"), "---\nname: other\ndescription: Once.\n---\n")
	skills, errs := FromDisk([]string{root})
	if len(errs) > 0 || len(skills) != 3 {
		t.Fatalf("skills %+v errs %v", skills, errs)
	}
	s := NewSnapshot(skills, Options{})
	if s.Len() != 2 || s.Skills[s.Lookup("init")].Description != "First." {
		t.Fatalf("the first init is not the one kept: %+v", s.Skills)
	}
	want := []string{filepath.Join(root, "a", "init", "SKILL.md"), filepath.Join(root, "b", "init", "SKILL.md")}
	for name, call := range map[string]func() error{
		"Load":     func() error { _, err := s.Load("init"); return err },
		"Resource": func() error { _, err := s.Resource("init", "x.md"); return err },
		"Location": func() error { _, err := s.Location("init"); return err },
	} {
		err := call()
		var ae *AmbiguousError
		if !errors.Is(err, ErrAmbiguous) || !errors.As(err, &ae) || ae.Name != "init" || !slices.Equal(ae.Paths, want) {
			t.Errorf("%s: err %v, want an AmbiguousError over %v", name, err, want)
		}
	}
	if _, err := s.Load("other"); err != nil {
		t.Errorf("a name declared once: %v", err)
	}
	// The same file reached twice is one skill, not an ambiguity.
	dup := NewSnapshot(append(skills[:0:0], skills[2], skills[2]), Options{})
	if _, err := dup.Load("other"); err != nil {
		t.Errorf("one file twice: %v", err)
	}
}
