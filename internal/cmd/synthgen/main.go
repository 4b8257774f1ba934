// Command synthgen writes a synthetic LLM request body carrying a generated
// skill catalog.
//
//	synthgen -n 10000 -provider anthropic -seed 1 -turns 1 -envelope none|record -o FILE
//
//	synthgen -dense 10000000 -o FILE
//
//	synthgen -hostile SHAPE -bytes N [-variant] -o FILE
//
// -hostile SHAPE writes an Anthropic body of about N bytes made of one
// construct repeated (synth.Hostile lists them), for the scaling
// benchmarks; -variant writes the other side of a diff.
//
// -dense N writes, instead of a catalog, an Anthropic body whose tool call
// input holds an array of N zeros: the densest JSON a request carries, for
// memory benchmarks.
//
// With -envelope record the body is wrapped in a request record
// {"url","method","headers","body"}. Without -o (or with -o -) the capture
// goes to standard output; a file is written atomically.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/bench/synth"
)

// recordHost is the origin used in request-record envelopes.
const recordHost = "https://api.example.test"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	n          int
	provider   string
	seed       int64
	turns      int
	envelope   string
	out        string
	escapeHTML bool
	dense      int
	hostile    string
	bytes      int
	variant    bool
	list       bool
}

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("synthgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.n, "n", 355, "number of skills in the catalog")
	fs.StringVar(&c.provider, "provider", "anthropic", "body shape: "+strings.Join(synth.Providers, ", "))
	fs.Int64Var(&c.seed, "seed", 1, "generator seed")
	fs.IntVar(&c.turns, "turns", 1, "model requests so far; turns-1 earlier exchanges are replayed")
	fs.StringVar(&c.envelope, "envelope", "none", "none (bare body) or record (url/method/headers/body)")
	fs.StringVar(&c.out, "o", "-", "output file (- for standard output)")
	fs.BoolVar(&c.escapeHTML, "escape-html", false, `write <, > and & as \u003c, \u003e and \u0026`)
	fs.IntVar(&c.dense, "dense", 0, "write an Anthropic body whose tool call input is an array of this many zeros")
	fs.StringVar(&c.hostile, "hostile", "", "write a body of one hostile shape: "+strings.Join(synth.Hostile, ", "))
	fs.IntVar(&c.bytes, "bytes", 1<<20, "with -hostile: the body's size in bytes")
	fs.BoolVar(&c.variant, "variant", false, "with -hostile: the variant, a few values changed")
	fs.BoolVar(&c.list, "list-hostile", false, "print the hostile shapes, one a line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: synthgen [-n N] [-provider P] [-seed S] [-turns T] [-envelope none|record] [-escape-html] [-o FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case c.n < 0:
		return c, fmt.Errorf("-n must not be negative")
	case c.dense < 0:
		return c, fmt.Errorf("-dense must not be negative")
	case c.hostile != "" && !slices.Contains(synth.Hostile, c.hostile):
		return c, fmt.Errorf("unknown -hostile %q (want one of %s)", c.hostile, strings.Join(synth.Hostile, ", "))
	case c.bytes < 1:
		return c, fmt.Errorf("-bytes must be positive")
	case c.turns < 1:
		return c, fmt.Errorf("-turns must be at least 1")
	case !slices.Contains(synth.Providers, c.provider):
		return c, fmt.Errorf("unknown -provider %q (want one of %s)", c.provider, strings.Join(synth.Providers, ", "))
	case c.envelope != "none" && c.envelope != "record":
		return c, fmt.Errorf("-envelope must be none or record, not %q", c.envelope)
	case c.envelope == "record" && synth.URLPath(c.provider) == "":
		return c, fmt.Errorf("-envelope record needs an HTTP provider; %s has no request path", c.provider)
	case c.out == "":
		return c, fmt.Errorf("-o must not be empty")
	}
	return c, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "synthgen:", err)
		return 2
	}
	if c.list {
		fmt.Fprintln(stdout, strings.Join(synth.Hostile, "\n"))
		return 0
	}
	data, err := generate(c)
	if err != nil {
		fmt.Fprintln(stderr, "synthgen:", err)
		return 1
	}
	if c.out == "-" {
		_, err = stdout.Write(data)
	} else {
		err = writeAtomic(c.out, data)
	}
	if err != nil {
		fmt.Fprintln(stderr, "synthgen:", err)
		return 1
	}
	return 0
}

func generate(c config) ([]byte, error) {
	if c.dense > 0 {
		return denseBody(c.dense), nil
	}
	if c.hostile != "" {
		return synth.HostileBody(c.hostile, c.bytes, c.variant)
	}
	opts := synth.CaptureOptions{EscapeHTML: c.escapeHTML}
	body, err := synth.CaptureWith(c.provider, synth.Skills(c.n, c.seed), c.turns, opts)
	if err != nil || c.envelope == "none" {
		return body, err
	}
	return wrapRecord(synth.URLPath(c.provider), body, opts.EscapeHTML)
}

// denseBody is a valid Anthropic request whose assistant turn calls a tool
// with n numbers.
func denseBody(n int) []byte {
	var b bytes.Buffer
	b.Grow(2*n + 400)
	b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"plot the series"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"plot","input":{"values":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('0')
	}
	b.WriteString(`]}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"plotted"}]}]}`)
	return b.Bytes()
}

// wrapRecord wraps body in a request record, leaving the body bytes as they are.
func wrapRecord(path string, body []byte, escapeHTML bool) ([]byte, error) {
	var url bytes.Buffer
	enc := json.NewEncoder(&url)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(recordHost + path); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(body) + 128)
	b.WriteString(`{"url":`)
	b.Write(bytes.TrimSuffix(url.Bytes(), []byte("\n")))
	b.WriteString(`,"method":"POST","headers":{"content-type":"application/json"},"body":`)
	b.Write(body)
	b.WriteString("}")
	return b.Bytes(), nil
}

// writeAtomic writes data to a temporary file next to name and renames it
// into place, so readers never see a partial file; a leftover of a killed
// run is named like every skillopt temporary file.
func writeAtomic(name string, data []byte) error {
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
