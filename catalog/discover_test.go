package catalog

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillopt/skillopt/internal/testfs"
)

func rels(srcs []Source) []string {
	out := make([]string, len(srcs))
	for i, s := range srcs {
		out[i] = s.Rel
	}
	return out
}

func events(d *Discovery, kind EventKind) []string {
	var out []string
	for _, e := range d.Events {
		if e.Kind == kind {
			out = append(out, e.Rel)
		}
	}
	return out
}

func TestWalkLayout(t *testing.T) {
	dir := testfs.Tree(t, `
-- README.md --
# not a skill unless it has frontmatter
-- notes.txt --
-- b-skill/SKILL.md --
-- a-skill/SKILL.md --
-- a-skill/references/guide.md --
-- a-skill/nested/SKILL.md --
-- group/one/SKILL.md --
-- group/two/SKILL.md --
-- group/README.md --
-- .hidden/x/SKILL.md --
-- node_modules/pkg/SKILL.md --
-- lower/skill.md --
`)
	d := Discover([]string{dir}, WalkOptions{})
	// The root's own files come before its subfolders are walked.
	want := []string{"README.md", "a-skill/SKILL.md", "b-skill/SKILL.md", "group/one/SKILL.md", "group/two/SKILL.md"}
	if got := rels(d.Sources); !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	if d.Sources[0].Kind != RootFile || d.Sources[1].Kind != SkillFile {
		t.Errorf("kinds %v %v", d.Sources[0].Kind, d.Sources[1].Kind)
	}
	if got := events(d, EventNested); len(got) != 0 {
		t.Errorf("nested reported without Nested: %v", got)
	}
	if got := events(d, EventMiscased); !slices.Equal(got, []string{"lower/skill.md"}) {
		t.Errorf("miscased %v", got)
	}
	d = Discover([]string{dir}, WalkOptions{Nested: true})
	if got := events(d, EventNested); !slices.Equal(got, []string{"a-skill/nested/SKILL.md"}) {
		t.Errorf("nested %v", got)
	}
	if got := rels(d.Sources); !slices.Equal(got, want) {
		t.Errorf("Nested changed the sources: %v", got)
	}
	// A root that is a skill root is one skill, its root files are not.
	d = Discover([]string{filepath.Join(dir, "a-skill")}, WalkOptions{})
	if got := rels(d.Sources); !slices.Equal(got, []string{"SKILL.md"}) {
		t.Errorf("skill root: %v", got)
	}
	// NoRootFiles drops README.md.
	d = Discover([]string{dir}, WalkOptions{NoRootFiles: true})
	if got := rels(d.Sources); slices.Contains(got, "README.md") {
		t.Errorf("NoRootFiles: %v", got)
	}
	// A hidden root is walked.
	d = Discover([]string{filepath.Join(dir, ".hidden")}, WalkOptions{})
	if got := rels(d.Sources); !slices.Equal(got, []string{"x/SKILL.md"}) {
		t.Errorf("hidden root: %v", got)
	}
}

func TestWalkIgnoreFiles(t *testing.T) {
	dir := testfs.Tree(t, `
-- .gitignore --
# comment
build/
/top
*.tmp.md
!keep.tmp.md
-- build/x/SKILL.md --
-- top/SKILL.md --
-- sub/top/SKILL.md --
-- sub/.ignore --
private
-- sub/private/SKILL.md --
-- other/private/SKILL.md --
-- dropped.tmp.md --
---
name: a
---
-- keep.tmp.md --
---
name: b
---
-- fd/.fdignore --
skip-me
-- fd/skip-me/SKILL.md --
-- fd/.gitignore --
!skip-me
`)
	d := Discover([]string{dir}, WalkOptions{})
	want := []string{"keep.tmp.md", "other/private/SKILL.md", "sub/top/SKILL.md"}
	if got := rels(d.Sources); !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	var ignored []string
	for _, e := range d.Events {
		if e.Kind == EventIgnored {
			ignored = append(ignored, fmt.Sprintf("%s by %s:%d %q", e.Rel, filepath.Base(e.File), e.Line, e.Pattern))
		}
	}
	wantIgn := []string{
		`build by .gitignore:2 "build/"`,
		`dropped.tmp.md by .gitignore:4 "*.tmp.md"`,
		`fd/skip-me by .fdignore:1 "skip-me"`,
		`sub/private by .ignore:1 "private"`,
		`top by .gitignore:3 "/top"`,
	}
	slices.Sort(ignored)
	if !slices.Equal(ignored, wantIgn) {
		t.Errorf("ignored:\n%s\nwant:\n%s", strings.Join(ignored, "\n"), strings.Join(wantIgn, "\n"))
	}
}

func TestWalkSymlinks(t *testing.T) {
	dir := testfs.Tree(t, `
symlink loop/back ..
symlink loop/again ../loop
symlink twice/one ../real
symlink twice/two ../real
symlink linked/SKILL.md ../real/SKILL.md
symlink dangling/SKILL.md ../nowhere/SKILL.md
symlink deadlink ./nothing
-- real/SKILL.md --
-- loop/a/SKILL.md --
`)
	// A walk that does not terminate on the loops fails by the test
	// timeout; no wall-clock bound here.
	d := Discover([]string{dir}, WalkOptions{})
	want := []string{"linked/SKILL.md", "loop/a/SKILL.md"}
	if got := rels(d.Sources); !slices.Equal(got, want) {
		t.Errorf("sources %v, want %v", got, want)
	}
	// loop/again resolves to loop itself, which is being walked.
	if got := events(d, EventCycle); !slices.Equal(got, []string{"loop/again", "loop/back"}) {
		t.Errorf("cycles %v", got)
	}
	alias := events(d, EventAlias)
	if !slices.Contains(alias, "real/SKILL.md") && !slices.Contains(alias, "real") {
		t.Errorf("the symlinked SKILL.md's target should be an alias: %v", alias)
	}
	if got := events(d, EventBroken); !slices.Equal(got, []string{"deadlink", "dangling/SKILL.md"}) {
		t.Errorf("broken %v", got)
	}
	var cycleErr *WalkError
	errs := d.Errors()
	if len(errs) == 0 || !errors.As(errs[0], &cycleErr) || cycleErr.Kind != EventCycle {
		t.Errorf("errors %v", errs)
	}
}

func TestWalkDoubleLoopTerminates(t *testing.T) {
	dir := testfs.Tree(t, `
symlink a/up1 ..
symlink a/up2 ..
symlink a/b/up3 ../..
symlink a/b/side ../../a
-- a/b/c/SKILL.md --
`)
	srcs, errs := Walk([]string{dir}, WalkOptions{})
	if got := rels(srcs); !slices.Equal(got, []string{"a/b/c/SKILL.md"}) {
		t.Errorf("sources %v", got)
	}
	if len(errs) != 4 {
		t.Errorf("want 4 cycle errors, got %v", errs)
	}
}

func TestWalkRootsAndLimits(t *testing.T) {
	dir := testfs.Tree(t, `
-- one/SKILL.md --
-- deep/a/b/c/d/SKILL.md --
-- single.md --
`)
	// A file root is one source; a missing root is an error; a root given
	// twice yields its skills once.
	srcs, errs := Walk([]string{filepath.Join(dir, "single.md"), filepath.Join(dir, "missing"), filepath.Join(dir, "one"), filepath.Join(dir, "one", "SKILL.md")}, WalkOptions{})
	if len(srcs) != 2 || srcs[0].Kind != GivenFile || srcs[0].Rel != "." || srcs[1].Rel != "SKILL.md" {
		t.Errorf("sources %+v", srcs)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing: no such file") {
		t.Errorf("errors %v", errs)
	}
	d := Discover([]string{dir}, WalkOptions{MaxDepth: 3})
	if got := events(d, EventLimit); !slices.Equal(got, []string{"deep/a/b/c"}) {
		t.Errorf("depth limit %v", got)
	}
	d = Discover([]string{dir}, WalkOptions{MaxFiles: 3})
	if got := events(d, EventLimit); len(got) != 1 {
		t.Errorf("entry limit %v", got)
	}
}

func TestIsWarning(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&WalkError{Kind: EventCycle, Path: "a", Err: errors.New("symlink cycle")}, true},
		{fmt.Errorf("wrapped: %w", &WalkError{Kind: EventCycle, Path: "a", Err: errors.New("loop")}), true},
		{&WalkError{Kind: EventUnreadable, Path: "a", Err: errors.New("permission denied")}, false},
		{&WalkError{Kind: EventMissing, Path: "a", Err: errors.New("no such file")}, false},
		{errors.New("other"), false},
	} {
		if got := IsWarning(tc.err); got != tc.want {
			t.Errorf("IsWarning(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
