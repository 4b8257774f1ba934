package tokens

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"
)

// The split patterns exactly as the library compiles them; the same strings
// select the library's generated matchers.
const (
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

var encodingNames = []string{"o200k_base", "cl100k_base"}

type reference struct {
	codec tokenizer.Codec
	split *regexp2.Regexp
	count *Counter
}

var (
	refOnce sync.Once
	refs    map[string]*reference
)

func refFor(t testing.TB, name string) *reference {
	t.Helper()
	refOnce.Do(func() {
		refs = map[string]*reference{}
		for _, n := range encodingNames {
			cd, err := tokenizer.Get(tokenizer.Encoding(n))
			if err != nil {
				panic(err)
			}
			pat := o200kPattern
			if n == "cl100k_base" {
				pat = cl100kPattern
			}
			c, err := New(n)
			if err != nil {
				panic(err)
			}
			refs[n] = &reference{codec: cd, split: regexp2.MustCompile(pat, regexp2.None), count: c}
		}
	})
	return refs[name]
}

// libCount is the reference token count.
func (r *reference) libCount(t testing.TB, text string) int {
	t.Helper()
	ids, _, err := r.codec.Encode(text)
	if err != nil {
		t.Fatalf("library Encode: %v", err)
	}
	return len(ids)
}

// libPieces is the reference split, as the library produces it.
func (r *reference) libPieces(t testing.TB, text string) []string {
	t.Helper()
	var out []string
	m, err := r.split.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = r.split.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatalf("split: %v", err)
	}
	return out
}

// pieces is the scanner's split, with invalid UTF-8 replaced as for encoding.
func pieces(enc, text string) []string {
	tablesOnce.Do(initTables)
	var out []string
	for i := 0; i < len(text); {
		var j int
		var ok bool
		if enc == "o200k_base" {
			j, ok = nextO200k(text, i)
		} else {
			j, ok = nextCl100k(text, i)
		}
		if ok {
			out = append(out, replaceInvalid(text[i:j]))
		}
		i = j
	}
	return out
}

// check compares the split and the count of text with the reference.
func check(t testing.TB, enc, text, label string) bool {
	t.Helper()
	r := refFor(t, enc)
	want := r.libCount(t, text)
	got := r.count.Count(text)
	ok := true
	if got != want {
		t.Errorf("%s %s: Count = %d, library = %d (len %d) %s", enc, label, got, want, len(text), excerpt(text))
		ok = false
	}
	lp, mp := r.libPieces(t, text), pieces(enc, text)
	if !equalStrings(lp, mp) {
		i := 0
		for i < len(lp) && i < len(mp) && lp[i] == mp[i] {
			i++
		}
		t.Errorf("%s %s: split differs at piece %d: library %q, scanner %q", enc, label, i, window(lp, i), window(mp, i))
		ok = false
	}
	return ok
}

func window(p []string, i int) []string {
	lo, hi := max(0, i-2), min(len(p), i+3)
	return p[lo:hi]
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func excerpt(s string) string {
	if len(s) > 200 {
		return fmt.Sprintf("%q…", s[:200])
	}
	return fmt.Sprintf("%q", s)
}

// corpusDir locates the shared corpus relative to the package directory.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("corpus not found at %s; skipping corpus checks", dir)
	}
	return dir
}

// corpusFiles lists the files under dir whose names end with one of exts
// (all files if exts is empty).
func corpusFiles(t testing.TB, dir string, exts ...string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if len(exts) == 0 {
			files = append(files, p)
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				files = append(files, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// longEnv turns on the exhaustive differential runs (make test-long). Plain
// `go test` checks a fixed, representative sample of the same inputs.
const longEnv = "SKILLOPT_LONG_TESTS"

func long() bool { return os.Getenv(longEnv) != "" }

// sample returns every step-th item (the first included), or all of them
// in long runs. The corpus is walked in lexical order, so the sample is
// the same on every run and spreads over every folder of the corpus.
func sample[T any](items []T, step int) []T {
	if long() || step <= 1 {
		return items
	}
	var out []T
	for i := 0; i < len(items); i += step {
		out = append(out, items[i])
	}
	return out
}

// jsonStrings returns every string value (and object key) in the JSON
// documents of data: one document, or one per line for JSON Lines.
func jsonStrings(data []byte) ([]string, error) {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				out = append(out, k)
				walk(v[k])
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		walk(v)
	}
}

// benchText returns about size bytes of mixed text: the JSON string values
// of the corpus, or generated text when the corpus is absent.
func benchText(size int) (string, string) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	var b strings.Builder
	src := "corpus JSON string values"
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || b.Len() >= size {
			return nil
		}
		if !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".har") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		strs, _ := jsonStrings(data)
		for _, s := range strs {
			b.WriteString(s)
			b.WriteByte('\n')
		}
		return nil
	})
	if b.Len() < size/2 {
		b.Reset()
		src = "generated text"
		b.WriteString(generatedText(size))
	}
	s := b.String()
	for len(s) < size {
		s += s
	}
	return s[:size], src
}

// generatedText returns deterministic English-, JSON- and code-like text.
func generatedText(size int) string {
	words := strings.Fields(`the quick brown fox jumps over lazy dog and then
		returns to its den where it sleeps until morning when birds sing loudly
		Tokenizer counts tokens exactly for every request body including tools
		function parameters description required properties type string object
		don't won't it's they're we've I'm you'll he'd HTTP JSON API URL`)
	snippets := []string{
		`{"role": "user", "content": "`, `"}, `, "\n", "\n\n", "    ", "\t",
		"func main() {\n\tfmt.Println(\"hello\")\n}\n", "12345", " 3.14159",
		"# Heading\n", "- item\n", "`code`", "http://example.com/path?q=1",
	}
	var b strings.Builder
	x := uint32(1)
	for b.Len() < size {
		x = x*1664525 + 1013904223
		if x>>28 < 3 {
			b.WriteString(snippets[(x>>8)%uint32(len(snippets))])
		} else {
			b.WriteString(words[(x>>8)%uint32(len(words))])
			b.WriteByte(' ')
		}
	}
	return b.String()
}
