package catalogbench

import (
	"errors"
	"fmt"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// ErrNoCatalog marks a capture that holds no Pi skill catalog: there is
// nothing for SO101 and SO103 to do, so it makes no row.
var ErrNoCatalog = errors.New("no native skill catalog")

// ErrUnchanged marks a request SO101 and SO103 leave as it is (a catalog
// too small to pay for the compact index, say): there is no transform to
// time, so it makes no row.
var ErrUnchanged = errors.New("SO101 and SO103 leave the request unchanged")

// InputsFrom reads the captures of paths (files, or folders walked as
// every command walks them) as rows: every request with a skill catalog
// and human text, its skills parsed from the catalog and given cards as
// Cards does. The body is the request as the provider receives it (the
// envelope, if any, left aside). Requests without a catalog come back as
// errors wrapping ErrNoCatalog, unreadable files as errors naming them.
func InputsFrom(paths []string) ([]*Input, []error) {
	files, err := capture.Expand(paths)
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = append(errs, j.Unwrap()...)
	} else if err != nil {
		errs = append(errs, err)
	}
	var out []*Input
	for _, p := range files {
		f, err := capture.ReadFile(p, nil, capture.Options{})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, f.Errs...)
		for k, c := range f.Captures {
			src := p
			if len(f.Captures) > 1 {
				src = fmt.Sprintf("%s#%d", p, k+1)
			}
			skills := catalogSkills(c)
			if len(skills) == 0 {
				errs = append(errs, fmt.Errorf("%s: %w", src, ErrNoCatalog))
				continue
			}
			if latestHuman(c) == capture.NoNode {
				errs = append(errs, fmt.Errorf("%s: no human text to vary", src))
				continue
			}
			out = append(out, &Input{Skills: skills, Body: c.Body, Profile: Cards(skills), Name: c.Name, Provider: c.Provider, Source: src})
		}
	}
	return out, errs
}

// catalogSkills parses the skills of the request's catalog segments.
func catalogSkills(c *capture.Capture) []catalog.Skill {
	var texts []string
	seen := map[capture.Node]bool{}
	for _, s := range c.Segments() {
		if s.Kind == capture.SecCatalog && !seen[s.Node] {
			seen[s.Node] = true
			texts = append(texts, c.Doc.Str(s.Node))
		}
	}
	return catalog.ParsePiCatalogs(texts...)
}

// RunInputs runs RunInput over every input in order. A request SO101 and
// SO103 leave unchanged makes no row: it is handed to skipped, naming its
// source. Any other failure stops the run with an error naming the
// input's source.
func RunInputs(inputs []*Input, opts Options, skipped func(error)) ([]Row, error) {
	var rows []Row
	for _, in := range inputs {
		row, err := RunInput(in, opts)
		if errors.Is(err, ErrUnchanged) {
			skipped(fmt.Errorf("%s: %w: skipped", in.Source, err))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Source, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}
