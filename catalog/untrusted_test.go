package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/untrusted"
)

const okSkill = "---\nname: ok\ndescription: A fine skill.\n---\nBody.\n"

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
}

// A SKILL.md that is a link to a device is refused by type before it is
// read (it used to be read without bound), as a *ReadError; the other
// skills are still built.
func TestFromDiskRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok", "SKILL.md"), okSkill)
	symlink(t, "/dev/zero", filepath.Join(root, "z", "SKILL.md"))
	skills, errs := FromDisk([]string{root})
	if len(skills) != 1 || skills[0].Name != "ok" {
		t.Fatalf("skills = %+v", skills)
	}
	var re *ReadError
	if len(errs) != 1 || !errors.As(errs[0], &re) || !errors.Is(errs[0], untrusted.ErrNotRegular) || !strings.HasSuffix(re.Path, filepath.Join("z", "SKILL.md")) {
		t.Fatalf("errs = %v", errs)
	}
}

func TestFromDiskOversize(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "big", "SKILL.md")
	writeFile(t, p, "")
	if err := os.Truncate(p, MaxSkillFileBytes+1); err != nil {
		t.Skip(err)
	}
	_, errs := FromDisk([]string{root})
	var tl *untrusted.TooLargeError
	if len(errs) != 1 || !errors.As(errs[0], &tl) {
		t.Fatalf("errs = %v", errs)
	}
}

// catalog resource used to follow a skill folder linked from outside the
// root (skills/x -> ../outside) although Load refused it: one check now
// serves both.
func TestResourceSymlinkedSkillFolder(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	writeFile(t, filepath.Join(root, "ok", "SKILL.md"), okSkill)
	writeFile(t, filepath.Join(dir, "outside", "SKILL.md"), "---\nname: x\ndescription: Lives elsewhere.\n---\n")
	writeFile(t, filepath.Join(dir, "outside", "secret.txt"), "secret")
	symlink(t, filepath.Join("..", "outside"), filepath.Join(root, "x"))
	skills, _ := FromDisk([]string{root})
	s := NewSnapshot(skills, Options{})
	if s.Lookup("x") < 0 {
		t.Fatal("the walk no longer follows the link; the test needs a skill x")
	}
	if _, err := s.Load("x"); !errors.Is(err, ErrEscape) {
		t.Errorf("load: %v, want ErrEscape", err)
	}
	if data, err := s.Resource("x", "secret.txt"); !errors.Is(err, ErrEscape) {
		t.Errorf("resource: %q, %v; want ErrEscape", data, err)
	}
	for _, rel := range []string{"../x/secret.txt", "/etc/passwd", `..\x`, "", "."} {
		if _, err := s.Resource("ok", rel); err == nil {
			t.Errorf("resource %q allowed", rel)
		}
	}
}

// A skill taken from a capture names its own file; it is read only when
// that file is the skill it claims to be, so a capture cannot make
// catalog load or resource print any file it likes.
func TestCaptureLocationMustBeTheSkill(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "skills", "ok", "SKILL.md")
	writeFile(t, real, okSkill)
	writeFile(t, filepath.Join(dir, "skills", "ok", "notes.md"), "notes")
	secret := filepath.Join(dir, "home", "id_rsa")
	writeFile(t, secret, "-----BEGIN KEY-----")
	writeFile(t, filepath.Join(dir, "home", "other.md"), "---\nname: other\ndescription: Another skill.\n---\n")
	s := NewSnapshot([]Skill{
		{Name: "ok", Description: "A fine skill.", Location: real},
		{Name: "key", Description: "x", Location: secret},
		{Name: "impostor", Description: "x", Location: filepath.Join(dir, "home", "other.md")},
	}, Options{})
	if data, err := s.Load("ok"); err != nil || string(data) != okSkill {
		t.Fatalf("load ok: %q, %v", data, err)
	}
	if data, err := s.Resource("ok", "notes.md"); err != nil || string(data) != "notes" {
		t.Fatalf("resource ok: %q, %v", data, err)
	}
	for _, name := range []string{"key", "impostor"} {
		if data, err := s.Load(name); err == nil {
			t.Errorf("load %s: read %q", name, data)
		} else if strings.Contains(err.Error(), dir) {
			t.Errorf("load %s: error names a path: %v", name, err)
		}
		if data, err := s.Resource(name, "id_rsa"); err == nil {
			t.Errorf("resource %s: read %q", name, data)
		}
	}
}

// A state whose group id walks out of the work folder (../../../victim)
// is refused before any file is read, written or moved.
func TestInitStateTraversal(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "a", "b", "init")
	skills, _ := synthetic(3)
	in := &Initializer{Dir: work, Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{})}
	st, err := in.Plan(NewProfile())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../../../victim", "/tmp/victim", "a\x00b", `..\victim`, ""} {
		st.Groups[0].ID = id
		if err := in.save(st); err != nil {
			t.Fatal(err)
		}
		victim := filepath.Join(dir, "victim.json")
		writeFile(t, victim, "keep")
		if _, err := in.Plan(NewProfile()); err == nil || !strings.Contains(err.Error(), "state.json") {
			t.Errorf("id %q: Plan = %v, want the state refused", id, err)
		}
		if data, err := os.ReadFile(victim); err != nil || string(data) != "keep" {
			t.Errorf("id %q: victim changed: %q %v", id, data, err)
		}
		if _, err := in.ResponsePath(id); err == nil {
			t.Errorf("ResponsePath(%q) accepted", id)
		}
	}
}

// A rejected answer is moved aside, never deleted, and never replaces
// another file.
func TestInitRejectedAnswerKept(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(3)
	in := &Initializer{Dir: filepath.Join(dir, "init"), Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{})}
	prof := NewProfile()
	st, err := in.Plan(prof)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := in.ResponsePath("g0001")
	writeFile(t, resp, "not an answer")
	// A file already in the first place is kept as it is.
	taken := filepath.Join(dir, "init", "responses", "g0001.rejected-1.json")
	writeFile(t, taken, "older")
	if _, rej, err := in.Absorb(st, prof); err != nil || rej != 1 {
		t.Fatalf("rejected %d, %v", rej, err)
	}
	if _, err := os.Stat(resp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("answer still in place: %v", err)
	}
	if data, _ := os.ReadFile(taken); string(data) != "older" {
		t.Errorf("existing file replaced: %q", data)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "init", "responses", "g0001.rejected-2.json")); err != nil || string(data) != "not an answer" {
		t.Errorf("rejected answer not kept: %q %v", data, err)
	}
}
