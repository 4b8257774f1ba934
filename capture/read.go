package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/internal/untrusted"
)

// Provider names a request body shape.
type Provider string

// The supported provider shapes.
const (
	Anthropic       Provider = "anthropic"
	OpenAIChat      Provider = "openai-chat"
	OpenAIResponses Provider = "openai-responses"
	Gemini          Provider = "gemini"
	Mistral         Provider = "mistral"
	PiMessages      Provider = "pi-messages"
)

// Providers lists every supported provider in a stable order.
var Providers = []Provider{Anthropic, OpenAIChat, OpenAIResponses, Gemini, Mistral, PiMessages}

// ParseProvider returns the provider named s, or an error listing the valid names.
func ParseProvider(s string) (Provider, error) {
	for _, p := range Providers {
		if string(p) == s {
			return p, nil
		}
	}
	names := make([]string, len(Providers))
	for i, p := range Providers {
		names[i] = string(p)
	}
	return "", fmt.Errorf("unknown provider %q (want one of %s)", s, strings.Join(names, ", "))
}

// Envelope kinds: how a capture's body is wrapped in its file.
const (
	EnvBare       = "bare"        // the file (or line) is the body
	EnvJSONString = "json-string" // the file (or line) is a JSON string holding the body
	EnvRecord     = "record"      // {"url","method","headers","body"}
	EnvHAR        = "har"         // HAR 1.2 log entry
	EnvCodeAssist = "code-assist" // {"model","project","request":{…}} wrapper (Gemini Code Assist)
	EnvPiSession  = "pi-session"  // Pi session JSONL, read as one array of its entries
)

// Redacted replaces secret header values and key= query parameters.
const Redacted = "REDACTED"

// secretHeaders are the header names whose values are never kept or printed.
var secretHeaders = []string{"authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie", "proxy-authorization"}

func isSecretHeader(name string) bool {
	for _, h := range secretHeaders {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// Header is one request header as captured, with secrets redacted.
type Header struct{ Name, Value string }

// layer is one encoding wrapped around the body bytes at a span.
type layer uint8

const (
	layerJSONString layer = iota + 1 // the body is the decoded value of a JSON string token
	layerBase64                      // the body is base64 inside a JSON string token
	layerLines                       // the body is a JSON array whose elements are the file's lines
)

// Capture is one captured request: where it came from, its envelope, and the
// indexed body.
type Capture struct {
	Name     string // FILE or FILE#N
	File     *File
	Envelope string
	Line     int // 1-based line of the entry in its file (JSONL), 0 otherwise
	URL      string
	Method   string
	Headers  []Header

	Body     []byte // the request body, exactly as sent
	Doc      *Doc   // index of Body
	Provider Provider
	Reason   string // why Provider was chosen

	span   [2]int  // where the encoded body sits in File.Data
	layers []layer // encodings between File.Data[span] and Body, outermost first
	segs   []Segment
}

// File is one input file (or stdin) and the captures found in it.
type File struct {
	Name     string
	Data     []byte
	Captures []*Capture
	// Errs holds per-entry errors of multi-capture files (JSONL lines,
	// HAR entries) whose other entries were read.
	Errs []error

	redactions [][2]int // spans of secret values in Data, replaced on output
	urlFixes   []urlFix // URL tokens whose key= parameters are replaced on output
}

type urlFix struct {
	span [2]int
	repl []byte
}

// Error is an input error located in a file.
type Error struct {
	File string
	Pos  string // "LINE:COL", "#N" or ""
	Err  error
}

func (e *Error) Error() string {
	if e.Pos == "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%s: %v", e.File, e.Pos, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Options controls reading.
type Options struct {
	// Provider, when set, overrides detection for every capture.
	Provider Provider
}

// MaxFileSize bounds one input file (stdin included); larger input is
// refused before it is read. Provider request limits are tens of megabytes,
// so 256 MiB leaves room for HAR logs and long sessions while keeping a
// stray log file or device from taking the machine's memory.
const MaxFileSize = 256 << 20

// MaxSidecarSize bounds a NAME.meta.json sidecar (a URL and headers).
const MaxSidecarSize = 1 << 20

// Expand turns CAPTURE arguments into file paths: files as given, "-" for
// stdin, and directories walked recursively for *.json, *.jsonl and *.har in
// lexical order. Paths are not opened here: ReadFile checks each one.
// Entries of a walked directory that are neither regular files nor
// symbolic links (FIFOs, sockets, devices) are reported, not returned. A
// directory without captures is an error. Errors of one argument do not
// stop the others: the paths found are returned with every error, joined.
func Expand(args []string) ([]string, error) {
	var out []string
	var errs []error
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			// ReadFile reports a missing or unusable file by its name.
			out = append(out, a)
			continue
		}
		n, reported := len(out), len(errs)
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == a {
					return err
				}
				errs = append(errs, &Error{File: p, Err: unwrapPathErr(err)})
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != a && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if isSidecar(p) {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".json", ".jsonl", ".har":
			default:
				return nil
			}
			// Links are followed (and checked) by ReadFile; other
			// special files are refused here, unopened.
			if t := d.Type(); t&fs.ModeSymlink == 0 {
				if err := untrusted.CheckMode(t); err != nil {
					errs = append(errs, &Error{File: p, Err: err})
					return nil
				}
			}
			out = append(out, p)
			return nil
		})
		if err != nil {
			errs = append(errs, &Error{File: a, Err: unwrapPathErr(err)})
			continue
		}
		if len(out) == n && len(errs) == reported {
			errs = append(errs, &Error{File: a, Err: errors.New("directory holds no *.json, *.jsonl or *.har files")})
		}
	}
	return out, errors.Join(errs...)
}

// ReadFile reads path ("-" is stdin) and returns its captures. Only
// regular files (or links to them) of at most MaxFileSize bytes are read;
// stdin stops being read after MaxFileSize bytes.
func ReadFile(path string, stdin io.Reader, opts Options) (*File, error) {
	var (
		data []byte
		err  error
	)
	name := path
	if path == "-" {
		name = "<stdin>"
		data, err = untrusted.ReadAll(stdin, MaxFileSize)
	} else {
		data, err = untrusted.ReadFile(path, MaxFileSize)
		var nr *untrusted.NotRegularError
		if errors.As(err, &nr) && nr.Mode&fs.ModeNamedPipe != 0 {
			err = fmt.Errorf("%w (pipe a stream to stdin with -)", err)
		}
	}
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	f, err := Read(name, data, opts)
	if err == nil && path != "-" {
		f.applySidecar(path, opts)
	}
	return f, err
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isSidecar reports a NAME.meta.json file: request metadata (method, path,
// headers) stored beside a bare body, not a capture itself.
func isSidecar(path string) bool {
	return strings.HasSuffix(strings.ToLower(filepath.Base(path)), ".meta.json")
}

// applySidecar reads NAME.meta.json (beside the capture or in a meta/
// folder next to it) for a single bare body, taking its URL path and
// headers, and re-detects the provider from them.
func (f *File) applySidecar(path string, opts Options) {
	if len(f.Captures) != 1 || f.Captures[0].Envelope != EnvBare {
		return
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	dir := filepath.Dir(path)
	for _, p := range []string{filepath.Join(dir, base+".meta.json"), filepath.Join(dir, "meta", base+".meta.json")} {
		data, err := untrusted.ReadFile(p, MaxSidecarSize)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			// A sidecar that is there but refused (a FIFO, too large) is
			// an input error; the body itself is still read.
			f.Errs = append(f.Errs, &Error{File: p, Err: err})
			return
		}
		doc, err := Parse(data)
		if err != nil || doc.Kind(0) != Object {
			return
		}
		c := f.Captures[0]
		side := &File{Name: p, Data: data}
		r := reader{f: side}
		if u := doc.GetAny(0, "url", "uri", "path"); doc.Kind(u) == String {
			c.URL = r.redactURL(doc, u, 0)
		}
		c.Method = doc.GetStr(0, "method")
		if h := doc.Get(0, "headers"); h >= 0 {
			c.Headers = r.headers(doc, h, 0)
		}
		if opts.Provider == "" {
			if p, why, err := Detect(c); err == nil {
				c.Provider, c.Reason = p, why+" (from "+filepath.Base(side.Name)+")"
			}
		}
		return
	}
}

// Read parses data named name into captures. Single-capture files fail as a
// whole; multi-capture files (JSONL, HAR) keep their good entries and record
// the bad ones in File.Errs, returning an error only when no entry is usable.
func Read(name string, data []byte, opts Options) (*File, error) {
	f := &File{Name: name, Data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		if len(data) == 0 {
			return nil, &Error{File: name, Err: errors.New("empty input")}
		}
		return nil, &Error{File: name, Err: errors.New("input holds only whitespace")}
	}
	if looksBinary(data) {
		return nil, &Error{File: name, Err: errors.New("binary data, not a JSON capture")}
	}
	r := reader{f: f, opts: opts}
	if isPiSession(data) {
		return r.piSession()
	}
	if isJSONLName(name) {
		return r.jsonl()
	}
	doc, err := Parse(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) && strings.HasPrefix(se.Msg, "unexpected ") && strings.Contains(se.Msg, "after the top-level value") && bytes.IndexByte(data, '\n') >= 0 {
			// Several values, one per line: JSONL under another name.
			if first, _, _ := bytes.Cut(data, []byte{'\n'}); len(bytes.TrimSpace(first)) > 0 {
				if _, ferr := Parse(first); ferr == nil {
					return r.jsonl()
				}
			}
		}
		return nil, locate(name, data, 0, err)
	}
	if err := r.top(doc, 0, 0); err != nil {
		return nil, err
	}
	return f, nil
}

// isPiSession reports whether data is a Pi session file: JSONL whose first
// line is a {"type":"session"} header.
func isPiSession(data []byte) bool {
	first, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || len(bytes.TrimSpace(rest)) == 0 {
		return false
	}
	d, err := Parse(first)
	return err == nil && d.Kind(0) == Object && d.StrIs(d.Get(0, "type"), "session")
}

// piSession reads a Pi session file as one capture: a JSON array whose
// elements are the file's lines, so the body has exactly the lines' bytes
// plus brackets and commas in place of line breaks.
func (r *reader) piSession() (*File, error) {
	f := r.f
	var arr []byte
	arr = append(arr, '[')
	n := 0
	for off := 0; off < len(f.Data); {
		end := bytes.IndexByte(f.Data[off:], '\n')
		if end < 0 {
			end = len(f.Data)
		} else {
			end += off
		}
		line := f.Data[off:end]
		if len(bytes.TrimSpace(line)) > 0 {
			if _, err := Parse(line); err != nil {
				return nil, locate(f.Name, f.Data, off, err)
			}
			if n > 0 {
				arr = append(arr, ',')
			}
			arr = append(arr, line...)
			n++
		}
		off = end + 1
	}
	arr = append(arr, ']')
	doc, err := Parse(arr)
	if err != nil {
		return nil, &Error{File: f.Name, Err: err}
	}
	c := &Capture{Name: f.Name, Envelope: EnvPiSession, span: [2]int{0, len(f.Data)}, layers: []layer{layerLines}}
	if err := r.accept(c, doc); err != nil {
		return nil, err
	}
	return f, nil
}

func isJSONLName(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".jsonl") || strings.EqualFold(filepath.Ext(name), ".ndjson")
}

// looksBinary reports data that is not text: NUL bytes or many invalid
// UTF-8 sequences near the start.
func looksBinary(data []byte) bool {
	head := data[:min(len(data), 512)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 {
			bad++
		}
		i += n
	}
	return bad > len(head)/16
}

// locate wraps err with file and position. base is the offset of the parsed
// region in the file data.
func locate(name string, data []byte, base int, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		line, col := LineCol(data, base+se.Offset)
		return &Error{File: name, Pos: fmt.Sprintf("%d:%d", line, col), Err: fmt.Errorf("%s (byte %d)", se.Msg, base+se.Offset)}
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return &Error{File: name, Err: err}
}

type reader struct {
	f    *File
	opts Options
}

func (r *reader) jsonl() (*File, error) {
	f := r.f
	data := f.Data
	lineNo := 0
	for off := 0; off < len(data); {
		lineNo++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := data[off:end]
		if len(bytes.TrimSpace(line)) > 0 {
			doc, err := Parse(line)
			if err != nil {
				f.Errs = append(f.Errs, locate(f.Name, data, off, err))
			} else if err := r.top(doc, off, lineNo); err != nil {
				f.Errs = append(f.Errs, err)
			}
		}
		off = end + 1
	}
	if len(f.Captures) == 0 {
		if len(f.Errs) > 0 {
			return nil, f.Errs[0]
		}
		return nil, &Error{File: f.Name, Err: errors.New("no captures in JSONL input")}
	}
	return f, nil
}

// top classifies one top-level document found at offset base of the file
// (line > 0 for a JSONL line).
func (r *reader) top(doc *Doc, base, line int) error {
	name := r.f.Name
	if line > 0 {
		name = fmt.Sprintf("%s#%d", r.f.Name, line)
	}
	root := 0
	switch doc.Kind(root) {
	case String:
		return r.stringBody(doc, root, base, name, line, EnvJSONString)
	case Object:
		if log := doc.Get(root, "log"); log >= 0 && doc.Get(log, "entries") >= 0 {
			if line > 0 {
				return &Error{File: r.f.Name, Pos: "#" + strconv.Itoa(line), Err: errors.New("HAR log inside JSONL is not supported")}
			}
			return r.har(doc, log)
		}
		if doc.Get(root, "body") >= 0 && (doc.Get(root, "url") >= 0 || doc.Get(root, "uri") >= 0 || doc.Get(root, "method") >= 0 || doc.Get(root, "headers") >= 0) {
			return r.record(doc, root, base, name, line)
		}
	}
	c := &Capture{Name: name, Envelope: EnvBare, Line: line}
	return r.finish(c, doc, root, base, nil)
}

// record unwraps {"url","method","headers","body"}.
func (r *reader) record(doc *Doc, obj, base int, name string, line int) error {
	c := &Capture{Name: name, Envelope: EnvRecord, Line: line}
	if u := doc.GetAny(obj, "url", "uri"); u >= 0 && doc.Kind(u) == String {
		c.URL = r.redactURL(doc, u, base)
	}
	if m := doc.Get(obj, "method"); m >= 0 {
		c.Method = doc.Str(m)
	}
	if h := doc.Get(obj, "headers"); h >= 0 {
		c.Headers = r.headers(doc, h, base)
	}
	body := doc.Get(obj, "body")
	switch doc.Kind(body) {
	case Object, Array:
		return r.finish(c, doc, body, base, nil)
	case String:
		return r.stringBody(doc, body, base, name, line, EnvRecord, c)
	}
	return &Error{File: name, Pos: posOf(r.f.Data, base+int(doc.Nodes[body].Start)), Err: fmt.Errorf("envelope body is a %s, want an object or a JSON string", doc.Kind(body))}
}

// stringBody handles a body carried inside a JSON string token (once or
// twice encoded, or base64).
func (r *reader) stringBody(doc *Doc, node, base int, name string, line int, env string, c0 ...*Capture) error {
	var c *Capture
	if len(c0) > 0 {
		c = c0[0]
	} else {
		c = &Capture{Name: name, Envelope: env, Line: line}
	}
	layers := []layer{layerJSONString}
	data := []byte(doc.Str(node))
	for depth := 0; ; depth++ {
		inner, err := Parse(data)
		if err != nil {
			if depth == 0 {
				if dec, derr := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(data))); derr == nil {
					if inner2, err2 := Parse(dec); err2 == nil && inner2.Kind(0) != String {
						layers = append(layers, layerBase64)
						return r.finishIn(c, inner2, node, doc, base, layers)
					}
				}
			}
			return &Error{File: name, Pos: posOf(r.f.Data, base+int(doc.Nodes[node].Start)), Err: fmt.Errorf("body string is not JSON: %w", err)}
		}
		if inner.Kind(0) == String && depth < 2 {
			layers = append(layers, layerJSONString)
			data = []byte(inner.Str(0))
			continue
		}
		if inner.Kind(0) != Object && inner.Kind(0) != Array {
			return &Error{File: name, Pos: posOf(r.f.Data, base+int(doc.Nodes[node].Start)), Err: fmt.Errorf("body string holds a JSON %s, want an object", inner.Kind(0))}
		}
		return r.finishIn(c, inner, node, doc, base, layers)
	}
}

// finishIn completes a capture whose body document is encoded in the string
// node of the outer doc.
func (r *reader) finishIn(c *Capture, body *Doc, node int, outer *Doc, base int, layers []layer) error {
	n := &outer.Nodes[node]
	c.span = [2]int{base + int(n.Start), base + int(n.End)}
	c.layers = layers
	return r.accept(c, body)
}

// finish completes a capture whose body is node of doc, unencoded.
func (r *reader) finish(c *Capture, doc *Doc, node, base int, layers []layer) error {
	// A Code Assist wrapper carries the Gemini request in "request".
	if doc.Kind(node) == Object {
		if req := doc.Get(node, "request"); req >= 0 && doc.Kind(req) == Object && doc.GetAny(req, "contents") >= 0 && (doc.Get(node, "project") >= 0 || doc.Get(node, "model") >= 0) {
			c.Envelope = EnvCodeAssist
			node = req
		}
	}
	n := &doc.Nodes[node]
	c.span = [2]int{base + int(n.Start), base + int(n.End)}
	c.layers = layers
	body := doc
	if node != 0 || base != 0 || int(n.End) != len(doc.Src) || n.Start != 0 {
		// Re-index the body on its own so pointers and spans are relative
		// to it. Parsing a sub-span of valid JSON cannot fail.
		var err error
		if body, err = Parse(doc.Src[n.Start:n.End]); err != nil {
			return locate(r.f.Name, r.f.Data, base+int(n.Start), err)
		}
	}
	return r.accept(c, body)
}

func (r *reader) accept(c *Capture, body *Doc) error {
	c.File = r.f
	c.Doc = body
	c.Body = body.Src
	if r.opts.Provider != "" {
		c.Provider = r.opts.Provider
		c.Reason = "set by --provider"
	} else {
		p, reason, err := Detect(c)
		if err != nil {
			return &Error{File: c.Name, Err: err}
		}
		c.Provider, c.Reason = p, reason
	}
	r.f.Captures = append(r.f.Captures, c)
	return nil
}

func (r *reader) har(doc *Doc, log int) error {
	entries := doc.Get(log, "entries")
	if doc.Kind(entries) != Array {
		return &Error{File: r.f.Name, Err: errors.New("HAR log.entries is not an array")}
	}
	k := 0
	for e := range doc.Children(entries) {
		k++
		name := fmt.Sprintf("%s#%d", r.f.Name, k)
		req := doc.Get(e, "request")
		if req < 0 {
			continue
		}
		c := &Capture{Name: name, Envelope: EnvHAR}
		if u := doc.Get(req, "url"); u >= 0 && doc.Kind(u) == String {
			c.URL = r.redactURL(doc, u, 0)
		}
		c.Method = doc.GetStr(req, "method")
		if h := doc.Get(req, "headers"); h >= 0 {
			c.Headers = r.headers(doc, h, 0)
		}
		pd := doc.Get(req, "postData")
		text := doc.Get(pd, "text")
		if text < 0 || doc.Kind(text) != String {
			continue
		}
		raw := doc.Str(text)
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
			continue
		}
		body, err := Parse([]byte(raw))
		if err != nil {
			r.f.Errs = append(r.f.Errs, &Error{File: name, Err: fmt.Errorf("postData.text: %w", err)})
			continue
		}
		if err := r.finishIn(c, body, text, doc, 0, []layer{layerJSONString}); err != nil {
			r.f.Errs = append(r.f.Errs, err)
		}
	}
	if len(r.f.Captures) == 0 {
		if len(r.f.Errs) > 0 {
			return r.f.Errs[0]
		}
		return &Error{File: r.f.Name, Err: errors.New("HAR holds no request with a JSON body")}
	}
	return nil
}

// headers reads a headers value (map of string, map of []string, or
// [{name,value}]) and records the spans of secret values for redaction.
func (r *reader) headers(doc *Doc, h, base int) []Header {
	var out []Header
	add := func(name string, v int) {
		val := ""
		switch doc.Kind(v) {
		case String:
			val = doc.Str(v)
			if isSecretHeader(name) && val != "" {
				r.redact(doc, v, base)
				val = Redacted
			}
		case Array:
			var parts []string
			for e := range doc.Children(v) {
				if isSecretHeader(name) && doc.Kind(e) == String {
					r.redact(doc, e, base)
					parts = append(parts, Redacted)
				} else {
					parts = append(parts, doc.Str(e))
				}
			}
			val = strings.Join(parts, ", ")
		default:
			val = string(doc.Raw(v))
		}
		out = append(out, Header{Name: name, Value: val})
	}
	switch doc.Kind(h) {
	case Object:
		for m := range doc.Children(h) {
			add(doc.Key(m), m)
		}
	case Array:
		for e := range doc.Children(h) {
			n, v := doc.Get(e, "name"), doc.Get(e, "value")
			if n >= 0 && v >= 0 {
				add(doc.Str(n), v)
			}
		}
	}
	return out
}

func (r *reader) redact(doc *Doc, v, base int) {
	if doc.StrIs(v, Redacted) || doc.StrIs(v, "") {
		return
	}
	n := &doc.Nodes[v]
	r.f.redactions = append(r.f.redactions, [2]int{base + int(n.Start), base + int(n.End)})
}

// redactURL returns the URL with key= query values replaced, and records the
// replacement for output.
func (r *reader) redactURL(doc *Doc, u, base int) string {
	raw := doc.Str(u)
	red := RedactURL(raw)
	if red != raw {
		n := &doc.Nodes[u]
		r.f.urlFixes = append(r.f.urlFixes, urlFix{span: [2]int{base + int(n.Start), base + int(n.End)}, repl: Quote(red)})
	}
	return red
}

// RedactURL replaces the value of every key= query parameter.
func RedactURL(raw string) string {
	q := strings.IndexByte(raw, '?')
	if q < 0 {
		return raw
	}
	parts := strings.Split(raw[q+1:], "&")
	changed := false
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if strings.EqualFold(k, "key") && v != Redacted {
			parts[i] = p[:strings.IndexByte(p, '=')+1] + Redacted
			changed = true
		}
	}
	if !changed {
		return raw
	}
	return raw[:q+1] + strings.Join(parts, "&")
}

func posOf(data []byte, off int) string {
	line, col := LineCol(data, off)
	return fmt.Sprintf("%d:%d", line, col)
}

// Rebuild returns the file's bytes with each capture's body replaced by
// bodies[c] (captures absent from the map keep their bytes) and every secret
// redacted. Encoded bodies are re-encoded the way they were captured.
func (f *File) Rebuild(bodies map[*Capture][]byte) []byte {
	type repl struct {
		span [2]int
		data []byte
	}
	var rs []repl
	for _, c := range f.Captures {
		nb, ok := bodies[c]
		if !ok || bytes.Equal(nb, c.Body) {
			continue
		}
		rs = append(rs, repl{c.span, c.encode(nb)})
	}
	for _, s := range f.redactions {
		rs = append(rs, repl{s, []byte(`"` + Redacted + `"`)})
	}
	for _, u := range f.urlFixes {
		rs = append(rs, repl{u.span, u.repl})
	}
	if len(rs) == 0 {
		return f.Data
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].span[0] < rs[j].span[0] })
	var out []byte
	prev := 0
	for _, r := range rs {
		if r.span[0] < prev {
			continue // a redaction inside a replaced body cannot happen; be safe
		}
		out = append(out, f.Data[prev:r.span[0]]...)
		out = append(out, r.data...)
		prev = r.span[1]
	}
	return append(out, f.Data[prev:]...)
}

// encode wraps body in the capture's layers, innermost first.
func (c *Capture) encode(body []byte) []byte {
	out := body
	for _, l := range slices.Backward(c.layers) {
		switch l {
		case layerJSONString:
			out = Quote(string(out))
		case layerBase64:
			out = []byte(base64.StdEncoding.EncodeToString(out))
		case layerLines:
			out = arrayToLines(out, bytes.HasSuffix(c.File.Data, []byte{'\n'}))
		}
	}
	return out
}

// Redacted reports whether reading replaced any secret in the file.
func (f *File) Redacted() bool { return len(f.redactions) > 0 || len(f.urlFixes) > 0 }

// arrayToLines writes each element of a JSON array on its own line, in its
// exact bytes (the inverse of reading a session file).
func arrayToLines(arr []byte, trailingNewline bool) []byte {
	d, err := Parse(arr)
	if err != nil || d.Kind(0) != Array {
		return arr
	}
	var out []byte
	for e := range d.Children(0) {
		out = append(out, d.Raw(e)...)
		out = append(out, '\n')
	}
	if !trailingNewline && len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

// WithBody returns a copy of the capture carrying body instead, re-indexed,
// with the same file, envelope and provider. The copy is not added to the
// file's capture list.
func (c *Capture) WithBody(body []byte) (*Capture, error) {
	doc, err := Parse(body)
	if err != nil {
		return nil, err
	}
	n := *c
	n.Body = body
	n.Doc = doc
	n.segs = nil
	return &n, nil
}

// Origin returns the capture as originally read from its file: the capture
// of the file that a WithBody copy descends from.
func (c *Capture) Origin() *Capture {
	if c.File == nil {
		return c
	}
	for _, o := range c.File.Captures {
		if o.span == c.span {
			return o
		}
	}
	return c
}
