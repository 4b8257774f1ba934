//go:build unix

package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// FIFOs in a cloned tree (SKILL.md, an ignore file, an agent definition)
// used to block the walk or the lint forever; they are refused unopened.
func TestFIFOsDoNotBlock(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok", "SKILL.md"), okSkill)
	testfs.Mkfifo(t, filepath.Join(root, "f", "SKILL.md"))
	testfs.Mkfifo(t, filepath.Join(root, ".gitignore"))
	testfs.Mkfifo(t, filepath.Join(root, "ok", ".ignore"))

	skills, errs := FromDisk([]string{root})
	if len(skills) != 1 {
		t.Fatalf("skills = %+v", skills)
	}
	var re *ReadError
	if len(errs) != 1 || !errors.As(errs[0], &re) || !strings.Contains(errs[0].Error(), "named pipe") {
		t.Fatalf("errs = %v", errs)
	}

	if _, err := ReadAgent(filepath.Join(root, "f", "SKILL.md")); !errors.Is(err, untrusted.ErrNotRegular) {
		t.Fatalf("agent: %v", err)
	}
}

// An answer file that is a FIFO is a rejected answer, not a hang.
func TestInitFIFOAnswer(t *testing.T) {
	dir := t.TempDir()
	skills, _ := synthetic(2)
	in := &Initializer{Dir: filepath.Join(dir, "init"), Profile: filepath.Join(dir, "cards.json"), Snap: NewSnapshot(skills, Options{})}
	prof := NewProfile()
	st, err := in.Plan(prof)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := in.ResponsePath("g0001")
	testfs.Mkfifo(t, resp)
	if _, rej, err := in.Absorb(st, prof); err != nil || rej != 1 {
		t.Fatalf("rejected %d, %v", rej, err)
	}
	if !strings.Contains(st.Groups[0].Feedback, "named pipe") {
		t.Fatalf("feedback %q", st.Groups[0].Feedback)
	}
}
