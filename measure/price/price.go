// Package price holds what models cost: input, output, cache read and
// cache write per million tokens, one small data file per model family,
// embedded in the program and overridable per model in skillopt.toml.
//
// A model the table does not name has no price: its cost is unavailable,
// never zero.
package price

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Price is what one model costs, in US dollars per million tokens.
type Price struct {
	// Model is the name the price was found under (a pattern may end in
	// "*").
	Model  string  `json:"model"`
	Vendor string  `json:"vendor,omitempty"`
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CacheRead is a cache hit; CacheWrite a write (Anthropic: with the
	// five-minute lifetime); CacheWrite1h a write with a one-hour
	// lifetime.
	CacheRead    float64 `json:"cache_read"`
	CacheWrite   float64 `json:"cache_write"`
	CacheWrite1h float64 `json:"cache_write_1h"`
	// Source says where the price comes from: "built-in" or the
	// configuration file.
	Source string `json:"source"`
}

// Tokens are the token counts one request is billed for.
type Tokens struct {
	Read, Write, Write1h, Uncached int
	// Output is the output token count, -1 when unknown.
	Output int
}

// Cost is the dollar cost of a request's tokens; Write includes Write1h.
// Output tokens are left out when unknown.
func (p *Price) Cost(t Tokens) float64 {
	c := float64(t.Read)*p.CacheRead +
		float64(t.Write-t.Write1h)*p.CacheWrite +
		float64(t.Write1h)*p.CacheWrite1h +
		float64(t.Uncached)*p.Input
	if t.Output > 0 {
		c += float64(t.Output) * p.Output
	}
	return c / 1e6
}

// Table finds the price of a model.
type Table struct {
	// overrides come first, then the built-in rows in file order.
	overrides []entry
	rows      []entry
}

type entry struct {
	names []string
	price Price
}

//go:embed data/*.toml
var data embed.FS

// file is one data file: a vendor and its models.
type file struct {
	Vendor string `toml:"vendor"`
	Model  []struct {
		Names        []string `toml:"names"`
		Input        *float64 `toml:"input"`
		Output       *float64 `toml:"output"`
		CacheRead    *float64 `toml:"cache_read"`
		CacheWrite   *float64 `toml:"cache_write"`
		CacheWrite1h *float64 `toml:"cache_write_1h"`
	} `toml:"model"`
}

// Parse reads one price file. Every model row names at least one model
// and gives input and output; cache_read and cache_write default to the
// input price (no discount, no premium) and cache_write_1h to cache_write.
func Parse(name string, src []byte) ([]Price, [][]string, error) {
	var f file
	dec := toml.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) && len(sm.Errors) > 0 {
			line, col := sm.Errors[0].Position()
			return nil, nil, fmt.Errorf("%s:%d:%d: unknown key %s", name, line, col, strings.Join(sm.Errors[0].Key(), "."))
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, nil, fmt.Errorf("%s:%d:%d: %s", name, line, col, de.Error())
		}
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Vendor == "" {
		return nil, nil, fmt.Errorf("%s: no vendor", name)
	}
	var prices []Price
	var names [][]string
	for i, m := range f.Model {
		where := fmt.Sprintf("%s: model %d", name, i+1)
		if len(m.Names) == 0 {
			return nil, nil, fmt.Errorf("%s: no names", where)
		}
		if m.Input == nil || m.Output == nil {
			return nil, nil, fmt.Errorf("%s (%s): input and output are required", where, m.Names[0])
		}
		p := Price{Model: m.Names[0], Vendor: f.Vendor, Input: *m.Input, Output: *m.Output, Source: "built-in"}
		p.CacheRead, p.CacheWrite = p.Input, p.Input
		if m.CacheRead != nil {
			p.CacheRead = *m.CacheRead
		}
		if m.CacheWrite != nil {
			p.CacheWrite = *m.CacheWrite
		}
		p.CacheWrite1h = p.CacheWrite
		if m.CacheWrite1h != nil {
			p.CacheWrite1h = *m.CacheWrite1h
		}
		if err := p.check(); err != nil {
			return nil, nil, fmt.Errorf("%s (%s): %w", where, m.Names[0], err)
		}
		for _, n := range m.Names {
			if n == "" || n == "*" {
				return nil, nil, fmt.Errorf("%s: empty model name", where)
			}
		}
		prices = append(prices, p)
		names = append(names, m.Names)
	}
	return prices, names, nil
}

func (p *Price) check() error {
	for _, v := range []struct {
		key string
		val float64
	}{{"input", p.Input}, {"output", p.Output}, {"cache_read", p.CacheRead}, {"cache_write", p.CacheWrite}, {"cache_write_1h", p.CacheWrite1h}} {
		if math.IsNaN(v.val) || math.IsInf(v.val, 0) || v.val < 0 {
			return fmt.Errorf("%s must be a number of dollars, 0 or more (got %v)", v.key, v.val)
		}
	}
	return nil
}

// Builtin returns the table of the embedded data files.
func Builtin() *Table {
	t := &Table{}
	files, _ := data.ReadDir("data")
	sort.Slice(files, func(i, j int) bool { return files[i].Name() < files[j].Name() })
	for _, f := range files {
		src, err := data.ReadFile(path.Join("data", f.Name()))
		if err != nil {
			panic(err)
		}
		prices, names, err := Parse(f.Name(), src)
		if err != nil {
			// The data files are tested; a broken one is a build error.
			panic(err)
		}
		for i := range prices {
			t.rows = append(t.rows, entry{names[i], prices[i]})
		}
	}
	return t
}

// Override is a price set in the configuration for one model name or
// pattern: the keys given (input, output, cache_read, cache_write,
// cache_write_1h) by name.
type Override struct {
	Model  string
	Values map[string]float64
	// Source names the configuration file.
	Source string
}

// OverrideKeys are the keys an override may set.
var OverrideKeys = []string{"input", "output", "cache_read", "cache_write", "cache_write_1h"}

// CheckOverride returns one problem per key of an override that is
// unknown, missing or out of range, keyed by the key's name.
func CheckOverride(values map[string]float64) map[string]string {
	probs := map[string]string{}
	known := map[string]bool{}
	for _, k := range OverrideKeys {
		known[k] = true
	}
	for k, v := range values {
		switch {
		case !known[k]:
			probs[k] = fmt.Sprintf("unknown key (want %s)", strings.Join(OverrideKeys, ", "))
		case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
			probs[k] = "must be a number of dollars per million tokens, 0 or more, got " + strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	for _, k := range []string{"input", "output"} {
		if _, ok := values[k]; !ok {
			probs[""] = "input and output are required"
		}
	}
	return probs
}

// With returns a table whose overrides come before t's rows. Overrides
// must have passed CheckOverride.
func (t *Table) With(ovs []Override) *Table {
	n := &Table{overrides: append([]entry(nil), t.overrides...), rows: t.rows}
	sort.SliceStable(ovs, func(i, j int) bool { return ovs[i].Model < ovs[j].Model })
	for _, o := range ovs {
		p := Price{Model: o.Model, Input: o.Values["input"], Output: o.Values["output"], Source: o.Source}
		p.CacheRead, p.CacheWrite = p.Input, p.Input
		if v, ok := o.Values["cache_read"]; ok {
			p.CacheRead = v
		}
		if v, ok := o.Values["cache_write"]; ok {
			p.CacheWrite = v
		}
		p.CacheWrite1h = p.CacheWrite
		if v, ok := o.Values["cache_write_1h"]; ok {
			p.CacheWrite1h = v
		}
		n.overrides = append(n.overrides, entry{[]string{o.Model}, p})
	}
	return n
}

// Lookup returns the price of a model, or nil when no row names it. A
// vendor prefix ("anthropic/claude-…", "models/gemini-…") is ignored.
// Overrides are tried first; among them an exact name wins over a
// pattern, and a longer pattern over a shorter one.
func (t *Table) Lookup(model string) *Price {
	name := Normalize(model)
	if name == "" {
		return nil
	}
	if p := find(t.overrides, name); p != nil {
		return p
	}
	return find(t.rows, name)
}

func find(rows []entry, name string) *Price {
	var best *Price
	bestRank := -1
	for i := range rows {
		for _, pat := range rows[i].names {
			if !Matches(pat, name) {
				continue
			}
			rank := len(pat)
			if !strings.HasSuffix(pat, "*") {
				rank += 1 << 20
			}
			if rank > bestRank {
				p := rows[i].price
				p.Model = pat
				best, bestRank = &p, rank
			}
		}
	}
	return best
}

// Normalize lower-cases a model name and drops a vendor or resource
// prefix ("openai/gpt-5.5", "models/gemini-2.5-pro").
func Normalize(model string) string {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// Matches reports whether a pattern names a model: equal, a dated or
// tagged snapshot of it ("claude-opus-4-1-20250805", "…@20250805",
// "…-latest"), or, for a pattern ending in "*", any name it starts.
func Matches(pattern, model string) bool {
	pattern = strings.ToLower(pattern)
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(model, p)
	}
	if model == pattern {
		return true
	}
	rest, ok := strings.CutPrefix(model, pattern)
	if !ok {
		return false
	}
	return snapshotSuffix(rest)
}

// snapshotSuffix reports a suffix that names a snapshot of a model: "@…",
// "-latest", "-YYYYMMDD" or "-YYYY-MM-DD".
func snapshotSuffix(rest string) bool {
	if strings.HasPrefix(rest, "@") {
		return len(rest) > 1
	}
	d, ok := strings.CutPrefix(rest, "-")
	if !ok {
		return false
	}
	if d == "latest" {
		return true
	}
	if len(d) == 10 && d[4] == '-' && d[7] == '-' {
		d = d[:4] + d[5:7] + d[8:]
	}
	if len(d) != 8 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}
