package catalog

import (
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// LoadSkills walks roots and parses every skill file; unparsable files come
// back as errors (with file:line:col), the rest as docs in walk order.
// Root-level markdown files without skill frontmatter (a README) are not
// skills and are left out silently; a file named as a root is always parsed.
func LoadSkills(roots []string, opts WalkOptions) ([]*SkillDoc, []error) {
	srcs, errs := Walk(roots, opts)
	var docs []*SkillDoc
	for _, s := range srcs {
		data, err := readSkillFile(s.Path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.Path, err))
			continue
		}
		d, err := ParseSkillDoc(s.Path, data)
		if s.Kind == RootFile && !d.HasSkillFrontmatter() {
			var de *DocError
			if err == nil || (errors.As(err, &de) && de.Kind == ErrNoFrontmatter) {
				continue
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		docs = append(docs, d)
	}
	return docs, errs
}

// UTF16Column converts a 1-based code-point column of line to a 1-based
// column in UTF-16 code units, as SARIF counts by default.
func UTF16Column(line []byte, col int) int {
	units := 0
	for i := 0; i < col-1 && len(line) > 0; i++ {
		r, size := utf8.DecodeRune(line)
		line = line[size:]
		if n := utf16.RuneLen(r); n > 0 {
			units += n
		} else {
			units++
		}
	}
	return units + 1
}
