package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// EnvVCR is the envelope of a request read from a VCR cassette: the YAML
// file vcrpy and pytest-recording write, one interaction (request and
// response) after another. The body is converted from the YAML, so it is
// not in the file's bytes and the file is read-only input.
const EnvVCR = "vcr"

// peekCassette reports whether the regular file p starts as a VCR
// cassette, reading at most its first 16 KiB.
func peekCassette(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16<<10)
	n, _ := io.ReadFull(f, head)
	return isCassette(head[:n])
}

// isCassette reports YAML whose first document starts with an
// "interactions:" key at its top level (comments, directives, a "---" and
// other top-level keys before it allowed, as long as nothing says JSON).
func isCassette(data []byte) bool {
	if len(data) > 0 && (data[0] == '{' || data[0] == '[' || data[0] == '"') {
		return false // a first line that opens as JSON: the scan below would stop there, at its end
	}
	n := 0
	content := false
	for line := range bytes.Lines(data) {
		if n++; n > 64 {
			return false
		}
		l := bytes.TrimRight(line, " \t\r\n")
		switch {
		case len(l) == 0, l[0] == '#', l[0] == '%':
			continue
		case bytes.Equal(l, []byte("---")):
			if content {
				return false // a second document
			}
			continue
		}
		content = true
		switch {
		case l[0] == ' ' || l[0] == '\t' || l[0] == '-':
			// Inside another top-level key's value.
			continue
		case l[0] == '{' || l[0] == '[' || l[0] == '"':
			return false
		}
		if key, rest, ok := bytes.Cut(l, []byte(":")); ok && string(key) == "interactions" {
			return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t'
		}
		if bytes.Equal(l, []byte("...")) {
			return false
		}
	}
	return false
}

// IsCassette reports a file read as a VCR cassette.
func (f *File) IsCassette() bool {
	return len(f.Captures) > 0 && f.Captures[0].Envelope == EnvVCR
}

// yamlLine matches the line yaml's errors name.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// cassette reads a VCR cassette: one capture per interaction whose request
// carries a JSON body a provider shape is detected in; the others are
// listed in File.Skipped with why.
func (r *reader) cassette() (*File, error) {
	f := r.f
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(f.Data))
	if err := dec.Decode(&root); err != nil {
		msg := err.Error()
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			return nil, &Error{File: f.Name, Pos: m[1], Err: fmt.Errorf("VCR cassette: %s", msg[len(m[0]):])}
		}
		return nil, &Error{File: f.Name, Err: fmt.Errorf("VCR cassette: %s", strings.TrimPrefix(msg, "yaml: "))}
	}
	conv := yamlConv{data: f.Data}
	top := &root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	inter := yamlGet(top, "interactions")
	if top.Kind != yaml.MappingNode || inter == nil {
		return nil, conv.errAt(f.Name, top, errors.New("VCR cassette: want a mapping with interactions"))
	}
	if inter.Kind != yaml.SequenceNode {
		return nil, conv.errAt(f.Name, inter, errors.New("VCR cassette: interactions is not a list"))
	}
	for k, it := range inter.Content {
		name := fmt.Sprintf("%s#%d", f.Name, k+1)
		why, err := r.interaction(&conv, it, name)
		if err != nil {
			return nil, err
		}
		if why != "" {
			f.Skipped = append(f.Skipped, fmt.Sprintf("interaction %d (line %d): %s", k+1, it.Line, why))
		}
	}
	if len(f.Captures) == 0 {
		msg := fmt.Sprintf("VCR cassette holds no request with a JSON body for a provider (%d interaction(s))", len(inter.Content))
		if len(f.Skipped) > 0 {
			msg += "; " + f.Skipped[0]
		}
		return nil, &Error{File: f.Name, Err: errors.New(msg)}
	}
	return f, nil
}

// interaction reads one interaction of a cassette into a capture, or says
// why it holds none. Errors are for YAML that cannot be converted.
func (r *reader) interaction(conv *yamlConv, it *yaml.Node, name string) (string, error) {
	f := r.f
	if it.Kind != yaml.MappingNode {
		return "not a mapping", nil
	}
	req := yamlGet(it, "request")
	if req == nil || req.Kind != yaml.MappingNode {
		return "no request", nil
	}
	body, why, err := conv.requestBody(f.Name, req)
	if err != nil || why != "" {
		return why, err
	}
	// The envelope as a JSON record, redacted by its shape like any other.
	var env []byte
	env = append(env, '{')
	sep := func() {
		if len(env) > 1 {
			env = append(env, ',')
		}
	}
	for _, k := range []string{"uri", "method", "headers"} {
		if v := yamlGet(req, k); v != nil {
			j, err := conv.json(f.Name, v)
			if err != nil {
				return "", err
			}
			sep()
			env = append(append(append(env, Quote(k)...), ':'), j...)
		}
	}
	if resp := yamlGet(it, "response"); resp != nil && resp.Kind == yaml.MappingNode {
		j, err := conv.response(f.Name, resp)
		if err != nil {
			return "", err
		}
		sep()
		env = append(append(env, `"response":`...), j...)
	}
	env = append(env, '}')
	doc, err := Parse(env)
	if err != nil {
		return "", conv.errAt(f.Name, it, err)
	}
	w := newWalker(doc, 0, keepOf(r.opts))
	w.shaped(0, requestShape)
	red := doc
	if len(w.fixes) > 0 {
		if red, err = Parse(applyFixes(env, w.fixes)); err != nil {
			return "", conv.errAt(f.Name, it, err)
		}
	}
	bdoc, err := Parse(body)
	if err != nil {
		return "request body is not JSON: " + err.Error(), nil
	}
	if k := bdoc.Kind(0); k != Object && k != Array {
		return fmt.Sprintf("request body is a JSON %s, not a request", k), nil
	}
	if fixes := bodyCredentials(bdoc); len(fixes) > 0 {
		body = applyFixes(body, fixes)
		if bdoc, err = Parse(body); err != nil {
			return "", conv.errAt(f.Name, req, err)
		}
	}
	off := conv.offset(it)
	c := &Capture{Name: name, File: f, Envelope: EnvVCR, Line: it.Line, Body: body, Doc: bdoc, span: [2]int{off, off}}
	c.URL = w.url(doc.Get(0, "uri"))
	c.Method = w.strOnly(doc.Get(0, "method"))
	if h := doc.Get(0, "headers"); h != NoNode {
		c.Headers = w.headers(h)
	}
	if resp := red.Get(0, "response"); red.Kind(resp) == Object {
		c.Response = red.Raw(resp)
	}
	if r.opts.Provider != "" {
		c.Provider, c.Reason = r.opts.Provider, "set by --provider"
	} else {
		p, why, err := Detect(c)
		if err != nil {
			return "no provider: " + err.Error(), nil
		}
		c.Provider, c.Reason = p, why+" (VCR cassette)"
	}
	f.Captures = append(f.Captures, c)
	return "", nil
}

// requestBody returns the request body of a cassette's request: its
// parsed_body converted to JSON, or its body string as it is (vcrpy writes
// a string, or {string: …}). why says why there is none.
func (conv *yamlConv) requestBody(file string, req *yaml.Node) (body []byte, why string, err error) {
	if pb := yamlGet(req, "parsed_body"); pb != nil && (pb.Kind == yaml.MappingNode || pb.Kind == yaml.SequenceNode) {
		j, err := conv.json(file, pb)
		return j, "", err
	}
	b := yamlGet(req, "body")
	if b != nil && b.Kind == yaml.MappingNode {
		b = yamlGet(b, "string")
	}
	switch {
	case b == nil:
		return nil, "no request body", nil
	case b.Kind == yaml.AliasNode:
		return nil, "", conv.errAt(file, b, errors.New("VCR cassette: YAML aliases are not read"))
	case b.Kind != yaml.ScalarNode:
		return nil, "request body is not a string", nil
	case b.Tag == "!!null":
		return nil, "no request body", nil
	case b.Tag == "!!binary":
		return nil, "request body is binary", nil
	}
	s := strings.TrimSpace(b.Value)
	if s == "" {
		return nil, "empty request body", nil
	}
	if s[0] != '{' && s[0] != '[' {
		return nil, "request body is not JSON", nil
	}
	return []byte(b.Value), "", nil
}

// response converts a cassette's response to the record shape the
// usage readers know: {"status": code, "headers": …, "body": parsed_body
// or the body string}.
func (conv *yamlConv) response(file string, resp *yaml.Node) ([]byte, error) {
	out := []byte{'{'}
	add := func(k string, v []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, Quote(k)...), ':'), v...)
	}
	if st := yamlGet(resp, "status"); st != nil {
		if st.Kind == yaml.MappingNode {
			st = yamlGet(st, "code")
		}
		if st != nil && st.Kind == yaml.ScalarNode && st.Tag == "!!int" {
			if n, err := strconv.Atoi(st.Value); err == nil {
				add("status", strconv.AppendInt(nil, int64(n), 10))
			}
		}
	}
	if h := yamlGet(resp, "headers"); h != nil {
		j, err := conv.json(file, h)
		if err != nil {
			return nil, err
		}
		add("headers", j)
	}
	if pb := yamlGet(resp, "parsed_body"); pb != nil && (pb.Kind == yaml.MappingNode || pb.Kind == yaml.SequenceNode) {
		j, err := conv.json(file, pb)
		if err != nil {
			return nil, err
		}
		add("body", j)
	} else if b := yamlGet(resp, "body"); b != nil {
		if b.Kind == yaml.MappingNode {
			b = yamlGet(b, "string")
		}
		if b != nil && b.Kind == yaml.ScalarNode && b.Tag != "!!binary" && b.Tag != "!!null" {
			add("body", Quote(b.Value))
		}
	}
	return append(out, '}'), nil
}

// yamlGet returns the value of key k of mapping node m, or nil.
func yamlGet(m *yaml.Node, k string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if key := m.Content[i]; key.Kind == yaml.ScalarNode && key.Value == k {
			return m.Content[i+1]
		}
	}
	return nil
}

// yamlConv converts YAML nodes of one file to JSON, bounded as the index
// is: MaxDepth levels, MaxSize bytes, and no aliases (whose expansion
// could multiply the input).
type yamlConv struct {
	data  []byte
	lines []int // offsets of line starts, built on first use
}

// offset returns the byte offset of node n in the file.
func (conv *yamlConv) offset(n *yaml.Node) int {
	if conv.lines == nil {
		conv.lines = []int{0}
		for i, b := range conv.data {
			if b == '\n' {
				conv.lines = append(conv.lines, i+1)
			}
		}
	}
	if n.Line < 1 || n.Line > len(conv.lines) {
		return 0
	}
	off := conv.lines[n.Line-1]
	// Columns count characters; a line's bytes bound them.
	col := 0
	for i := off; i < len(conv.data) && conv.data[i] != '\n'; {
		if col >= n.Column-1 {
			return i
		}
		_, size := utf8.DecodeRune(conv.data[i:])
		i += size
		col++
	}
	return off
}

func (conv *yamlConv) errAt(file string, n *yaml.Node, err error) error {
	if n == nil || n.Line < 1 {
		return &Error{File: file, Err: err}
	}
	return &Error{File: file, Pos: fmt.Sprintf("%d:%d", n.Line, n.Column), Err: err}
}

// json converts node n to JSON: mappings in the order of their keys in
// the YAML, strings as they are, numbers, booleans and nulls as JSON
// writes them.
func (conv *yamlConv) json(file string, n *yaml.Node) ([]byte, error) {
	var out []byte
	var err error
	out, err = conv.appendJSON(out, file, n, 0)
	return out, err
}

// jsonNumber is the grammar of a JSON number.
var jsonNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
})

func (conv *yamlConv) appendJSON(out []byte, file string, n *yaml.Node, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return nil, conv.errAt(file, n, fmt.Errorf("VCR cassette: nesting deeper than %d levels", MaxDepth))
	}
	if len(out) > MaxSize {
		return nil, conv.errAt(file, n, fmt.Errorf("VCR cassette: value exceeds the %d-byte limit", MaxSize))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return append(out, "null"...), nil
		}
		return conv.appendJSON(out, file, n.Content[0], depth)
	case yaml.AliasNode:
		return nil, conv.errAt(file, n, errors.New("VCR cassette: YAML aliases are not read"))
	case yaml.MappingNode:
		out = append(out, '{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, conv.errAt(file, k, errors.New("VCR cassette: a mapping key that is not a scalar has no JSON form"))
			}
			if k.Tag == "!!merge" {
				return nil, conv.errAt(file, k, errors.New("VCR cassette: YAML merge keys are not read"))
			}
			if seen[k.Value] {
				return nil, conv.errAt(file, k, fmt.Errorf("VCR cassette: duplicate key %q", k.Value))
			}
			seen[k.Value] = true
			if i > 0 {
				out = append(out, ',')
			}
			out = AppendQuote(out, k.Value)
			out = append(out, ':')
			var err error
			if out, err = conv.appendJSON(out, file, n.Content[i+1], depth+1); err != nil {
				return nil, err
			}
		}
		return append(out, '}'), nil
	case yaml.SequenceNode:
		out = append(out, '[')
		for i, e := range n.Content {
			if i > 0 {
				out = append(out, ',')
			}
			var err error
			if out, err = conv.appendJSON(out, file, e, depth+1); err != nil {
				return nil, err
			}
		}
		return append(out, ']'), nil
	}
	// A scalar, by the tag YAML resolved it to.
	switch n.Tag {
	case "!!null":
		return append(out, "null"...), nil
	case "!!bool":
		if strings.EqualFold(n.Value, "true") {
			return append(out, "true"...), nil
		}
		return append(out, "false"...), nil
	case "!!int":
		v := strings.ReplaceAll(n.Value, "_", "")
		if jsonNumber().MatchString(v) {
			return append(out, v...), nil
		}
		if i, ok := new(big.Int).SetString(v, 0); ok {
			return i.Append(out, 10), nil
		}
	case "!!float":
		v := n.Value
		if jsonNumber().MatchString(v) {
			return append(out, v...), nil
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimPrefix(v, "+"), "_", ""), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return strconv.AppendFloat(out, f, 'g', -1, 64), nil
		}
		return nil, conv.errAt(file, n, fmt.Errorf("VCR cassette: number %q has no JSON form", v))
	}
	return AppendQuote(out, n.Value), nil
}
