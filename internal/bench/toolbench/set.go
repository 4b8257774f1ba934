// Package toolbench measures the tool-deferral rules (SO201, SO202) on a
// labelled set: a catalog of tool declarations and first prompts of a
// session, each labelled with the tools a person doing the task would
// need. It builds the first request of every prompt in every provider
// shape, runs the rule and reports recall, confidence and bytes.
package toolbench

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// The default set, built into the program so that `skillopt bench tools`
// works wherever it is installed.
//
//go:embed data/catalog.json data/prompts.json data/heldout.json
var defaultSet embed.FS

// Set is a labelled tool-deferral set.
type Set struct {
	// Where names the set's origin: a folder, or "built-in".
	Where string
	Tools []capture.ToolSpec
	// HeldOut holds prompts written and labelled without running them
	// through the ranking (heldout.json); Tuned the prompts the ranking
	// was tuned on (prompts.json). One of the two may be empty.
	HeldOut, Tuned []Prompt
}

// Prompt is a first human message and the tools a person doing the task
// would need.
type Prompt struct {
	ID     string   `json:"id"`
	Prompt string   `json:"prompt"`
	Needs  []string `json:"needs"`
}

// Set file names inside a set folder.
const (
	CatalogFile = "catalog.json"
	TunedFile   = "prompts.json"
	HeldOutFile = "heldout.json"
)

// maxSetFile bounds one file of a set.
const maxSetFile = 64 << 20

// Default returns the built-in set.
func Default() (*Set, error) {
	read := func(name string) ([]byte, error) { return defaultSet.ReadFile("data/" + name) }
	return parseSet("built-in", read)
}

// Load reads a set from dir: catalog.json (an array of {name, description,
// parameters}) and at least one of heldout.json and prompts.json (arrays of
// {id, prompt, needs}), and checks that every label names a catalog tool.
func Load(dir string) (*Set, error) {
	read := func(name string) ([]byte, error) {
		return untrusted.ReadFile(filepath.Join(dir, name), maxSetFile)
	}
	return parseSet(dir, read)
}

// parseSet reads the files of a set through read; errors name the file
// (under where) and, for malformed JSON, the line and column.
func parseSet(where string, read func(name string) ([]byte, error)) (*Set, error) {
	path := func(name string) string {
		if where == "built-in" {
			return "built-in " + name
		}
		return filepath.Join(where, name)
	}
	set := &Set{Where: where}
	var raw []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	data, err := read(CatalogFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path(CatalogFile), unwrapPath(err))
	}
	if err := decode(path(CatalogFile), data, &raw); err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for i, t := range raw {
		if t.Name == "" || names[t.Name] {
			return nil, fmt.Errorf("%s: tool %d: empty or duplicate name %q", path(CatalogFile), i+1, t.Name)
		}
		names[t.Name] = true
		var params []byte
		if len(t.Parameters) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, t.Parameters); err != nil {
				return nil, fmt.Errorf("%s: tool %q: %w", path(CatalogFile), t.Name, err)
			}
			params = b.Bytes()
		}
		set.Tools = append(set.Tools, capture.ToolSpec{Name: t.Name, Description: t.Description, Parameters: params})
	}
	if len(set.Tools) == 0 {
		return nil, fmt.Errorf("%s: no tools", path(CatalogFile))
	}
	ids := map[string]string{}
	found := 0
	for _, f := range []struct {
		name string
		dst  *[]Prompt
	}{{HeldOutFile, &set.HeldOut}, {TunedFile, &set.Tuned}} {
		data, err := read(f.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path(f.name), unwrapPath(err))
		}
		found++
		if err := decode(path(f.name), data, f.dst); err != nil {
			return nil, err
		}
		for _, p := range *f.dst {
			if p.ID == "" {
				return nil, fmt.Errorf("%s: a prompt has no id", path(f.name))
			}
			if prev, dup := ids[p.ID]; dup {
				return nil, fmt.Errorf("%s: duplicate prompt id %q (also in %s)", path(f.name), p.ID, prev)
			}
			ids[p.ID] = f.name
			for _, n := range p.Needs {
				if !names[n] {
					return nil, fmt.Errorf("%s: prompt %q needs %q, which %s does not declare", path(f.name), p.ID, n, CatalogFile)
				}
			}
		}
	}
	if found == 0 || len(set.HeldOut)+len(set.Tuned) == 0 {
		return nil, fmt.Errorf("%s: no prompts (%s or %s)", where, HeldOutFile, TunedFile)
	}
	return set, nil
}

// decode unmarshals data into v; a syntax or type error carries the line
// and column of the offending byte.
func decode(path string, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return fmt.Errorf("%s: %w", path, err)
	}
	line, col := lineCol(data, int(off))
	return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
}

// lineCol converts a byte offset (json's offsets point just past the
// offending byte) to a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off-1, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// unwrapPath drops the *fs.PathError wrapper, whose path the caller
// prints already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
