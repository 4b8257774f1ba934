package capture

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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
	EnvExchange   = "exchange"    // {"request": record, "response": …} (claude-trace logs)
)

// Header is one request header as captured; its value is REDACTED unless
// the reading Keep keeps its name.
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

	Body     []byte // the request body as sent, top-level credentials redacted
	Doc      *Doc   // index of Body
	Provider Provider
	Reason   string // why Provider was chosen

	// Response is the JSON of the response an envelope holds beside the
	// request (a recording's or a claude-trace log's "response"), as
	// read; nil when it holds none. HAR responses stay in the file.
	Response []byte
	// Session is set for a request rebuilt from a host's session file
	// (Envelope EnvSession): its body is the request of the
	// conversation's last turn and Session says what every turn sent.
	Session *Session
	// Time is when the request was sent, as its envelope records it (a
	// recording's recorded_at, a claude-trace request's timestamp); zero
	// when it records none.
	Time time.Time

	span   [2]int  // where the encoded body sits in File.Data
	layers []layer // encodings between File.Data[span] and Body, outermost first
	segs   []Segment
	// catalogSum memoises CatalogDigest (nil: not computed yet).
	catalogSum atomic.Pointer[catalogSum]
	// catalogText memoises the text of catalog segments, by span.
	catalogText struct {
		sync.Mutex
		m map[[2]int]string
	}
}

// File is one input file (or stdin) and the captures found in it.
type File struct {
	Name     string
	Data     []byte
	Captures []*Capture
	// Errs holds per-entry errors of multi-capture files (JSONL lines,
	// HAR entries) whose other entries were read.
	Errs []error
	// Skipped lists the entries read past, with why: a VCR cassette's
	// interactions that hold no JSON request for a provider.
	Skipped []string
	// Sidecar is the NAME.meta.json a single bare body was read with,
	// redacted; nil when there was none.
	Sidecar *Sidecar

	fixes []fix // secrets in Data and their redacted replacements, spliced in on output
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
	// Keep names the header and parameter values envelopes keep; nil
	// keeps KeptNames.
	Keep *Keep
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
			case ".yaml", ".yml":
				// Only VCR cassettes among YAML files, by their start.
				if d.Type() != 0 || !peekCassette(p) {
					return nil
				}
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
			errs = append(errs, &Error{File: a, Err: errors.New("directory holds no *.json, *.jsonl or *.har files, nor a VCR cassette")})
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
		w := newWalker(doc, 0, keepOf(opts))
		w.shaped(0, requestShape)
		c.URL = w.url(doc.GetAny(0, "url", "uri", "path"))
		c.Method = w.strOnly(doc.Get(0, "method"))
		if h := doc.Get(0, "headers"); h != NoNode {
			c.Headers = w.headers(h)
		}
		f.Sidecar = &Sidecar{Path: p, Data: applyFixes(data, w.fixes)}
		if opts.Provider == "" {
			if prov, why, err := Detect(c); err == nil {
				c.Provider, c.Reason = prov, why+" (from "+filepath.Base(p)+")"
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
	if looksLikeEventStream(data) {
		return nil, &Error{File: name, Err: notRequest{"a server-sent event stream (a provider's streamed response)"}}
	}
	r := reader{f: f, opts: opts}
	if isCassette(data) {
		return r.cassette()
	}
	if isPiSession(data) {
		return r.piSession()
	}
	host, why, doc := sessionHost(data)
	switch host {
	case HostClaudeCode:
		return r.claudeCode(why)
	case HostCodex:
		return r.codex(why)
	case HostGeminiCLI:
		return r.geminiCLILog(why)
	}
	if isJSONLName(name) {
		return r.jsonl()
	}
	var err error
	if doc == nil {
		doc, err = Parse(data)
	}
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
	if why := geminiChat(doc); why != "" {
		return r.geminiCLIChat(why, doc)
	}
	if geminiPromptLog(doc) {
		return nil, &Error{File: name, Err: fmt.Errorf("a Gemini CLI prompt log (the prompts typed, without the model's answers or usage): %w; read the chat files in chats/ beside it", ErrNoRequests)}
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
	if err := r.accept(c, doc, nil); err != nil {
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
		return &Error{File: name, Pos: fmt.Sprintf("%d:%d", line, col), Err: fmt.Errorf("%s (byte %d)%s", se.Msg, base+se.Offset, loneCR(data, base+se.Offset))}
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return &Error{File: name, Err: err}
}

// loneCR explains a syntax error at off that follows a lone CR: JSON
// Lines ends a line in LF (or CRLF), never in a lone CR, so a file
// written with CR line ends reads as one line of several values.
func loneCR(data []byte, off int) string {
	for i := min(off, len(data)) - 1; i >= 0; i-- {
		switch data[i] {
		case ' ', '\t':
			continue
		case '\r':
			if i+1 >= len(data) || data[i+1] != '\n' {
				return "; the line before ends in a lone CR (\\r), which JSON Lines does not take as a line end: convert the line ends to LF"
			}
		}
		return ""
	}
	return ""
}

type reader struct {
	f    *File
	opts Options
}

func (r *reader) jsonl() (*File, error) {
	f := r.f
	fileLines(f.Data, func(line []byte, off, no int) error {
		doc, err := Parse(line)
		if err != nil {
			f.Errs = append(f.Errs, locate(f.Name, f.Data, off, err))
		} else if err := r.top(doc, off, no); err != nil {
			f.Errs = append(f.Errs, err)
		}
		return nil
	})
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
	root := Node(0)
	switch doc.Kind(root) {
	case String:
		return r.stringBody(doc, root, base, name, line, EnvJSONString)
	case Object:
		if log := doc.Get(root, "log"); log != NoNode && doc.Get(log, "entries") != NoNode {
			if line > 0 {
				return &Error{File: r.f.Name, Pos: "#" + strconv.Itoa(line), Err: errors.New("HAR log inside JSONL is not supported")}
			}
			return r.har(doc, log)
		}
		if isRecord(doc, root) {
			return r.record(doc, root, base, name, line)
		}
		if req := doc.Get(root, "request"); isRecord(doc, req) && (doc.Get(root, "response") != NoNode || doc.Get(root, "logged_at") != NoNode) {
			return r.exchange(doc, root, req, base, name, line)
		}
	}
	c := &Capture{Name: name, Envelope: EnvBare, Line: line}
	return r.finish(c, doc, root, base, nil)
}

// isRecord reports an object node holding a request record: a body and
// a url, method or headers.
func isRecord(doc *Doc, obj Node) bool {
	return doc.Kind(obj) == Object && doc.Get(obj, "body") != NoNode &&
		(doc.Get(obj, "url") != NoNode || doc.Get(obj, "uri") != NoNode || doc.Get(obj, "method") != NoNode || doc.Get(obj, "headers") != NoNode)
}

// record unwraps {"url","method","headers","body"}, and the response a
// recording keeps beside it.
func (r *reader) record(doc *Doc, obj Node, base int, name string, line int) error {
	c := &Capture{Name: name, Envelope: EnvRecord, Line: line}
	c.Time = TimeOf(doc, doc.GetAny(obj, "recorded_at", "timestamp"))
	body := doc.Get(obj, "body")
	w := r.envelope(doc, obj, base, requestShape, func(i Node) bool { return i == body })
	if resp := doc.Get(obj, "response"); doc.Kind(resp) == Object {
		c.Response = doc.Raw(resp)
	}
	return r.recordBody(c, w, doc, obj, base, name, line)
}

// exchange unwraps a {"request": record, "response": …} pair.
func (r *reader) exchange(doc *Doc, root Node, req Node, base int, name string, line int) error {
	c := &Capture{Name: name, Envelope: EnvExchange, Line: line}
	c.Time = TimeOf(doc, doc.Get(req, "timestamp"))
	if c.Time.IsZero() {
		c.Time = TimeOf(doc, doc.Get(root, "logged_at"))
	}
	body := doc.Get(req, "body")
	w := r.envelope(doc, root, base, exchangeShape, func(i Node) bool { return i == body })
	if resp := doc.Get(root, "response"); doc.Kind(resp) == Object {
		c.Response = doc.Raw(resp)
	}
	return r.recordBody(c, w, doc, req, base, name, line)
}

// recordBody completes a capture from the request record obj, whose
// envelope w walked.
func (r *reader) recordBody(c *Capture, w *walker, doc *Doc, obj Node, base int, name string, line int) error {
	body := doc.Get(obj, "body")
	c.URL = w.url(doc.GetAny(obj, "url", "uri"))
	c.Method = w.strOnly(doc.Get(obj, "method"))
	if h := doc.Get(obj, "headers"); h != NoNode {
		c.Headers = w.headers(h)
	}
	switch doc.Kind(body) {
	case Object, Array:
		return r.finish(c, doc, body, base, nil)
	case String:
		return r.stringBody(doc, body, base, name, line, c.Envelope, c)
	}
	return &Error{File: name, Pos: posOf(r.f.Data, base+int(doc.Nodes[body].Start)), Err: fmt.Errorf("envelope body is a %s, want an object or a JSON string", doc.Kind(body))}
}

// stringBody handles a body carried inside a JSON string token (once or
// twice encoded, or base64).
func (r *reader) stringBody(doc *Doc, node Node, base int, name string, line int, env string, c0 ...*Capture) error {
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
func (r *reader) finishIn(c *Capture, body *Doc, node Node, outer *Doc, base int, layers []layer) error {
	n := &outer.Nodes[node]
	c.span = [2]int{base + int(n.Start), base + int(n.End)}
	c.layers = layers
	return r.accept(c, body, &encoded{outer, node, base})
}

// encoded locates a body carried in a string token: the token's node in
// the document around it, and that document's offset in the file.
type encoded struct {
	doc  *Doc
	node Node
	base int
}

// envelope redacts the envelope document doc from node root down as sh,
// leaving the nodes skip reports (the body) alone, and records its secrets
// for output. base is the document's offset in the file.
func (r *reader) envelope(doc *Doc, root Node, base int, sh *shape, skip func(Node) bool) *walker {
	w := newWalker(doc, 0, keepOf(r.opts))
	w.skip = skip
	w.shaped(root, sh)
	r.addFixes(w.fixes, base)
	return w
}

// keepOf returns the Keep of opts.
func keepOf(opts Options) *Keep {
	if opts.Keep == nil {
		return defaultKeep
	}
	return opts.Keep
}

// addFixes records fixes of a document at offset base of the file for
// output.
func (r *reader) addFixes(fixes []fix, base int) {
	for _, f := range fixes {
		r.f.fixes = append(r.f.fixes, fix{[2]int{base + f.span[0], base + f.span[1]}, f.repl})
	}
}

// finish completes a capture whose body is node of doc, unencoded.
func (r *reader) finish(c *Capture, doc *Doc, node Node, base int, layers []layer) error {
	// A Code Assist wrapper carries the Gemini request in "request".
	if doc.Kind(node) == Object {
		if req := doc.Get(node, "request"); req != NoNode && doc.Kind(req) == Object && doc.GetAny(req, "contents") != NoNode && (doc.Get(node, "project") != NoNode || doc.Get(node, "model") != NoNode) {
			c.Envelope = EnvCodeAssist
			r.envelope(doc, node, base, codeAssistShape, func(i Node) bool { return i == req })
			node = req
		}
	}
	n := &doc.Nodes[node]
	c.span = [2]int{base + int(n.Start), base + int(n.End)}
	c.layers = layers
	body := doc
	if node != 0 || base != 0 || int(n.End) != len(doc.Src) || n.Start != 0 {
		// The body's own index, so pointers and spans are relative to
		// it: the envelope's nodes of it, moved.
		body = doc.sub(node)
	}
	return r.accept(c, body, nil)
}

// accept completes a capture whose body is indexed: it redacts credentials
// at the body's top level and detects the provider. enc locates a body
// carried in a string token (nil when the body's bytes sit in the file).
func (r *reader) accept(c *Capture, body *Doc, enc *encoded) error {
	c.File = r.f
	if fixes := bodyCredentials(body); len(fixes) > 0 {
		red, err := Parse(applyFixes(body.Src, fixes))
		if err != nil {
			return &Error{File: c.Name, Err: err}
		}
		switch {
		case len(c.layers) == 0:
			r.addFixes(fixes, c.span[0])
		case len(c.layers) == 1 && c.layers[0] == layerJSONString && enc != nil:
			// Splice each value into the string token, escaped as it.
			for _, f := range fixes {
				a := enc.base + enc.doc.RawOffset(enc.node, f.span[0])
				b := enc.base + enc.doc.RawOffset(enc.node, f.span[1])
				q := Quote(string(f.repl))
				r.f.fixes = append(r.f.fixes, fix{[2]int{a, b}, q[1 : len(q)-1]})
			}
		default:
			r.f.fixes = append(r.f.fixes, fix{c.span, c.encode(red.Src)})
		}
		body = red
	}
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

func (r *reader) har(doc *Doc, log Node) error {
	entries := doc.Get(log, "entries")
	if doc.Kind(entries) != Array {
		return &Error{File: r.f.Name, Err: errors.New("HAR log.entries is not an array")}
	}
	// Request bodies are left out of the envelope walk; a text that turns
	// out not to be a body is walked as envelope text afterwards.
	bodies := map[Node]bool{}
	for e := range doc.Children(entries) {
		if text, _ := harText(doc, e); text != NoNode {
			bodies[text] = true
		}
	}
	w := newWalker(doc, 0, keepOf(r.opts))
	w.skip = func(i Node) bool { return bodies[i] }
	w.shaped(0, harShape)
	// A text that is no body after all is envelope text of its postData.
	notBody := func(text Node) {
		delete(bodies, text)
		w.holdText(doc.ParentOf(text), text)
	}
	k := 0
	for e := range doc.Children(entries) {
		k++
		name := fmt.Sprintf("%s#%d", r.f.Name, k)
		req := doc.Get(e, "request")
		if req == NoNode {
			continue
		}
		c := &Capture{Name: name, Envelope: EnvHAR}
		c.URL = w.url(doc.Get(req, "url"))
		c.Method = w.strOnly(doc.Get(req, "method"))
		if h := doc.Get(req, "headers"); h != NoNode {
			c.Headers = w.headers(h)
		}
		text, b64 := harText(doc, e)
		if text == NoNode {
			continue
		}
		layers := []layer{layerJSONString}
		data := []byte(doc.Str(text))
		if b64 {
			dec, err := base64.StdEncoding.DecodeString(string(data))
			if err != nil {
				r.f.Errs = append(r.f.Errs, &Error{File: name, Err: fmt.Errorf("postData.text is marked base64 but does not decode: %w", err)})
				notBody(text)
				continue
			}
			data, layers = dec, append(layers, layerBase64)
		}
		body, err := Parse(data)
		if err != nil {
			what := "postData.text"
			if b64 {
				what += " (base64-decoded)"
			}
			r.f.Errs = append(r.f.Errs, &Error{File: name, Err: fmt.Errorf("%s: %w", what, err)})
			notBody(text)
			continue
		}
		if err := r.finishIn(c, body, text, doc, 0, layers); err != nil {
			r.f.Errs = append(r.f.Errs, err)
			notBody(text)
		}
	}
	r.addFixes(w.fixes, 0)
	if len(r.f.Captures) == 0 {
		if len(r.f.Errs) > 0 {
			return r.f.Errs[0]
		}
		return &Error{File: r.f.Name, Err: errors.New("HAR holds no request with a JSON body")}
	}
	return nil
}

// harText returns the postData.text node of HAR entry e when it may hold a
// JSON request body, or NoNode, and whether the text is base64 (postData
// "encoding": "base64", which some exporters write for every body).
func harText(doc *Doc, e Node) (Node, bool) {
	pd := doc.Get(doc.Get(e, "request"), "postData")
	text := doc.Get(pd, "text")
	if doc.Kind(text) != String {
		return NoNode, false
	}
	if enc := doc.Get(pd, "encoding"); doc.Kind(enc) == String && strings.EqualFold(doc.Str(enc), "base64") {
		p := strings.TrimSpace(doc.StrPrefix(text, 64))
		if p == "" {
			return NoNode, false
		}
		if !doc.StrIs(text, p) {
			p = p[:len(p)/4*4]
		}
		// A prefix that decodes to something other than JSON is another
		// kind of body (a form); one that does not decode is reported
		// when the whole text is read.
		if dec, err := base64.StdEncoding.DecodeString(p); err == nil {
			if t := bytes.TrimSpace(dec); len(t) > 0 && t[0] != '{' && t[0] != '[' {
				return NoNode, false
			}
		}
		return text, true
	}
	trimmed := strings.TrimSpace(doc.StrPrefix(text, 64))
	if trimmed == "" {
		trimmed = strings.TrimSpace(doc.Str(text))
	}
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return NoNode, false
	}
	return text, false
}

// bodyCredentials returns fixes replacing the credentials a request body
// carries: members at its top level (api_key, apiKey, client_secret, …; see
// isBodyCredential), the authorization token of Anthropic MCP servers
// (/mcp_servers/N/authorization_token), and the authorization and secret
// headers of OpenAI MCP tools (/tools/N/authorization, and headers named as
// credentials under the same narrower rule as top-level members).
func bodyCredentials(d *Doc) []fix {
	if d.Kind(0) != Object {
		return nil
	}
	var out []fix
	add := func(m Node) {
		switch d.Kind(m) {
		case Null, True, False:
			return
		case String:
			if d.StrIs(m, Redacted) || d.StrIs(m, "") {
				return
			}
		}
		n := &d.Nodes[m]
		out = append(out, fix{[2]int{int(n.Start), int(n.End)}, []byte(`"` + Redacted + `"`)})
	}
	for m := range d.Children(0) {
		if mayBeSecret(d.RawKey(m)) && isBodyCredential(d.Key(m)) {
			add(m)
		}
	}
	for s := range d.Children(d.Get(0, "mcp_servers")) {
		if t := d.Get(s, "authorization_token"); t != NoNode {
			add(t)
		}
	}
	for t := range d.Children(d.Get(0, "tools")) {
		if !d.StrIs(d.Get(t, "type"), "mcp") {
			continue
		}
		if a := d.Get(t, "authorization"); a != NoNode {
			add(a)
		}
		for h := range d.Children(d.Get(t, "headers")) {
			if isBodyCredential(d.Key(h)) {
				add(h)
			}
		}
	}
	return out
}

func posOf(data []byte, off int) string {
	line, col := LineCol(data, off)
	return fmt.Sprintf("%d:%d", line, col)
}

// Rebuild returns the file's bytes with each capture's body replaced by
// bodies[c] (captures absent from the map keep their bytes) and every secret
// redacted. Requests rebuilt from a session file (EnvSession) are not in
// its bytes: their bodies are ignored. Encoded bodies are re-encoded the way they were captured.
func (f *File) Rebuild(bodies map[*Capture][]byte) []byte {
	var rs []fix
	for _, c := range f.Captures {
		if c.Envelope == EnvSession || c.Envelope == EnvVCR {
			continue // rebuilt from the file, not in it
		}
		nb, ok := bodies[c]
		if !ok || bytes.Equal(nb, c.Body) {
			continue
		}
		rs = append(rs, fix{c.span, c.encode(nb)})
	}
	// A replaced body's own fixes are in its new bytes already: sweep the
	// fixes and the replaced spans, both in file order, and drop those.
	sort.Slice(rs, func(i, j int) bool { return rs[i].span[0] < rs[j].span[0] })
	fixes := append([]fix(nil), f.fixes...)
	sort.SliceStable(fixes, func(i, j int) bool { return fixes[i].span[0] < fixes[j].span[0] })
	replaced := len(rs)
	k := 0
	for _, x := range fixes {
		for k < replaced && rs[k].span[1] <= x.span[0] {
			k++
		}
		if k < replaced && x.span[0] >= rs[k].span[0] && x.span[1] <= rs[k].span[1] {
			continue
		}
		rs = append(rs, x)
	}
	switch {
	case len(rs) == 0:
		return f.Data
	case len(rs) == 1 && rs[0].span == [2]int{0, len(f.Data)}:
		// The file is the one body (a bare request): its new bytes are
		// the file, without a copy. Capped, so an append copies.
		return rs[0].repl[:len(rs[0].repl):len(rs[0].repl)]
	}
	return applyFixes(f.Data, rs)
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
func (f *File) Redacted() bool { return len(f.fixes) > 0 }

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
	return c.with(body, doc), nil
}

// with is a copy of c with another body and its index; what is derived
// from the body is derived again.
func (c *Capture) with(body []byte, doc *Doc) *Capture {
	return &Capture{Name: c.Name, File: c.File, Envelope: c.Envelope, Line: c.Line, URL: c.URL, Method: c.Method, Headers: c.Headers,
		Body: body, Doc: doc, Provider: c.Provider, Reason: c.Reason, Response: c.Response, Session: c.Session, span: c.span, layers: c.layers}
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

// TimeOf reads a time value: an RFC 3339 string or a number of seconds
// since the Unix epoch (fractions allowed); zero for anything else.
func TimeOf(d *Doc, v Node) time.Time {
	switch d.Kind(v) {
	case String:
		t, err := time.Parse(time.RFC3339Nano, d.Str(v))
		if err == nil {
			return t
		}
	case Number:
		f, err := strconv.ParseFloat(string(d.Raw(v)), 64)
		if err == nil && f > 0 && f < 1e11 {
			sec := math.Floor(f)
			return time.Unix(int64(sec), int64((f-sec)*1e9)).UTC()
		}
	}
	return time.Time{}
}
