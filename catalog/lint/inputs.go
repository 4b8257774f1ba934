package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// lintInputs is what the lint paths expand to.
type lintInputs struct {
	roots  []catalog.Root
	files  []catalog.Source // skill files named directly
	agents []agentInput
	// dirs are the folder paths given (for SK001).
	dirs []string
}

type agentInput struct{ path string }

// canonicalPath is the absolute path with symlinks resolved (as far as
// they resolve).
func canonicalPath(p string) string {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		p = c
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// gatherInputs expands the lint paths: folders are walked for skills (with
// their hidden skill folders) and searched for agent folders; files are
// skills or agent definitions by name, place or frontmatter.
func gatherInputs(paths []string, lc *Settings, rep *Report) *lintInputs {
	in := &lintInputs{}
	seenAgent := map[string]bool{}
	addAgent := func(p string) {
		canon := canonicalPath(p)
		if !seenAgent[canon] {
			seenAgent[canon] = true
			in.agents = append(in.agents, agentInput{path: p})
		}
	}
	addAgentFolder := func(dir string) {
		des, err := os.ReadDir(dir)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %w", dir, unwrapPath(err)))
			return
		}
		for _, de := range des {
			name := de.Name()
			// A README documents the folder; it is not an agent.
			if strings.HasPrefix(name, ".") || !strings.EqualFold(path.Ext(name), ".md") || strings.EqualFold(name, "README.md") {
				continue
			}
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				addAgent(p)
			}
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = errors.New("no such file or directory")
			} else {
				err = unwrapPath(err)
			}
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %w", p, err))
			continue
		}
		if !st.IsDir() {
			if isAgentFile(p, lc.AgentFolders) {
				addAgent(p)
				continue
			}
			in.files = append(in.files, catalog.Source{Path: filepath.Clean(p), Canonical: canonicalPath(p), Root: p, Rel: ".", Kind: catalog.GivenFile})
			continue
		}
		in.dirs = append(in.dirs, p)
		if isAgentFolder(p, lc.AgentFolders) {
			addAgentFolder(p)
			continue
		}
		in.roots = append(in.roots, catalog.Root{Path: p})
		for _, f := range lc.SkillFolders {
			sub, ok := below(p, f)
			if !ok {
				continue
			}
			if st, err := os.Stat(sub); err == nil && st.IsDir() {
				// Pi ignores root-level files of .agents/skills folders.
				in.roots = append(in.roots, catalog.Root{Path: sub, NoRootFiles: path.Base(path.Dir(f)) == ".agents"})
			}
		}
		for _, f := range lc.AgentFolders {
			sub, ok := below(p, f)
			if !ok {
				continue
			}
			if st, err := os.Stat(sub); err == nil && st.IsDir() {
				addAgentFolder(sub)
			}
		}
	}
	// Files given directly are deduplicated against each other here and
	// against walked files by canonical path in the walk's map.
	return in
}

// below joins a configured folder (from skillopt.toml, which may have come
// with the repository) to a lint path; one that would climb out of it
// ("a/../../x", absolute) is not used.
func below(dir, folder string) (string, bool) {
	local, err := untrusted.Rel(folder)
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, local), true
}

// isAgentFolder reports whether dir is one of the configured agent folders
// (compared by its trailing path elements).
func isAgentFolder(dir string, folders []string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	abs = filepath.ToSlash(abs)
	for _, f := range folders {
		f = strings.Trim(path.Clean(f), "/")
		if abs == f || strings.HasSuffix(abs, "/"+f) {
			return true
		}
	}
	return false
}

// isAgentFile reports whether a file is an agent definition: a markdown
// file in an agent folder, or one whose frontmatter sets an agent skill
// field. SKILL.md files never are.
func isAgentFile(p string, folders []string) bool {
	if strings.EqualFold(filepath.Base(p), catalog.SkillFileName) {
		return false
	}
	if strings.EqualFold(filepath.Ext(p), ".md") && isAgentFolder(filepath.Dir(p), folders) {
		return true
	}
	data, err := catalog.ReadSkillFile(p, nil)
	if err != nil {
		return false
	}
	d, _ := catalog.ParseSkillDoc(p, data)
	return d.Frontmatter != nil && catalog.IsAgentFrontmatter(d)
}

// unwrapPath drops the *PathError wrapper: messages name the path once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
