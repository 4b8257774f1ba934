// Package skillsource builds the catalog a catalog command works on: from
// skill folders on disk, or from the native skill catalog a captured
// request carries, with the card profile when one is given. It tells the
// problems of a skill tree that are input errors from the skills a host
// would merely skip.
package skillsource

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// Options say where a catalog comes from.
type Options struct {
	// From is a capture file whose first native catalog is read ("-"
	// reads Stdin); when it is "", Roots are read.
	From  string
	Stdin io.Reader
	// Roots are the skill folders to read.
	Roots []string
	// Exclude names skills that are never eligible.
	Exclude []string
	// Profile is the card profile file, "" for none.
	Profile string
}

// Build builds the snapshot and names its source (the capture's name, or
// the roots). Problems are those of the skill tree (see IsInputError and
// catalog.IsWarning), in the order they were found; they are returned
// even when err ends the build afterwards. Err names the file it is about.
func Build(o Options) (snap *catalog.Snapshot, source string, problems []error, err error) {
	var skills []catalog.Skill
	if o.From != "" {
		if skills, source, err = fromCapture(o.From, o.Stdin); err != nil {
			return nil, "", nil, err
		}
	} else {
		if len(o.Roots) == 0 {
			return nil, "", nil, errors.New("no skill folder given")
		}
		skills, problems = catalog.FromDisk(o.Roots)
		source = strings.Join(o.Roots, ", ")
	}
	opts := catalog.Options{Exclude: o.Exclude}
	if o.Profile != "" {
		p, err := catalog.LoadProfileCached(o.Profile)
		if err != nil {
			return nil, "", problems, err
		}
		opts.Profile = p
	}
	return catalog.NewSnapshot(skills, opts), source, problems, nil
}

// fromCapture reads the skills of the first native catalog in the
// capture file at path, and the name of the capture that holds it.
func fromCapture(path string, stdin io.Reader) ([]catalog.Skill, string, error) {
	f, err := capture.ReadFile(path, stdin, capture.Options{})
	if err != nil {
		return nil, "", err
	}
	for _, capt := range f.Captures {
		if skills := catalog.ParsePiCatalogs(capt.CatalogTexts()...); len(skills) > 0 {
			return skills, capt.Name, nil
		}
	}
	return nil, "", fmt.Errorf("%s: no native skill catalog in the capture", path)
}

// IsInputError tells the problems of a skill tree that make a catalog
// command exit 2 (a file that cannot be read or is refused, a folder that
// cannot be walked, a missing root, a walk bound) from the skills that are
// merely not loadable (no frontmatter, no description), which a host
// would skip as well.
func IsInputError(err error) bool {
	var re *catalog.ReadError
	if errors.As(err, &re) {
		return true
	}
	var we *catalog.WalkError
	return errors.As(err, &we) && !catalog.IsWarning(err)
}
