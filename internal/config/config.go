// Package config loads skillopt.toml strictly: unknown keys, wrong types and
// unknown rule IDs are errors that name the key and its line.
package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// FileName is the configuration file looked up from the working directory.
const FileName = "skillopt.toml"

// Config is the whole of skillopt.toml. Every field has a default (see
// Default and the template written by `skillopt init`).
type Config struct {
	Rules   Rules   `toml:"rules"`
	Measure Measure `toml:"measure"`
	Archive Archive `toml:"archive"`
	Catalog Catalog `toml:"catalog"`
	Lint    Lint    `toml:"lint"`
	Output  Output  `toml:"output"`
	Tools   Tools   `toml:"tools"`

	// Path is where the configuration was read from ("" for defaults).
	Path string `toml:"-"`
}

// Rules selects and tunes rules.
type Rules struct {
	// Pipeline lists the transform rules to run, in order: IDs, ID
	// prefixes such as "SO1", or names.
	Pipeline []string `toml:"pipeline"`
	// Disable lists rules never to run, by ID or name.
	Disable []string `toml:"disable"`
	// Severity overrides default severities by rule ID.
	Severity map[string]string `toml:"severity"`
}

// Measure tunes `skillopt measure`.
type Measure struct {
	// Encoding is the tokenizer: o200k_base, cl100k_base or none.
	Encoding string `toml:"encoding"`
	// Replay is the number of follow-up requests in cumulative replays.
	Replay int `toml:"replay"`
}

// Archive configures the store of reduced originals.
type Archive struct {
	Dir string `toml:"dir"`
}

// Default returns the built-in configuration.
func Default() *Config {
	return &Config{
		Rules:   Rules{Pipeline: DefaultPipeline()},
		Measure: Measure{Encoding: "o200k_base", Replay: 8},
		Archive: Archive{Dir: ".skillopt/archive"},
		Catalog: defaultCatalog(),
		Lint:    defaultLint(),
		Output:  defaultOutput(),
		Tools:   defaultTools(),
	}
}

//go:embed template.toml
var template []byte

//go:embed template_catalog.toml
var templateCatalog []byte

//go:embed template_lint.toml
var templateLint []byte

//go:embed template_output.toml
var templateOutput []byte

//go:embed template_tools.toml
var templateTools []byte

// DefaultPipeline selects every catalog, tool and output rule that is not
// opt-in, in registry order.
func DefaultPipeline() []string { return []string{"SO1", "SO2", "SO3"} }

// Template returns the commented default configuration `skillopt init` writes.
func Template() []byte {
	return bytes.Join([][]byte{template, templateCatalog, templateLint, templateOutput, templateTools}, nil)
}

// Error is a configuration error at a position of a file.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Find returns the configuration path to use: explicit if set, else
// $SKILLOPT_CONFIG, else the nearest skillopt.toml walking up from dir, else "".
func Find(explicit, dir string) string {
	if explicit != "" {
		return explicit
	}
	if env := os.Getenv("SKILLOPT_CONFIG"); env != "" {
		return env
	}
	start := dir
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			// Name it relative to the working directory in messages.
			if rel, err := filepath.Rel(start, p); err == nil {
				return rel
			}
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// MaxFileBytes bounds a configuration file; a larger one (or one that is
// not a regular file) is refused before it is read.
const MaxFileBytes = 1 << 20

// readFile reads a configuration file, which may have come with a cloned
// repository: a bounded read of a regular file.
func readFile(path string) ([]byte, error) { return untrusted.ReadFile(path, MaxFileBytes) }

// Load reads and strictly decodes the file at path over the defaults. An
// empty path returns the defaults.
func Load(path string) (*Config, error) {
	cfg := Default()
	if path == "" {
		return cfg, nil
	}
	data, err := readFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	if err := Decode(path, data, cfg); err != nil {
		return nil, err
	}
	cfg.Path = path
	return cfg, nil
}

// Decode decodes data (named path in errors) strictly into cfg and checks
// value ranges.
func Decode(path string, data []byte, cfg *Config) error {
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) && len(sm.Errors) > 0 {
			e := sm.Errors[0]
			line, col := e.Position()
			return &Error{File: path, Line: line, Col: col, Msg: fmt.Sprintf("unknown key %q", strings.Join(e.Key(), "."))}
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return &Error{File: path, Line: line, Col: col, Msg: de.Error()}
		}
		return &Error{File: path, Msg: err.Error()}
	}
	return cfg.check(path, data)
}

func (c *Config) check(path string, data []byte) error {
	switch c.Measure.Encoding {
	case "o200k_base", "cl100k_base", "none":
	default:
		return keyError(path, data, "encoding", fmt.Sprintf("measure.encoding %q is not one of o200k_base, cl100k_base, none", c.Measure.Encoding))
	}
	if c.Measure.Replay < 0 || c.Measure.Replay > 1000 {
		return keyError(path, data, "replay", fmt.Sprintf("measure.replay %d is outside 0..1000", c.Measure.Replay))
	}
	for id, sev := range c.Rules.Severity {
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			return keyError(path, data, id, fmt.Sprintf("rules.severity.%s: %q is not one of error, warning, info, off", id, sev))
		}
	}
	if c.Archive.Dir == "" {
		return keyError(path, data, "dir", "archive.dir must not be empty")
	}
	for _, check := range []func() (string, string){c.Catalog.check, c.Lint.check, c.Output.check, c.Tools.check} {
		if key, msg := check(); msg != "" {
			return keyError(path, data, key, msg)
		}
	}
	return nil
}

// CheckRules reports the first rule reference in the configuration that
// known does not resolve.
func (c *Config) CheckRules(known func(ref string) bool) error {
	data, _ := readFile(c.Path)
	for _, ref := range c.Rules.Pipeline {
		if !known(ref) {
			return keyError(c.Path, data, ref, fmt.Sprintf("rules.pipeline: unknown rule %q", ref))
		}
	}
	for _, ref := range c.Rules.Disable {
		if !known(ref) {
			return keyError(c.Path, data, ref, fmt.Sprintf("rules.disable: unknown rule %q", ref))
		}
	}
	for id := range c.Rules.Severity {
		if !known(id) {
			return keyError(c.Path, data, id, fmt.Sprintf("rules.severity: unknown rule %q", id))
		}
	}
	return nil
}

// keyError locates the first line of data mentioning word, for errors about
// values that the decoder accepted.
func keyError(path string, data []byte, word, msg string) error {
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.Index(line, word); j >= 0 && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			return &Error{File: path, Line: i + 1, Col: j + 1, Msg: msg}
		}
	}
	return &Error{File: path, Msg: msg}
}

// Resolve interprets a path from the configuration: relative paths are
// relative to the configuration file's folder (to the working directory for
// built-in defaults).
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Path == "" {
		return p
	}
	return filepath.Join(filepath.Dir(c.Path), p)
}
