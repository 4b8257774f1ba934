package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/testfs"
)

// hostile is what the inputs of TestHostileText carry in every name and
// text field: a window title (OSC … BEL), a screen clear and a colour
// (CSI), the same as C1 controls (CSI, NEL, OSC, ST), DEL, a bidi
// override, a carriage return and a line feed, and HTML that runs script.
const hostile = "\x1b]0;pwn\a\x1b[2J\x1b[31m\u009b2J\u0085\u009d0;pwn\u009c\x7f\u202eevil\r\n" +
	"<script>alert(1)</script><img src=x onerror=alert(1)>"

// hostileName is hostile as a file name holds it: no separator, no line
// break.
var hostileName = strings.NewReplacer("/", "", "\r", "", "\n", "").Replace(hostile)

// uEscape writes s as the body of a JSON string, with every control
// character, DEL, C1 control and bidi override as \uXXXX; TOML basic
// strings and YAML double-quoted strings read the same escapes.
func uEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x2000 && r < 0x2100:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hostileTree writes testdata/hostile.txtar under dir with its
// placeholders replaced (see the archive's comment).
func hostileTree(t *testing.T, dir string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "hostile.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	for i := range 150 {
		fmt.Fprintf(&big, "line %d of the output %s\n", i, hostile)
		if i%40 == 7 {
			fmt.Fprintf(&big, "ERROR: step %d failed %s\n", i, hostile)
		}
	}
	xml := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(hostile)
	fill := strings.NewReplacer(
		"«H»", uEscape(hostile),
		"«X»", uEscape(xml),
		"«R»", hostile,
		"«N»", hostileName,
		"«BIG»", uEscape(big.String()))
	for i := range ar.Files {
		ar.Files[i].Name = strings.ReplaceAll(ar.Files[i].Name, "«N»", hostileName)
		ar.Files[i].Data = []byte(fill.Replace(string(ar.Files[i].Data)))
	}
	ar.Comment = nil
	testfs.WriteTree(t, dir, ar)
}

// unsafeText finds what must not reach a terminal: a C0 control but tab
// and line feed, DEL, a C1 control, a bidi override or isolate, or a byte
// that is not UTF-8.
func unsafeText(out []byte) string {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("byte %#x at %d", out[i], i)
		case r < 0x20 && r != '\t' && r != '\n', r >= 0x7f && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			lo := max(i-40, 0)
			return fmt.Sprintf("%U at %d, after %q", r, i, out[lo:i])
		}
		i += n
	}
	return ""
}

// activeHTML finds markup that a browser would load or run: a script, an
// image, a frame, an object, a link, or an event handler in any tag.
// markdownHTML adds the tags a Markdown report never needs.
var (
	activeHTML   = regexp.MustCompile(`(?i)<\s*/?\s*(script|img|iframe|object|embed|a)\b|<[a-z][^<>]*\son[a-z]+\s*=`)
	markdownHTML = regexp.MustCompile(`(?i)<\s*/?\s*(svg|style|link|meta|form|input|details|div|span)\b`)
)

// outsideFences drops the fenced code blocks of Markdown: a renderer shows
// their lines as text, never as markup, as long as no line closes the
// block early (a closing fence is at least as long as the opening one).
func outsideFences(md []byte) []byte {
	var out [][]byte
	fence := ""
	for _, l := range bytes.Split(md, []byte("\n")) {
		t := strings.TrimLeft(string(l), " ")
		n := len(t) - len(strings.TrimLeft(t, "`"))
		switch {
		case fence == "" && n >= 3 && len(string(l))-len(t) <= 3:
			fence = t[:n]
		case fence != "" && n >= len(fence) && strings.TrimSpace(t[n:]) == "" && len(string(l))-len(t) <= 3:
			fence = ""
		case fence == "":
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// TestHostileText runs every command that reports on captures, skill
// trees, configuration, traces, outputs or the archive, in every format it
// has, over inputs whose names and texts are terminal escapes and HTML (see
// hostile), and checks that no control character, escape sequence or bidi
// override reaches standard output or standard error, that JSON escapes
// them, and that no HTML that renders reaches Markdown or HTML output. Each
// run must show the hostile text in some form ("pwn"), so that a command
// that stopped printing it does not pass unnoticed.
func TestHostileText(t *testing.T) {
	dir := t.TempDir()
	hostileTree(t, dir)
	t.Chdir(dir)
	t.Setenv("SKILLOPT_CONFIG", "")
	t.Setenv("NO_COLOR", "1")
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, ".cache"))

	capt := filepath.Join("caps", hostileName+".json")
	badCapt := filepath.Join("caps", "bad-"+hostileName+".json")
	agent := filepath.Join(".pi", "agents", hostileName+".md")
	hostileDir := hostileName + "-dir"
	if err := os.MkdirAll(hostileDir, 0o755); err != nil {
		t.Fatal(err)
	}

	// The archive: a transform stores the reduced tool results; a temporary
	// file left by a writer waits for gc.
	mustRun(t, 0, "transform", "--rules", "SO3", "--archive", "arch", capt, "-o", "reduced.json")
	if err := os.WriteFile(filepath.Join(hostileDir, atomicfile.TempPrefix+hostileName), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	// Card requests for catalog init, and a hostile answer to absorb.
	mustRun(t, 0, "catalog", "init", "--dir", "work")
	answer, err := os.ReadFile("answer.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("work", "responses", "g0001.json"), answer, 0o644); err != nil {
		t.Fatal(err)
	}
	// A saved lint report for render, besides the hand-written one.
	var lintJSON bytes.Buffer
	run([]string{"skillopt", "lint", "--format", "json", "skills", agent}, strings.NewReader(""), &lintJSON, &bytes.Buffer{})
	if err := os.WriteFile("lint.json", lintJSON.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	runs := hostileRuns(capt, badCapt, agent, hostileDir)
	seen := map[string]map[string]bool{}
	for _, r := range runs {
		var stdout, stderr bytes.Buffer
		run(append([]string{"skillopt"}, r.args...), strings.NewReader(r.stdin), &stdout, &stderr)
		name := strings.Join(r.args, " ")
		format := "text"
		for i, a := range r.args {
			if a == "--format" && i+1 < len(r.args) {
				format = r.args[i+1]
			}
		}
		checkHostileOutput(t, name, format, r.quiet, stdout.Bytes(), stderr.Bytes())
		cmd := r.args[0]
		if len(r.args) > 1 && !strings.HasPrefix(r.args[1], "-") && strings.Contains("catalog trace bench archive tools", cmd) {
			cmd += " " + r.args[1]
		}
		if slicesContains(r.args, "--conversation") {
			cmd += " --conversation"
		}
		if seen[cmd] == nil {
			seen[cmd] = map[string]bool{}
		}
		seen[cmd][format] = true
	}
	var table []string
	for cmd, fs := range seen {
		var list []string
		for f := range fs {
			list = append(list, f)
		}
		sort.Strings(list)
		table = append(table, fmt.Sprintf("%-24s %s", cmd, strings.Join(list, ", ")))
	}
	sort.Strings(table)
	t.Logf("covered:\n%s", strings.Join(table, "\n"))
}

// hostileRun is one run of TestHostileText.
type hostileRun struct {
	args  []string
	stdin string
	// quiet: the run need not show the hostile text (it reports on it
	// only through counts).
	quiet bool
}

// hostileRuns are the runs of TestHostileText: every command, in every
// format it supports, on the hostile inputs.
func hostileRuns(capt, badCapt, agent, hostileDir string) []hostileRun {
	reportFormats := []string{"text", "json", "markdown", "sarif", "github"}
	var runs []hostileRun
	add := func(formats []string, args ...string) {
		for _, f := range formats {
			runs = append(runs, hostileRun{args: append(append([]string{}, args...), "--format", f)})
		}
	}
	// addQuiet adds runs whose output has only counts, or an error that
	// quotes no input.
	addQuiet := func(formats []string, args ...string) {
		for _, f := range formats {
			runs = append(runs, hostileRun{args: append(append([]string{}, args...), "--format", f), quiet: true})
		}
	}
	add([]string{"text", "json", "markdown"}, "measure", "--encoding", "none", capt)
	add([]string{"text", "json", "markdown"}, "measure", capt, "caps/openai.json", "--details")
	add([]string{"text", "json", "markdown", "html"}, "measure", "--conversation", "conv/1.json", "conv/2.json")
	add([]string{"text", "json", "markdown", "html"}, "measure", "--conversation", "session.jsonl")
	// Several conversations: a summary that names each after its first
	// capture.
	add([]string{"text", "json", "markdown", "html"}, "measure", "--conversation", "conv/1.json", "conv/2.json", capt)
	add([]string{"text", "json", "markdown"}, "diff", capt)
	add([]string{"text", "json", "markdown"}, "diff", capt, "reduced.json")
	addQuiet([]string{"text", "markdown"}, "diff", "--stat", capt, "caps/openai.json")
	addQuiet([]string{"text", "markdown"}, "measure", "-q", capt, "caps/openai.json")
	add(reportFormats, "validate", capt, "caps/openai.json", badCapt)
	add(reportFormats, "validate", badCapt)
	add(reportFormats, "validate", "-q", badCapt)
	add(reportFormats, "check", capt, "caps/openai.json")
	add(reportFormats, "lint", "skills", agent)
	add(reportFormats, "render", "lint.json")
	add(reportFormats, "render", "report.json")
	add([]string{"text", "json"}, "tools", "search", "kubernetes pod logs", capt)
	addQuiet([]string{"text", "json"}, "tools", "search", "slack post", "caps/openai.json")
	addQuiet([]string{"text", "json"}, "catalog", "build")
	add([]string{"text", "json"}, "catalog", "build", "--from", capt)
	add([]string{"text", "json"}, "catalog", "search", "temporary files")
	add([]string{"text", "json"}, "catalog", "search", "temporary files", "--from", capt)
	add([]string{"text", "json"}, "catalog", "browse", "--tags", "unclassified")
	add([]string{"text", "json"}, "catalog", "browse", "--query", "temporary", "--from", capt)
	add([]string{"text", "json"}, "catalog", "loadout", "--agent", agent, "--ambient", "skills")
	add([]string{"text"}, "catalog", "init", "--responses", "work")
	add([]string{"text", "json", "markdown", "html"}, "trace", "report", "traces", "session.jsonl")
	add([]string{"text", "json"}, "trace", "view", "traces/a_1767225600000.json")
	add([]string{"text", "json"}, "trace", "view", "traces/a_1767229200000.json")
	add([]string{"text", "json"}, "trace", "view", "session.jsonl")
	add([]string{"text", "json"}, "trace", "alerts", "--allow-provider", "", "traces")
	add([]string{"text", "json"}, "trace", "prune", "--keep", "1", "traces")
	add([]string{"text", "json", "markdown"}, "bench", "output", "outs")
	add([]string{"text", "json"}, "bench", "tools", "--set", "toolset", "--providers", "anthropic", "--scale", "5", "--cases")
	addQuiet([]string{"text", "json"}, "archive", "gc", "--archive", "arch", "--older-than", "100h", hostileDir)
	runs = append(runs,
		hostileRun{args: []string{"archive", "gc", "--archive", "arch", "--older-than", "0s", hostileDir}},
		hostileRun{args: []string{"transform", "--rules", "SO3", "--archive", "arch", capt, "-o", "again.json"}, quiet: true},
		hostileRun{args: []string{"measure", "--format", "text", "-"}, stdin: hostile, quiet: true},
		hostileRun{args: []string{"validate", "--config", "bad.toml", capt}},
		hostileRun{args: []string{"rules", hostile}},
		hostileRun{args: []string{"catalog", "load", hostile}},
		hostileRun{args: []string{"trace", "view", hostile}},
		hostileRun{args: []string{"measure", hostile}})
	for _, f := range []string{"text", "json", "markdown"} {
		runs = append(runs, hostileRun{args: []string{"rules", "--format", f}, quiet: true})
	}
	for _, f := range []string{"text", "json"} {
		runs = append(runs,
			hostileRun{args: []string{"archive", "ls", "--archive", "arch", "--format", f}, quiet: true},
			hostileRun{args: []string{"archive", "verify", "--archive", "arch", "--format", f}, quiet: true})
	}

	return runs
}

// checkHostileOutput checks the output of one run of TestHostileText:
// no unsafe text on either stream, the hostile text shown (unless quiet),
// kept byte for byte in JSON and inert in Markdown and HTML.
func checkHostileOutput(t *testing.T, name, format string, quiet bool, stdout, stderr []byte) {
	t.Helper()
	if bytes.Contains(stderr, []byte("internal error")) {
		t.Errorf("%q: %s", name, stderr)
		return
	}
	if !quiet && !bytes.Contains(stdout, []byte("pwn")) && !bytes.Contains(stderr, []byte("pwn")) {
		t.Errorf("%q: the output does not show the hostile text, the run proves nothing:\n%s\n%s", name, string(stdout), string(stderr))
	}
	if where := unsafeText(stderr); where != "" {
		t.Errorf("%q: stderr: %s", name, where)
	}
	if where := unsafeText(stdout); where != "" {
		t.Errorf("%q: stdout: %s", name, where)
	}
	switch format {
	case "json", "sarif":
		// The escapes keep the value: the hostile text decodes back
		// byte for byte.
		values, ok := jsonValues(stdout)
		switch {
		case len(stdout) > 0 && !ok:
			t.Errorf("%q: stdout is not JSON:\n%s", name, string(stdout))
		case !quiet && !holdsString(values, "\x1b]0;pwn\a"):
			t.Errorf("%q: no JSON string holds the hostile text as it was", name)
		}
	case "markdown", "html":
		out := stdout
		if format == "markdown" {
			out = outsideFences(out)
		}
		m := activeHTML.FindIndex(out)
		if m == nil && format == "markdown" {
			m = markdownHTML.FindIndex(out)
		}
		if m != nil {
			lo, hi := max(m[0]-40, 0), min(m[1]+40, len(out))
			t.Errorf("%q: markup in %s: %q", name, format, out[lo:hi])
		}
	}
}

// jsonValues decodes output that is one JSON value, or one per line.
func jsonValues(b []byte) ([]any, bool) {
	var v any
	if json.Unmarshal(b, &v) == nil {
		return []any{v}, true
	}
	var out []any
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if json.Unmarshal(l, &v) != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// holdsString reports whether a string (a value or a key) somewhere in
// values contains sub.
func holdsString(values []any, sub string) bool {
	for _, v := range values {
		switch v := v.(type) {
		case string:
			if strings.Contains(v, sub) {
				return true
			}
		case []any:
			if holdsString(v, sub) {
				return true
			}
		case map[string]any:
			for k, x := range v {
				if strings.Contains(k, sub) || holdsString([]any{x}, sub) {
					return true
				}
			}
		}
	}
	return false
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func mustRun(t *testing.T, code int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := run(append([]string{"skillopt"}, args...), strings.NewReader(""), &stdout, &stderr)
	if got != code {
		t.Fatalf("skillopt %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, stdout.String(), stderr.String())
	}
	return stdout.String()
}
