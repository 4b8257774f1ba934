// Package config loads skillopt.toml strictly: unknown keys, wrong types and
// unknown rule IDs are errors that name the key and its line, all of them
// at once, in file order.
package config

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillopt/skillopt/internal/untrusted"
	"github.com/skillopt/skillopt/measure/price"
	"github.com/skillopt/skillopt/rules"
)

// FileName is the configuration file looked up from the working directory.
const FileName = "skillopt.toml"

// Config is the whole of skillopt.toml. Every field has a default (see
// Default and the template written by `skillopt init`).
type Config struct {
	Rules   Rules   `toml:"rules"`
	Measure Measure `toml:"measure"`
	Archive Archive `toml:"archive"`
	// Prices override the built-in price table of measure --conversation:
	// per model name (or name pattern ending in "*"), dollars per million
	// tokens by key (see price.OverrideKeys).
	Prices map[string]map[string]float64 `toml:"prices"`

	// Options are the configured settings of every rule and family that
	// declares some (nil: the declared defaults; see rules.Options).
	Options *rules.Set `toml:"-"`

	// Path is where the configuration was read from ("" for defaults).
	Path string `toml:"-"`

	// src locates keys of the decoded file in messages.
	src *source
	// archiveErr: archive.dir leads out of the file's folder.
	archiveErr error
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
	}
}

//go:embed template.toml
var template []byte

// DefaultPipeline selects every catalog, tool and output rule that is not
// opt-in, in registry order.
func DefaultPipeline() []string { return []string{"SO1", "SO2", "SO3"} }

// TemplateWith returns the commented default configuration: the core
// tables, then the tables the rules and families of b declare, generated
// from their declarations.
func TemplateWith(b *rules.Binding) []byte {
	if b == nil {
		return template
	}
	return append(append([]byte{}, template...), b.Template()...)
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
// $SKILLOPT_CONFIG, else the nearest skillopt.toml from dir up to the
// repository root (the first folder holding .git, a file or a folder) or
// the home folder, whichever comes first, both included; else "". When dir
// is in neither a repository nor the home folder, only dir itself is
// looked at: a skillopt.toml in a shared parent such as /tmp never applies
// to the folders below it.
func Find(explicit, dir string) string {
	if explicit != "" {
		return explicit
	}
	if env := os.Getenv("SKILLOPT_CONFIG"); env != "" {
		return env
	}
	home, _ := os.UserHomeDir()
	top := boundary(dir, home)
	for d := dir; ; {
		p := filepath.Join(d, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			// Name it relative to the working directory in messages.
			if rel, err := filepath.Rel(dir, p); err == nil {
				return rel
			}
			return p
		}
		parent := filepath.Dir(d)
		if d == top || parent == d {
			return ""
		}
		d = parent
	}
}

// boundary returns the folder where the search for skillopt.toml stops:
// the first of dir and its parents that holds .git or is home; dir itself
// when there is none.
func boundary(dir, home string) string {
	var homeInfo os.FileInfo
	if home != "" {
		homeInfo, _ = os.Stat(home)
	}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if homeInfo != nil {
			if st, err := os.Stat(d); err == nil && os.SameFile(st, homeInfo) {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// MaxFileBytes bounds a configuration file; a larger one (or one that is
// not a regular file) is refused before it is read.
const MaxFileBytes = 1 << 20

// readFile reads a configuration file, which may have come with a cloned
// repository: a bounded read of a regular file.
func readFile(path string) ([]byte, error) { return untrusted.ReadFile(path, MaxFileBytes) }

// LoadWith is Load that also decodes the tables the rules and families of
// a binding declare into their configured options (cfg.Options).
func LoadWith(path string, b *rules.Binding) (*Config, error) {
	cfg := Default()
	if path == "" {
		if b != nil {
			set, _ := b.Set(nil)
			cfg.Options = set
		}
		return cfg, nil
	}
	data, err := readFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	if err := DecodeWith(path, data, cfg, b); err != nil {
		return nil, err
	}
	cfg.Path = path
	return cfg, nil
}

// DecodeWith is Decode with the tables of a binding (see LoadWith).
func DecodeWith(path string, data []byte, cfg *Config, b *rules.Binding) error {
	var targets map[string]any
	if b != nil {
		targets = b.Targets()
	}
	src, probs := decode(path, data, cfg, targets)
	cfg.src = src
	cfg.check(probs)
	cfg.confineArchive(path)
	if b != nil {
		set, errs := b.Set(targets)
		cfg.Options = set
		for _, e := range errs {
			probs.at(e.Key, e.Key+": "+e.Msg)
		}
	}
	return probs.err()
}

// check reports values out of range.
func (c *Config) check(p *problems) {
	switch c.Measure.Encoding {
	case "o200k_base", "cl100k_base", "none":
	default:
		p.at("measure.encoding", fmt.Sprintf("measure.encoding %q is not one of o200k_base, cl100k_base, none", c.Measure.Encoding))
	}
	if c.Measure.Replay < 0 || c.Measure.Replay > 1000 {
		p.at("measure.replay", fmt.Sprintf("measure.replay %d is outside 0..1000", c.Measure.Replay))
	}
	for id, sev := range c.Rules.Severity {
		switch strings.ToLower(sev) {
		case "error", "warning", "info", "off":
		default:
			p.at("rules.severity."+keyName(id), fmt.Sprintf("rules.severity.%s: %q is not one of error, warning, info, off", id, sev))
		}
	}
	if c.Archive.Dir == "" {
		p.at("archive.dir", "archive.dir must not be empty")
	}
	for model, values := range c.Prices {
		table := "prices." + keyName(model)
		if strings.TrimSuffix(model, "*") == "" {
			p.at(table, table+": a model name is required")
		}
		for key, msg := range price.CheckOverride(values) {
			if key == "" {
				p.at(table, table+": "+msg)
				continue
			}
			p.at(table+"."+keyName(key), table+"."+key+": "+msg)
		}
	}
}

// confineArchive resolves an archive.dir the file sets, relative to the
// file's folder, and refuses one that leads out of it: a configuration can
// come with a cloned repository, and skillopt writes capture content into
// the archive. An absolute path, a ".." or a symbolic link out of the
// folder is an error at the key (ArchiveErr); --archive DIR on the command
// line chooses any place deliberately. The built-in default stays relative
// to the working directory.
func (c *Config) confineArchive(path string) {
	if c.src == nil || c.Archive.Dir == "" {
		return
	}
	if _, set := c.src.pos["archive.dir"]; !set {
		return
	}
	dir, err := untrusted.Confine(filepath.Dir(path), c.Archive.Dir)
	if err != nil {
		p := c.problems()
		p.at("archive.dir", fmt.Sprintf("archive.dir: %v; a configuration file may only name a folder inside its own folder (pass --archive DIR to choose another place)", err))
		c.archiveErr = p.err()
		return
	}
	c.Archive.Dir = dir
}

// ArchiveErr is why the file's archive.dir may not be used (nil when it
// may): a command that is not given --archive refuses the configuration.
func (c *Config) ArchiveErr() error { return c.archiveErr }

// CheckRules reports every rule reference in the configuration that known
// does not resolve, in file order.
//
// match returns nil for a reference that names rules, else an error whose
// message says so (and may suggest a spelling).
func (c *Config) CheckRules(match func(ref string) error) error {
	p := c.problems()
	check := func(key, table, ref string) {
		if err := match(ref); err != nil {
			p.at(key, table+": "+strings.TrimSuffix(err.Error(), " (see `skillopt rules`)"))
		}
	}
	for i, ref := range c.Rules.Pipeline {
		if !strings.EqualFold(strings.TrimSpace(ref), "none") {
			check(fmt.Sprintf("rules.pipeline[%d]", i), "rules.pipeline", ref)
		}
	}
	for i, ref := range c.Rules.Disable {
		check(fmt.Sprintf("rules.disable[%d]", i), "rules.disable", ref)
	}
	for id := range c.Rules.Severity {
		check("rules.severity."+keyName(id), "rules.severity", id)
	}
	return p.err()
}

// Located turns problems found after decoding into Errors at the
// positions of their keys (dotted, as "lint.disable[0]"), in file order.
// Each Msg is a whole message.
func (c *Config) Located(list []rules.OptionError) error {
	p := c.problems()
	for _, e := range list {
		p.at(e.Key, e.Msg)
	}
	return p.err()
}

// Position returns the line and column of a key of the configuration file
// (dotted, as "lint.suppress[0]"), of its nearest ancestor found there, or
// 0, 0.
func (c *Config) Position(key string) (line, col int) {
	if c.src == nil {
		return 0, 0
	}
	off := c.src.locate(key)
	if off < 0 {
		return 0, 0
	}
	return c.src.position(off)
}

// problems starts a list of problems located in the file the
// configuration was decoded from.
func (c *Config) problems() *problems {
	if c.src == nil {
		return &problems{src: &source{file: c.Path}}
	}
	return &problems{src: c.src}
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
