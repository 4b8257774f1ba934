package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A mutation (testdata/mutations/<provider>/<name>.json) is one realistic
// mistake made to a real request body: the body (base: a file of the shared
// corpus, "corpus/…", or of testdata, "testdata/…") with one change (op on
// path: "replace", "add" or "remove" a value, or "rename" a member to
// "to"), which the provider answers with HTTP 400. The validator must report
// an error at pointer. The corpus is not copied into the repository: the
// mutations are applied when the test runs.
type mutation struct {
	Mutation string          `json:"mutation"`
	Base     string          `json:"base"`
	Op       string          `json:"op"`
	Path     string          `json:"path"`
	To       string          `json:"to"`
	Value    json.RawMessage `json:"value"`
	Pointer  string          `json:"pointer"`

	provider, name string
	base, body     []byte
}

// loadMutations reads every mutation and applies it; mutations of corpus
// files are left out when the corpus is absent.
func loadMutations(tb testing.TB) []*mutation {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "mutations", "*", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	corpus := filepath.Join("..", "..", "shared", "corpus")
	haveCorpus := isDir(corpus)
	var out []*mutation
	for _, f := range files {
		m := &mutation{provider: filepath.Base(filepath.Dir(f)), name: strings.TrimSuffix(filepath.Base(f), ".json")}
		dec := json.NewDecoder(bytes.NewReader(readFile(tb, f)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(m); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		var basePath string
		switch {
		case strings.HasPrefix(m.Base, "corpus/"):
			if !haveCorpus {
				continue
			}
			basePath = filepath.Join(corpus, filepath.FromSlash(strings.TrimPrefix(m.Base, "corpus/")))
		case strings.HasPrefix(m.Base, "testdata/"):
			basePath = filepath.FromSlash(m.Base)
		default:
			tb.Fatalf("%s: base %q is neither corpus/… nor testdata/…", f, m.Base)
		}
		m.base = readFile(tb, basePath)
		body, err := m.apply(m.base)
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		m.body = body
		out = append(out, m)
	}
	return out
}

// apply returns base with the mutation made.
func (m *mutation) apply(base []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(base))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	var value any
	if m.Op == "replace" || m.Op == "add" {
		vd := json.NewDecoder(bytes.NewReader(m.Value))
		vd.UseNumber()
		if err := vd.Decode(&value); err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
	}
	toks := strings.Split(m.Path, "/")[1:]
	parent := root
	for _, t := range toks[:len(toks)-1] {
		next, err := child(parent, t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Path, err)
		}
		parent = next
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		_, exists := p[last]
		switch {
		case m.Op == "add" && exists, m.Op != "add" && !exists:
			return nil, fmt.Errorf("%s: cannot %s member %q", m.Path, m.Op, last)
		}
		switch m.Op {
		case "replace", "add":
			p[last] = value
		case "remove":
			delete(p, last)
		case "rename":
			if _, clash := p[m.To]; clash || m.To == "" {
				return nil, fmt.Errorf("%s: cannot rename to %q", m.Path, m.To)
			}
			p[m.To] = p[last]
			delete(p, last)
		default:
			return nil, fmt.Errorf("unknown op %q", m.Op)
		}
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i > len(p) || (m.Op != "add" && i == len(p)) {
			return nil, fmt.Errorf("%s: no element %q", m.Path, last)
		}
		switch m.Op {
		case "replace":
			p[i] = value
		case "add":
			p = append(p[:i], append([]any{value}, p[i:]...)...)
		case "remove":
			p = append(p[:i], p[i+1:]...)
		default:
			return nil, fmt.Errorf("op %q on an array element", m.Op)
		}
		if err := setChild(root, toks[:len(toks)-1], p); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: parent is not a container", m.Path)
	}
	return json.Marshal(root)
}

func child(x any, tok string) (any, error) {
	switch v := x.(type) {
	case map[string]any:
		c, ok := v[tok]
		if !ok {
			return nil, fmt.Errorf("no member %q", tok)
		}
		return c, nil
	case []any:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(v) {
			return nil, fmt.Errorf("no element %q", tok)
		}
		return v[i], nil
	}
	return nil, fmt.Errorf("%q inside a scalar", tok)
}

// setChild stores array a (grown or shrunk) at path toks under root.
func setChild(root any, toks []string, a []any) error {
	if len(toks) == 0 {
		return fmt.Errorf("the body itself cannot change length")
	}
	parent := root
	for _, t := range toks[:len(toks)-1] {
		var err error
		if parent, err = child(parent, t); err != nil {
			return err
		}
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = a
	case []any:
		i, _ := strconv.Atoi(last)
		p[i] = a
	}
	return nil
}

// Every mutation is rejected, with an error at the expected pointer, and its
// base is valid (unknown keys aside on a compatible endpoint's capture).
func TestMutations(t *testing.T) {
	ms := loadMutations(t)
	if len(ms) == 0 {
		t.Fatal("no mutations")
	}
	perProvider := map[string]int{}
	for _, m := range ms {
		t.Run(m.provider+"/"+m.name, func(t *testing.T) {
			baseErrs, err := Validate(m.provider, m.base)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range baseErrs {
				if !(e.Unknown && compatibleCapture(filepath.Base(m.Base))) {
					t.Errorf("base %s is not valid: %s", m.Base, e)
				}
			}
			errs, err := Validate(m.provider, m.body)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, e := range errs {
				if e.Pointer == m.Pointer {
					found = true
					t.Logf("%s", e)
				}
				if len(e.Message) > 240 {
					t.Errorf("message too long to read: %s", e)
				}
			}
			if !found {
				t.Errorf("%s: no error at %s; got%s", m.Mutation, m.Pointer, formatErrors(errs))
			}
			perProvider[m.provider]++
		})
	}
	total := 0
	for _, p := range Providers {
		total += perProvider[p]
	}
	if isDir(filepath.Join("..", "..", "shared", "corpus")) && total < 60 {
		t.Errorf("%d mutations applied, want at least 60", total)
	}
	t.Logf("mutations per provider: %v", perProvider)
}

// The mutation files stay readable: no stray members, a known op and a
// pointer for every one.
func TestMutationFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "mutations", "*", "*.json"))
	if len(files) < 60 {
		t.Fatalf("%d mutation files, want at least 60", len(files))
	}
	for _, f := range files {
		var m mutation
		dec := json.NewDecoder(bytes.NewReader(readFile(t, f)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		switch {
		case m.Mutation == "":
			t.Errorf("%s: no description", f)
		case m.Op != "replace" && m.Op != "add" && m.Op != "remove" && m.Op != "rename":
			t.Errorf("%s: op %q", f, m.Op)
		case !strings.HasPrefix(m.Path, "/") || (m.Pointer != "" && !strings.HasPrefix(m.Pointer, "/")):
			t.Errorf("%s: path %q, pointer %q", f, m.Path, m.Pointer)
		}
		if provider := filepath.Base(filepath.Dir(f)); !contains(Providers, provider) {
			t.Errorf("%s: unknown provider folder", f)
		}
	}
}
