package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AgentDirs are where agent definitions are looked up by name, as the
// host does: the project's folder (ProjectDir/.pi/agents) and the global
// one (GlobalDir, ~/.pi/agent/agents).
type AgentDirs struct {
	// Project is the project's root; its definitions are in
	// Project/.pi/agents. "" looks in no project.
	Project string
	// Global is the folder of the global definitions. "" looks in none.
	Global string
	// Trusted says the project's definitions may be used.
	Trusted bool
}

// ProjectAgents is the folder of a project's agent definitions, relative
// to its root.
const ProjectAgents = ".pi/agents"

// AgentLookup says which definition of an agent name was chosen, and what
// else was found.
type AgentLookup struct {
	Name string `json:"name"`
	// Path is the chosen definition, Scope "project", "global" or "file"
	// (a path given as such).
	Path  string `json:"path"`
	Scope string `json:"scope"`
	// Shadowed is the global definition of the same file name that the
	// project's shadows ("" when none); definitions are never merged.
	Shadowed string `json:"shadowed,omitempty"`
	// Ignored is a project definition left out because the project is not
	// trusted ("" when none).
	Ignored string `json:"ignored_untrusted,omitempty"`
}

// ErrNoAgent is returned when no definition of an agent name exists.
var ErrNoAgent = errors.New("no agent definition")

// FindAgent returns the definition an agent name resolves to. A name that
// is a path (it has a folder or ends in .md and the file exists) is that
// file. Otherwise NAME.md is looked up in the project's .pi/agents and in
// the global folder: a trusted project's definition shadows the global one
// of the same file name, valid or not (the loadout then reports it
// invalid); an untrusted project's is not considered.
func FindAgent(name string, dirs AgentDirs) (AgentLookup, error) {
	if strings.ContainsAny(name, "/"+string(filepath.Separator)) {
		return AgentLookup{Name: name, Path: name, Scope: "file"}, nil
	}
	if _, err := os.Stat(name); err == nil && strings.HasSuffix(name, ".md") {
		return AgentLookup{Name: name, Path: name, Scope: "file"}, nil
	}
	file := strings.TrimSuffix(name, ".md") + ".md"
	if strings.TrimSuffix(name, ".md") == "" || strings.HasPrefix(file, ".") {
		return AgentLookup{}, fmt.Errorf("agent %q is not a name", name)
	}
	l := AgentLookup{Name: strings.TrimSuffix(name, ".md")}
	project, global := "", ""
	if dirs.Project != "" {
		project = existing(filepath.Join(dirs.Project, ProjectAgents, file))
	}
	if dirs.Global != "" {
		global = existing(filepath.Join(dirs.Global, file))
	}
	switch {
	case project != "" && dirs.Trusted:
		l.Path, l.Scope, l.Shadowed = project, "project", global
	case global != "":
		l.Path, l.Scope, l.Ignored = global, "global", project
	case project != "":
		return AgentLookup{}, fmt.Errorf("agent %q: %s is a project definition and the project is not trusted, and %s has none: %w", l.Name, project, orNone(dirs.Global), ErrNoAgent)
	default:
		return AgentLookup{}, fmt.Errorf("agent %q: neither %s nor %s holds %s: %w", l.Name,
			orNone(filepath.Join(dirs.Project, ProjectAgents)), orNone(dirs.Global), file, ErrNoAgent)
	}
	return l, nil
}

// existing returns path when something is there (a file, or anything a
// read will then report on), else "".
func existing(path string) string {
	if _, err := os.Lstat(path); err != nil && errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	return path
}

func orNone(dir string) string {
	if dir == "" || dir == ProjectAgents {
		return "no folder"
	}
	return dir
}

// TrustedProject reports whether project is one of trusted (folders,
// compared after making both absolute and resolving symbolic links).
func TrustedProject(project string, trusted []string) bool {
	p := canonicalDir(project)
	for _, t := range trusted {
		if canonicalDir(t) == p {
			return true
		}
	}
	return false
}

func canonicalDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Clean(dir)
}
