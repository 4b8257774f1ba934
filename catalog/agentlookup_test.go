package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFindAgent(t *testing.T) {
	root := t.TempDir()
	project, global := filepath.Join(root, "proj"), filepath.Join(root, "global")
	for _, p := range []string{
		filepath.Join(project, ProjectAgents, "both.md"), filepath.Join(global, "both.md"),
		filepath.Join(project, ProjectAgents, "local.md"), filepath.Join(global, "far.md"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: x\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pj := func(n string) string { return filepath.Join(project, ProjectAgents, n) }
	gl := func(n string) string { return filepath.Join(global, n) }
	cases := []struct {
		name    string
		trusted bool
		want    AgentLookup
		err     error
	}{
		{"both", true, AgentLookup{Name: "both", Path: pj("both.md"), Scope: "project", Shadowed: gl("both.md")}, nil},
		{"both.md", true, AgentLookup{Name: "both", Path: pj("both.md"), Scope: "project", Shadowed: gl("both.md")}, nil},
		{"both", false, AgentLookup{Name: "both", Path: gl("both.md"), Scope: "global", Ignored: pj("both.md")}, nil},
		{"local", true, AgentLookup{Name: "local", Path: pj("local.md"), Scope: "project"}, nil},
		{"local", false, AgentLookup{}, ErrNoAgent},
		{"far", true, AgentLookup{Name: "far", Path: gl("far.md"), Scope: "global"}, nil},
		{"none", true, AgentLookup{}, ErrNoAgent},
		{"dir/x.md", false, AgentLookup{Name: "dir/x.md", Path: "dir/x.md", Scope: "file"}, nil},
	}
	for _, c := range cases {
		got, err := FindAgent(c.name, AgentDirs{Project: project, Global: global, Trusted: c.trusted})
		if !errors.Is(err, c.err) || got != c.want {
			t.Errorf("%s (trusted %v) = %+v, %v; want %+v, %v", c.name, c.trusted, got, err, c.want, c.err)
		}
	}
	if _, err := FindAgent(".md", AgentDirs{Project: project}); err == nil {
		t.Error(`".md" accepted as a name`)
	}
	if !TrustedProject(project, []string{filepath.Join(project, ".")}) || TrustedProject(project, []string{global}) {
		t.Error("TrustedProject")
	}
}
