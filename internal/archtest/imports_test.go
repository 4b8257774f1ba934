// Package archtest holds the test of the import rules that ARCHITECTURE.md
// marks "never": it reads the module's import graph from `go list` and
// fails when a package depends on one it must not.
package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/skillopt/skillopt"

// rule is one "never" of ARCHITECTURE.md.
type rule struct {
	// says is the sentence of ARCHITECTURE.md the rule enforces, word for
	// word.
	says string
	// of are the packages the rule constrains, except those in except. A
	// pattern is a path inside the module ("capture"), "p/..." for p and
	// the packages below it, or "..." for every package of the module.
	of, except []string
	// only, when not nil, lists the packages of the module the constrained
	// packages may depend on, with what those depend on; an empty list
	// allows none.
	only []string
	// never lists packages they must not depend on: patterns as in of, or
	// the paths of other modules ("github.com/urfave/cli/v2/...").
	never []string
	// direct limits never to the packages' own imports, for a package
	// that may reach a forbidden one only through an allowed one.
	direct bool
}

var none = []string{}

// families are the packages that hold rules (ruleFamilies).
var families = func() []string {
	var dirs []string
	for _, f := range ruleFamilies {
		dirs = append(dirs, f.Dir)
	}
	return dirs
}()

var rules = []rule{
	{
		says: "The leaf packages internal/untrusted, internal/escape, internal/suggest, internal/atomicfile, internal/rank, internal/tokens, internal/gctune, internal/unified, measure/price and measure/units import nothing of the project.",
		of:   []string{"internal/untrusted", "internal/escape", "internal/suggest", "internal/atomicfile", "internal/rank", "internal/tokens", "internal/gctune", "internal/unified", "measure/price", "measure/units"},
		only: none,
	},
	{
		says: "capture imports nothing of the project but internal/untrusted.",
		of:   []string{"capture"},
		only: []string{"internal/untrusted"},
	},
	{
		says: "schemas imports nothing of the project but capture.",
		of:   []string{"schemas"},
		only: []string{"capture"},
	},
	{
		says: "archive imports nothing of the project but internal/atomicfile and internal/untrusted: it knows no capture and no rule.",
		of:   []string{"archive"},
		only: []string{"internal/atomicfile", "internal/untrusted"},
	},
	{
		says: "measure/cache and measure/price import nothing above capture.",
		of:   []string{"measure/cache", "measure/price"},
		only: []string{"capture", "measure/price"},
	},
	{
		says: "rules imports nothing of the project but capture and internal/suggest: no archive, transform, validity, invariant, catalog, measure, schemas or cmd package.",
		of:   []string{"rules"},
		only: []string{"capture", "internal/suggest"},
	},
	{
		says: "transform imports nothing of the project but capture and rules.",
		of:   []string{"transform"},
		only: []string{"capture", "rules"},
	},
	{
		says: "invariant, the engine's own invariants, imports nothing of the project but capture and rules.",
		of:   []string{"invariant"},
		only: []string{"capture", "rules"},
	},
	{
		says:  "A rule family never imports another: transform/catalogrules, transform/tools, transform/output, validity, invariant and catalog/lint do not depend on one another.",
		of:    families,
		never: families,
	},
	{
		says:  "validity, the guard every transform passes, imports no transform or measure package.",
		of:    []string{"validity"},
		never: []string{"transform/...", "measure/..."},
	},
	{
		says:  "catalog knows nothing of rules: it imports no rules, transform, validity, measure or catalog/lint package.",
		of:    []string{"catalog"},
		never: []string{"rules", "transform/...", "validity", "measure/...", "catalog/lint"},
	},
	{
		says:  "measure knows no rule family by name: it imports no transform, validity, invariant, catalog, trace or internal/ruleset package.",
		of:    []string{"measure"},
		never: []string{"transform/...", "validity", "invariant", "catalog/...", "trace", "internal/ruleset"},
	},
	{
		says:  "trace imports no rules, transform, validity, measure or catalog package.",
		of:    []string{"trace"},
		never: []string{"rules", "transform/...", "validity", "measure/...", "catalog/..."},
	},
	{
		says: "internal/report imports nothing of the project but capture, rules, internal/escape and internal/untrusted: it renders results, placed in their files, and computes none.",
		of:   []string{"internal/report"},
		only: []string{"capture", "rules", "internal/escape", "internal/untrusted"},
	},
	{
		says:   "The public packages (everything outside internal/ and cmd/) import none of internal/config, internal/report and internal/ruleset, which belong to the command.",
		of:     []string{"..."},
		except: []string{"internal/...", "cmd/..."},
		never:  []string{"internal/config", "internal/report", "internal/ruleset"},
	},
	{
		says:   "No product package imports internal/bench/... or internal/testfs; only internal/commands (for `skillopt bench`) and cmd/skillopt through it, the benchmarks themselves and the programs under internal/cmd may.",
		of:     []string{"..."},
		except: []string{"internal/commands", "cmd/skillopt", "internal/bench/...", "internal/cmd/..."},
		never:  []string{"internal/bench/...", "internal/testfs"},
	},
	{
		says:  "santhosh-tekuri/jsonschema is a test oracle: no package of the program imports it.",
		of:    []string{"..."},
		never: []string{"github.com/santhosh-tekuri/jsonschema/v5/..."},
	},
	{
		says:   "No package but internal/commands imports the command-line library, urfave/cli, itself; cmd/skillopt reaches it through internal/commands.",
		of:     []string{"..."},
		except: []string{"internal/commands"},
		never:  []string{"github.com/urfave/cli/v2/..."},
		direct: true,
	},
	{
		says:   "catalog knows no provider shape: it does not import capture itself (it reaches capture only through schemas, which validates its card profiles); request segments and tool declarations of skills live in transform/catalogrules.",
		of:     []string{"catalog"},
		never:  []string{"capture"},
		direct: true,
	},
	{
		says:  "No transform package imports measure: the rule families write the figures of their sections with measure/units, the leaf measure uses too, so one number rounds the same in every view.",
		of:    []string{"transform/..."},
		never: []string{"measure"},
	},
	{
		says: "trace/render imports nothing of the project but trace and internal/escape: it renders what trace found and finds nothing itself.",
		of:   []string{"trace/render"},
		only: []string{"trace", "internal/escape"},
	},
	{
		says: "internal/completion imports nothing of the project: the command line hands it the tree of its commands.",
		of:   []string{"internal/completion"},
		only: none,
	},
	{
		says: "internal/shell imports nothing of the project.",
		of:   []string{"internal/shell"},
		only: none,
	},
	{
		says: "catalog/render imports nothing of the project but catalog, rules and internal/escape: it renders what catalog found.",
		of:   []string{"catalog/render"},
		only: []string{"catalog", "rules", "internal/escape"},
	},
	{
		says:  "internal/cardinit imports no transform, validity, measure or catalog/lint package: card generation knows the skill domain and the configuration only.",
		of:    []string{"internal/cardinit"},
		never: []string{"transform/...", "validity", "measure", "catalog/lint"},
	},
	{
		says: "archive/render imports nothing of the project but archive, measure/units and internal/escape: it renders what the archive holds.",
		of:   []string{"archive/render"},
		only: []string{"archive", "measure/units", "internal/escape"},
	},
	{
		says:  "internal/reviewdiff imports no transform, validity, catalog or internal/ruleset package: it compares two bodies and knows no rule family.",
		of:    []string{"internal/reviewdiff"},
		never: []string{"transform/...", "validity", "catalog/...", "internal/ruleset"},
	},
	{
		says: "internal/argv imports nothing of the project: the command line hands it its commands.",
		of:   []string{"internal/argv"},
		only: none,
	},
	{
		says: "internal/jsonout imports nothing of the project but internal/escape: it writes JSON and knows no result.",
		of:   []string{"internal/jsonout"},
		only: []string{"internal/escape"},
	},
	{
		says:  "Only tests import internal/golden, which registers the -update flag: no package of the program imports it.",
		of:    []string{"..."},
		never: []string{"internal/golden"},
	},
	{
		says:  "Only tests import internal/rulegen, which writes the rule families' generated lists from their source: the program never reads its own source.",
		of:    []string{"..."},
		never: []string{"internal/rulegen"},
	},
	{
		says: "internal/rulegen imports nothing of the project: it reads the families' source and imports none of them.",
		of:   []string{"internal/rulegen"},
		only: none,
	},
	{
		says:  "measure never imports measure/render: it computes the report, and its printers, which import measure, live there.",
		of:    []string{"measure"},
		never: []string{"measure/render"},
	},
	{
		says: "measure/render imports nothing of the project but measure, measure/cache, measure/price, measure/units, rules and internal/escape: it renders what measure found.",
		of:   []string{"measure/render"},
		only: []string{"measure", "measure/cache", "measure/price", "measure/units", "rules", "internal/escape"},
	},
}

// pkg is a package of the module as go list describes it: its direct
// imports and every package it depends on (test files left out).
type pkg struct {
	ImportPath string
	Name       string
	Imports    []string
	Deps       []string
}

// graph holds the module's packages by import path.
type graph map[string]*pkg

// full spells a pattern as a full import path: paths of other modules start
// with a host name, which has a dot.
func full(pattern string) string {
	if pattern == "..." {
		return module + "/..."
	}
	if first, _, _ := strings.Cut(pattern, "/"); strings.Contains(first, ".") {
		return pattern
	}
	return module + "/" + pattern
}

// matches reports whether an import path matches a pattern.
func matches(pattern, path string) bool {
	p := full(pattern)
	if base, ok := strings.CutSuffix(p, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == p
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return matches(p, path) })
}

// inModule reports whether a path is a package of this module.
func inModule(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// short strips the module from a path.
func short(path string) string { return strings.TrimPrefix(path, module+"/") }

// constrained returns the packages of g that r constrains, sorted.
func (r *rule) constrained(g graph) []string {
	var out []string
	for path := range g {
		if matchAny(r.of, path) && !matchAny(r.except, path) {
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out
}

// allowed returns the module packages r lets its packages depend on: those
// it names and their own dependencies.
func (r *rule) allowed(g graph) map[string]bool {
	ok := map[string]bool{}
	for path, p := range g {
		if !matchAny(r.only, path) {
			continue
		}
		ok[path] = true
		for _, d := range p.Deps {
			ok[d] = true
		}
	}
	return ok
}

// violations lists the dependencies of g that r forbids, one line each.
func (r *rule) violations(g graph) []string {
	var out []string
	var ok map[string]bool
	if r.only != nil {
		ok = r.allowed(g)
	}
	for _, path := range r.constrained(g) {
		deps := g[path].Deps
		if r.direct {
			deps = g[path].Imports
		}
		for _, d := range deps {
			bad := matchAny(r.never, d) || r.only != nil && inModule(d) && !ok[d]
			if bad {
				out = append(out, fmt.Sprintf("%s depends on %s%s", short(path), short(d), via(g, path, d)))
			}
		}
	}
	return out
}

// via spells the chain of imports from one package to another, when it
// goes through other packages of the module.
func via(g graph, from, to string) string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			var chain []string
			for p := prev[cur]; p != from && p != ""; p = prev[p] {
				chain = append(chain, short(p))
			}
			if len(chain) == 0 {
				return ""
			}
			slices.Reverse(chain)
			return " (through " + strings.Join(chain, " → ") + ")"
		}
		p := g[cur]
		if p == nil {
			continue
		}
		for _, im := range p.Imports {
			if _, seen := prev[im]; !seen {
				prev[im] = cur
				queue = append(queue, im)
			}
		}
	}
	return ""
}

// load reads the module's import graph with go list, skipping the test when
// there is no go command.
func load(t *testing.T) graph {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH:", err)
	}
	root := filepath.Join("..", "..")
	watch(t, root)
	cmd := exec.Command(goTool, "list", "-json=ImportPath,Name,Imports,Deps", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		g[p.ImportPath] = &p
	}
	if len(g) < 20 {
		t.Fatalf("go list found only %d packages", len(g))
	}
	return g
}

// watch looks at every folder and Go file of the module. go test caches a
// result by the files the test itself looks at, not by those go list
// reads: without this, a cached pass would hide an import added since.
func watch(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(name, ".go") || name == "go.mod" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestImportRules fails when a package depends on one that a "never" rule
// of ARCHITECTURE.md forbids.
func TestImportRules(t *testing.T) {
	g := load(t)
	for _, r := range rules {
		if len(r.constrained(g)) == 0 {
			t.Errorf("no package matches the rule %q", r.says)
		}
		for _, list := range [][]string{r.of, r.except, r.only, r.never} {
			for _, p := range list {
				if !inModule(full(p)) {
					continue
				}
				if !slices.ContainsFunc(keys(g), func(path string) bool { return matches(p, path) }) {
					t.Errorf("%q names %s, which is no package", r.says, p)
				}
			}
		}
		for _, v := range r.violations(g) {
			t.Errorf("%s, but ARCHITECTURE.md says: %s", v, r.says)
		}
	}
}

// TestEachRuleCanFail adds to the real graph, for each rule, one
// dependency the rule forbids, and expects the rule to report it.
func TestEachRuleCanFail(t *testing.T) {
	g := load(t)
	for _, r := range rules {
		from := r.constrained(g)
		if len(from) == 0 {
			continue // reported by TestImportRules
		}
		src := from[0]
		bad := ""
		if len(r.never) > 0 {
			bad = strings.TrimSuffix(full(r.never[0]), "/...")
			if bad == src {
				bad = strings.TrimSuffix(full(r.never[len(r.never)-1]), "/...")
			}
		} else {
			ok := r.allowed(g)
			for _, path := range keys(g) {
				if !ok[path] && path != src {
					bad = path
					break
				}
			}
		}
		broken := graph{}
		for path, p := range g {
			broken[path] = p
		}
		p := *g[src]
		p.Imports = append(slices.Clone(p.Imports), bad)
		p.Deps = append(slices.Clone(p.Deps), bad)
		broken[src] = &p
		if vs := r.violations(broken); len(vs) == 0 {
			t.Errorf("%s importing %s breaks %q, and the rule says nothing", short(src), short(bad), r.says)
		}
	}
}

// TestRulesAreWrittenDown: the "never" rules of ARCHITECTURE.md are the
// rules of this test, sentence for sentence.
func TestRulesAreWrittenDown(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	written := neverItems(string(data))
	if len(written) == 0 {
		t.Fatal("ARCHITECTURE.md has no numbered list under a \"### Never\" heading")
	}
	here := map[string]bool{}
	for _, r := range rules {
		here[r.says] = true
		if !slices.Contains(written, r.says) {
			t.Errorf("ARCHITECTURE.md does not say: %s", r.says)
		}
	}
	for _, s := range written {
		if !here[s] {
			t.Errorf("ARCHITECTURE.md says %q, and no rule checks it", s)
		}
	}
}

var item = regexp.MustCompile(`^[0-9]+\. `)

// neverItems returns the items of the numbered list in the "### Never"
// section of a Markdown text, each on one line.
func neverItems(md string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			in = strings.HasPrefix(line, "### Never")
		case !in:
		case item.MatchString(line):
			out = append(out, strings.TrimSpace(item.ReplaceAllString(line, "")))
		case strings.HasPrefix(line, "   ") && len(out) > 0 && strings.TrimSpace(line) != "":
			out[len(out)-1] += " " + strings.TrimSpace(line)
		}
	}
	return out
}

func keys(g graph) []string {
	out := make([]string, 0, len(g))
	for path := range g {
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

// TestPackageNamesMatchDirectories: every package but a command is named
// after its directory, so that an import path says what a file calls it.
func TestPackageNamesMatchDirectories(t *testing.T) {
	g := load(t)
	for _, path := range keys(g) {
		p := g[path]
		if p.Name != "main" && p.Name != filepath.Base(path) {
			t.Errorf("package %s is named %s", short(path), p.Name)
		}
	}
}
