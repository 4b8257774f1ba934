package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// MaxResourceBytes bounds a file read through Resource (scripts, notes,
// assets of a skill).
const MaxResourceBytes = 64 << 20

// ReadError is a discovered file that could not be read: gone, refused
// because it is not a regular file (a FIFO or device), or over its size
// limit. Unlike a file that does not parse, it is an input error.
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// FromDisk discovers and parses the skills under roots (the shared walk:
// ignore files, symlink cycles, skill roots not descended) and returns them
// in walk order. Files that do not parse, or have no description, are
// returned as errors and left out, as an agent host would leave them out;
// files that cannot be read are *ReadError values.
func FromDisk(roots []string) ([]Skill, []error) {
	sources, errs := Walk(roots, WalkOptions{})
	skills := make([]Skill, 0, len(sources))
	for _, src := range sources {
		data, err := readSkillFile(src.Path)
		if err != nil {
			errs = append(errs, &ReadError{Path: src.Path, Err: err})
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
			Body:                   searchBody(doc.Body),
		})
	}
	return skills, errs
}

// searchBody returns the start of a body that search reads: at most
// MaxSearchBody bytes, cut before a partial character.
func searchBody(body []byte) string {
	if len(body) <= MaxSearchBody {
		return string(body)
	}
	cut := MaxSearchBody
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	return string(body[:cut])
}

// ErrNotFound reports a name that is not in the catalog.
var ErrNotFound = errors.New("no such skill")

// ErrAmbiguous reports a name that several skill files declare.
var ErrAmbiguous = errors.New("ambiguous skill name")

// AmbiguousError is a name that several skill files declare: the catalog
// a model sees keeps the first, but a request for the skill by name cannot
// tell which one is meant. Paths lists every file, the first one first.
type AmbiguousError struct {
	Name  string
	Paths []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("skill %q is ambiguous: %d skills have that name: %s", e.Name, len(e.Paths), strings.Join(e.Paths, ", "))
}

// Is makes errors.Is(err, ErrAmbiguous) hold.
func (e *AmbiguousError) Is(target error) bool { return target == ErrAmbiguous }

// ambiguous returns an *AmbiguousError when name is declared by more than
// one skill file (files with the same path count once), else nil.
func (s *Snapshot) ambiguous(name string, i int) error {
	later := s.shadowed[name]
	if len(later) == 0 {
		return nil
	}
	paths := []string{s.Skills[i].Location}
	for _, sk := range later {
		if !slices.Contains(paths, sk.Location) {
			paths = append(paths, sk.Location)
		}
	}
	if len(paths) < 2 || slices.Contains(paths, "") {
		// A catalog from a capture names no files to tell apart.
		return nil
	}
	return &AmbiguousError{Name: name, Paths: paths}
}

// ErrEscape reports a path that leaves its skill's folder.
var ErrEscape = errors.New("path leaves the skill folder")

// Load returns the skill file of name, verbatim. The file must resolve
// (symlinks included) inside the folder the skill was discovered in. Errors
// name the skill and no filesystem path, except an *AmbiguousError, which
// lists the files that declare the name.
func (s *Snapshot) Load(name string) ([]byte, error) {
	sk, file, err := s.skillFile(name)
	if err != nil {
		return nil, err
	}
	data, err := readSkillFile(file)
	if err != nil {
		return nil, fmt.Errorf("skill %q cannot be read", name)
	}
	if sk.Root == "" {
		if err := checkClaimedSkill(sk, data); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// Resource returns a file inside a skill's folder, verbatim; rel must be a
// relative path that stays inside the folder after resolving symlinks, and
// the folder itself inside the root the skill was discovered in.
func (s *Snapshot) Resource(name, rel string) ([]byte, error) {
	sk, file, err := s.skillFile(name)
	if err != nil {
		return nil, err
	}
	local, err := untrusted.Rel(rel)
	if errors.Is(err, untrusted.ErrOutside) {
		return nil, fmt.Errorf("skill %q: %w", name, ErrEscape)
	} else if err != nil {
		return nil, fmt.Errorf("skill %q: resource %w", name, err)
	}
	if sk.Root == "" {
		// A folder named by a capture is only trusted when it holds the
		// skill the capture says it does.
		data, err := readSkillFile(file)
		if err != nil {
			return nil, fmt.Errorf("skill %q cannot be read", name)
		}
		if err := checkClaimedSkill(sk, data); err != nil {
			return nil, err
		}
	}
	dir := filepath.Dir(sk.Location)
	path, err := untrusted.Within(dir, filepath.Join(dir, local))
	if err != nil {
		if errors.Is(err, untrusted.ErrOutside) {
			return nil, fmt.Errorf("skill %q: %w", name, ErrEscape)
		}
		return nil, fmt.Errorf("skill %q has no resource %q", name, rel)
	}
	data, err := untrusted.ReadFile(path, MaxResourceBytes)
	if err != nil {
		var tl *untrusted.TooLargeError
		switch {
		case errors.As(err, &tl), errors.Is(err, untrusted.ErrNotRegular) && !isDirErr(err):
			return nil, fmt.Errorf("skill %q: resource %q: %w", name, rel, err)
		case errors.Is(err, fs.ErrNotExist), isDirErr(err):
			return nil, fmt.Errorf("skill %q has no resource %q", name, rel)
		}
		return nil, fmt.Errorf("skill %q: resource %q cannot be read", name, rel)
	}
	return data, nil
}

func isDirErr(err error) bool {
	var nr *untrusted.NotRegularError
	return errors.As(err, &nr) && nr.Mode.IsDir()
}

// skillFile is the one containment check of Load and Resource: it returns
// the skill named name and its file with symlinks resolved, which must lie
// inside the root the skill was discovered under — so that neither a
// symlinked skill folder nor a symlinked SKILL.md leads out of it. A skill
// without a root (from a capture's catalog) is contained by its own folder.
func (s *Snapshot) skillFile(name string) (Skill, string, error) {
	i := s.Lookup(name)
	if i < 0 {
		return Skill{}, "", fmt.Errorf("%w %q", ErrNotFound, name)
	}
	if err := s.ambiguous(name, i); err != nil {
		return Skill{}, "", err
	}
	sk := s.Skills[i]
	if sk.Location == "" {
		return sk, "", fmt.Errorf("skill %q has no file here (catalog taken from a capture; pass --skills)", name)
	}
	base := sk.Root
	if base == "" {
		base = filepath.Dir(sk.Location)
	} else if st, err := os.Stat(base); err == nil && !st.IsDir() {
		base = filepath.Dir(base) // a skill file named as a root
	}
	file, err := untrusted.Within(base, sk.Location)
	switch {
	case errors.Is(err, untrusted.ErrOutside):
		return sk, "", fmt.Errorf("skill %q: %w", name, ErrEscape)
	case err != nil:
		return sk, "", fmt.Errorf("skill %q: file is missing", name)
	}
	// The skill's folder as reached must stay in the root too: it is the
	// base of Resource.
	if _, err := untrusted.Within(base, filepath.Dir(sk.Location)); err != nil {
		return sk, "", fmt.Errorf("skill %q: %w", name, ErrEscape)
	}
	return sk, file, nil
}

// checkClaimedSkill verifies that the file a capture's catalog names for
// sk is that skill's file (markdown with skill frontmatter declaring the
// same name), so that a capture cannot make skillopt print any file it
// names.
func checkClaimedSkill(sk Skill, data []byte) error {
	doc, err := ParseSkillDoc(sk.Location, data)
	if err != nil || !doc.HasSkillFrontmatter() || doc.SkillName() != sk.Name {
		return fmt.Errorf("skill %q: the file the capture names is not that skill's file", sk.Name)
	}
	return nil
}

// Location returns where a skill's file is (for the host, not the model's
// prompt).
func (s *Snapshot) Location(name string) (string, error) {
	i := s.Lookup(name)
	if i < 0 {
		return "", fmt.Errorf("%w %q", ErrNotFound, name)
	}
	if err := s.ambiguous(name, i); err != nil {
		return "", err
	}
	if s.Skills[i].Location == "" {
		return "", fmt.Errorf("skill %q has no known location", name)
	}
	return s.Skills[i].Location, nil
}
