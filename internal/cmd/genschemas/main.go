// Command genschemas writes skillopt's request-body schemas
// (schemas/<shape>.schema.json) from the providers' official API
// descriptions.
//
// For each provider shape it takes the request schema named in shapes.go
// and the closure of its $refs, drops what validation does not need
// (descriptions, titles, examples, defaults, formats, discriminators, x-*
// extensions), rewrites OpenAPI constructs into draft 2020-12 (nullable,
// oneOf over a discriminator, $recursiveRef), applies the patch table of
// deliberate deviations (patches.go, one entry per deviation with its
// reason) and writes a compact schema with every definition under $defs.
//
// Usage (go generate runs it from the schemas folder):
//
//	genschemas [-ref DIR] [-out DIR] [-check]
//	genschemas -patches
//
// -ref is the folder of the official descriptions
// (../shared/reference/providers from the repository root), -out the folder
// the schemas are written to. With -check nothing is written: the command
// fails when a written schema differs from what it would generate.
// -patches prints the patch table.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/skillopt/skillopt/internal/atomicfile"
)

func main() {
	ref := flag.String("ref", filepath.Join("..", "shared", "reference", "providers"), "folder of the providers' official API descriptions")
	out := flag.String("out", "schemas", "folder the schemas are written to")
	check := flag.Bool("check", false, "only report schemas that differ from what would be generated")
	list := flag.Bool("patches", false, "print the patch table and exit")
	flag.Parse()
	if *list {
		printPatches(os.Stdout)
		return
	}
	if err := run(*ref, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genschemas:", err)
		os.Exit(1)
	}
}

// printPatches writes every deviation from the official descriptions with
// its reason, shape by shape.
func printPatches(w io.Writer) {
	fmt.Fprintf(w, "every shape: %d conversions\n", len(conversions))
	for _, c := range conversions {
		fmt.Fprintf(w, "  - %s\n    reason: %s\n", c.what, c.why)
	}
	for _, sh := range shapes {
		fmt.Fprintf(w, "%s (%s, %s): %d patches\n", sh.name, sh.spec, sh.root, len(sh.patches))
		for _, p := range sh.patches {
			fmt.Fprintf(w, "  - %s\n    reason: %s\n", p.what, p.why)
		}
	}
}

func run(ref, out string, check bool) error {
	files, err := Generate(ref)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var stale []string
	for _, n := range names {
		path := filepath.Join(out, n)
		old, _ := os.ReadFile(path)
		if bytes.Equal(old, files[n]) {
			continue
		}
		if check {
			stale = append(stale, path)
			continue
		}
		if err := atomicfile.WriteFile(path, files[n], 0o644); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("out of date (run go generate ./schemas): %v", stale)
	}
	return nil
}
