package capture

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkPartition asserts segments are ordered, non-overlapping and inside
// the body, and returns bytes per section (the remainder as other).
func checkPartition(t *testing.T, c *Capture) map[Section]int {
	t.Helper()
	sum := map[Section]int{}
	prev := 0
	covered := 0
	for _, s := range c.Segments() {
		if s.Start < prev || s.End < s.Start || s.End > len(c.Body) {
			t.Fatalf("%s: segment %s [%d,%d) overlaps or leaves the body (prev end %d)", c.Name, s.Kind, s.Start, s.End, prev)
		}
		prev = s.End
		sum[s.Kind] += s.End - s.Start
		covered += s.End - s.Start
	}
	sum[SecOther] += len(c.Body) - covered
	return sum
}

func TestSegmentsPiCaptures(t *testing.T) {
	dir := corpusDir(t, filepath.Join("captures", "pi-0.73.1"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, path := range files {
		f, err := ReadFile(path, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		sum := checkPartition(t, c)
		if sum[SecCatalog] == 0 {
			t.Errorf("%s: no skill catalog found", c.Name)
		}
		if sum[SecHuman] == 0 {
			t.Errorf("%s: no human text found", c.Name)
		}
		t.Logf("%s %s: %v", filepath.Base(path), c.Provider, sum)
	}
}

func TestCatalogDigest(t *testing.T) {
	read := func(body string) *Capture {
		t.Helper()
		f, err := Read("body.json", []byte(body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return f.Captures[0]
	}
	const tmpl = `{"model":"claude-sonnet-4-5","max_tokens":10,"system":"Skills:\n<available_skills>\n<skill>\n<name>%s</name>\n<description>Does things.</description>\n<location>/s/%s/SKILL.md</location>\n</skill>\n</available_skills>","messages":[{"role":"user","content":"%s"}]}`
	body := func(skill, msg string) string { return fmt.Sprintf(tmpl, skill, skill, msg) }
	a, aok := read(body("pdf", "hi")).CatalogDigest()
	b, bok := read(body("pdf", "another turn")).CatalogDigest()
	c, cok := read(body("docx", "hi")).CatalogDigest()
	if !aok || !bok || !cok {
		t.Fatalf("catalog not found: %v %v %v", aok, bok, cok)
	}
	if a != b {
		t.Error("the same catalog in two turns has two digests")
	}
	if a == c {
		t.Error("two catalogs have one digest")
	}
	if _, ok := read(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`).CatalogDigest(); ok {
		t.Error("a request without a catalog has a digest")
	}
	// A copy with another body has its own digest.
	orig := read(body("pdf", "hi"))
	orig.CatalogDigest()
	n, err := orig.WithBody([]byte(body("docx", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := n.CatalogDigest(); d != c {
		t.Error("WithBody kept the digest of the original body")
	}
}

// TestWithBodyKeepsFields: a copy with another body keeps every field but
// the body, its index and what is derived from them.
func TestWithBodyKeepsFields(t *testing.T) {
	f, err := Read("c.json", []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := f.Captures[0]
	c.URL, c.Method, c.Envelope, c.Line = "https://api.anthropic.com/v1/messages", "POST", "har", 7
	c.Headers = []Header{{"Content-Type", "application/json"}}
	c.span, c.layers = [2]int{3, 9}, []layer{layerJSONString}
	c.Segments()
	n, err := c.WithBody([]byte(`{"model":"m","max_tokens":2,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	derived := map[string]bool{"Body": true, "Doc": true, "segs": true, "catalogSum": true, "catalogText": true}
	cv, nv := reflect.ValueOf(c).Elem(), reflect.ValueOf(n).Elem()
	for i := range cv.NumField() {
		name := cv.Type().Field(i).Name
		if derived[name] {
			continue
		}
		a, b := cv.Field(i), nv.Field(i)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("WithBody changed %s: %v → %v", name, a, b)
		}
	}
	if n.segs != nil || string(n.Body) == string(c.Body) {
		t.Error("WithBody kept the old body or its segments")
	}
}

// TestCatalogDigestMemo checks the shortcut for a catalog sent again: the
// digest of the last catalog is reused only for the same bytes. A catalog
// of the same length with one byte changed, or the same buffer rewritten
// in place, gets its own digest; and the digest is the one the segments'
// bytes hash to however they arrive.
func TestCatalogDigestMemo(t *testing.T) {
	const tmpl = `{"model":"claude-sonnet-4-5","max_tokens":10,"system":"Skills:\n<available_skills>\n<skill>\n<name>%s</name>\n<description>%s</description>\n<location>/s/%s/SKILL.md</location>\n</skill>\n</available_skills>","messages":[{"role":"user","content":"hi"}]}`
	long := strings.Repeat("Does things with files of every kind. ", 4000) // beyond one digest chunk
	digest := func(data []byte) [16]byte {
		t.Helper()
		f, err := Read("body.json", data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum, ok := f.Captures[0].CatalogDigest()
		if !ok {
			t.Fatal("catalog not found")
		}
		return sum
	}
	// What the segments hash to, computed without the memo.
	direct := func(data []byte) [16]byte {
		t.Helper()
		f, err := Read("body.json", data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := f.Captures[0]
		var parts [][]byte
		c.WriteCatalog(func(b []byte) { parts = append(parts, b) })
		return digestCatalog(parts).sum
	}
	buf := []byte(fmt.Sprintf(tmpl, "pdf", long, "pdf"))
	a := digest(buf)
	if a != direct(buf) || digest(bytes.Clone(buf)) != a {
		t.Fatal("the digest depends on how the catalog arrived")
	}
	// One byte changed, same length, in the caller's own buffer.
	i := bytes.Index(buf, []byte("<name>pdf")) + len("<name>")
	buf[i] = 'q'
	b := digest(buf)
	if b == a {
		t.Fatal("a catalog changed in place kept the digest of the last one")
	}
	if b != direct(buf) {
		t.Fatal("the changed catalog's digest is not its bytes' own")
	}
	// Back to the first catalog: its own digest again.
	buf[i] = 'p'
	if digest(buf) != a {
		t.Fatal("the first catalog lost its digest")
	}
}

// TestSortedByStart compares the run merge with a stable sort: a few
// sorted runs, many, ties within and across runs.
func TestSortedByStart(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 2000 {
		var segs []Segment
		for run := range 1 + r.IntN(12) {
			start := r.IntN(50)
			for k := range r.IntN(8) {
				start += r.IntN(3) // ties too
				segs = append(segs, Segment{Start: start, Msg: run*100 + k})
			}
		}
		want := slices.Clone(segs)
		slices.SortStableFunc(want, func(x, y Segment) int { return cmp.Compare(x.Start, y.Start) })
		if got := sortedByStart(segs); !slices.Equal(got, want) {
			t.Fatalf("round %d: %v, want %v", round, got, want)
		}
	}
}
