package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FromDisk discovers and parses the skills under roots (the shared walk:
// ignore files, symlink cycles, skill roots not descended) and returns them
// in walk order. Files that do not parse, or have no description, are
// returned as errors and left out, as an agent host would leave them out.
func FromDisk(roots []string) ([]Skill, []error) {
	sources, errs := Walk(roots, WalkOptions{})
	skills := make([]Skill, 0, len(sources))
	for _, src := range sources {
		data, err := os.ReadFile(src.Path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		doc, err := ParseSkillDoc(src.Path, data)
		if err != nil {
			if src.Kind == RootFile && !bytes.HasPrefix(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("---")) {
				continue // a README or notes file beside the skills, not a skill
			}
			errs = append(errs, err)
			continue
		}
		if doc.Description == "" {
			if doc.HasSkillFrontmatter() {
				errs = append(errs, fmt.Errorf("%s: no description; not a loadable skill", src.Path))
			}
			continue
		}
		skills = append(skills, Skill{
			Name:                   doc.SkillName(),
			Description:            doc.Description,
			Location:               src.Path,
			Root:                   src.Root,
			DisableModelInvocation: doc.DisableModelInvocation,
		})
	}
	return skills, errs
}

// ErrNotFound reports a name that is not in the catalog.
var ErrNotFound = errors.New("no such skill")

// ErrEscape reports a path that leaves its skill's folder.
var ErrEscape = errors.New("path leaves the skill folder")

// Load returns the skill file of name, verbatim. The file must resolve
// (symlinks included) inside the folder the skill was discovered in. Errors
// name the skill, never a filesystem path.
func (s *Snapshot) Load(name string) ([]byte, error) {
	i := s.Lookup(name)
	if i < 0 {
		return nil, fmt.Errorf("%w %q", ErrNotFound, name)
	}
	sk := s.Skills[i]
	if sk.Location == "" {
		return nil, fmt.Errorf("skill %q has no file here (catalog taken from a capture; pass --skills)", name)
	}
	base := sk.Root
	if base == "" {
		base = filepath.Dir(sk.Location)
	}
	path, err := contained(base, sk.Location)
	if err != nil {
		return nil, fmt.Errorf("skill %q: %w", name, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("skill %q cannot be read", name)
	}
	return data, nil
}

// Resource returns a file inside a skill's folder, verbatim; rel must be a
// relative path that stays inside the folder after resolving symlinks.
func (s *Snapshot) Resource(name, rel string) ([]byte, error) {
	i := s.Lookup(name)
	if i < 0 {
		return nil, fmt.Errorf("%w %q", ErrNotFound, name)
	}
	sk := s.Skills[i]
	if sk.Location == "" {
		return nil, fmt.Errorf("skill %q has no folder here", name)
	}
	if rel == "" || filepath.IsAbs(rel) || strings.HasPrefix(filepath.ToSlash(rel), "/") {
		return nil, fmt.Errorf("skill %q: resource path must be relative", name)
	}
	dir := filepath.Dir(sk.Location)
	path, err := contained(dir, filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("skill %q: %w", name, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil, fmt.Errorf("skill %q has no resource %q", name, rel)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("skill %q: resource %q cannot be read", name, rel)
	}
	return data, nil
}

// Location returns where a skill's file is (for the host, not the model's
// prompt).
func (s *Snapshot) Location(name string) (string, error) {
	i := s.Lookup(name)
	if i < 0 {
		return "", fmt.Errorf("%w %q", ErrNotFound, name)
	}
	if s.Skills[i].Location == "" {
		return "", fmt.Errorf("skill %q has no known location", name)
	}
	return s.Skills[i].Location, nil
}

// contained resolves path and base and checks that path lies inside base.
func contained(base, path string) (string, error) {
	cb, err := filepath.EvalSymlinks(base)
	if err != nil {
		return "", errors.New("skill folder is missing")
	}
	cp, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", errors.New("file is missing")
	}
	rel, err := filepath.Rel(cb, cp)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", ErrEscape
	}
	return cp, nil
}
