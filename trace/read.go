package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/internal/atomicfile"
	"github.com/skillopt/skillopt/internal/reduce"
	"github.com/skillopt/skillopt/internal/untrusted"
)

// MaxFileSize bounds one trace or session file; larger files are refused
// before they are read.
const MaxFileSize = 64 << 20

// Error is an input error: a file that cannot be read, or one that is not a
// well-formed trace or session, with the position of the problem when there
// is one.
type Error struct {
	File      string
	Line, Col int // 1-based; 0 when the error has no position
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

func errorf(file string, format string, args ...any) *Error {
	return &Error{File: file, Msg: fmt.Sprintf(format, args...)}
}

// errAt locates a problem at byte off of src; line is the line src starts
// on in its file (1 for a whole file, the line number for a JSONL line).
func errAt(file string, src []byte, line, off int, format string, args ...any) *Error {
	l, c := capture.LineCol(src, off)
	return &Error{File: file, Line: line + l - 1, Col: c, Msg: fmt.Sprintf(format, args...)}
}

// syntaxErr turns a parse error of src into an Error at its position.
func syntaxErr(file string, src []byte, line int, err error) *Error {
	var se *capture.SyntaxError
	if errors.As(err, &se) {
		if se.Line == 0 { // a size limit: no position
			return errorf(file, "%s", se.Msg)
		}
		return &Error{File: file, Line: line + se.Line - 1, Col: se.Col, Msg: se.Msg}
	}
	return errorf(file, "%v", err)
}

// Expand turns PATH arguments into files: files as given, "-" for standard
// input, and directories walked recursively for *.json and *.jsonl in
// lexical order (hidden folders below the named one, symbolic links and
// skillopt's temporary files are skipped). A directory without such files
// is an error.
func Expand(args []string) ([]string, []error) {
	var out []string
	var errs []error
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, errorf(a, "%v", unwrapPath(err)))
			continue
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		n := len(out)
		// A symbolic link named as the folder is followed (the links met
		// below it are not): with a trailing separator the walk starts in
		// the folder it points to.
		root := a
		if lst, err := os.Lstat(a); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			root = a + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, errorf(p, "%v", unwrapPath(err)))
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != root && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || atomicfile.IsTemp(d.Name()) {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".json", ".jsonl":
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, errorf(a, "%v", err))
		}
		if len(out) == n {
			errs = append(errs, errorf(a, "directory holds no *.json or *.jsonl files"))
		}
	}
	return out, errs
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadBounded reads the regular file at path ("-": r) into buf, which it
// grows as needed, refusing anything that is not a regular file or is over
// MaxFileSize before reading it.
func ReadBounded(path string, r io.Reader, buf []byte) ([]byte, error) {
	name := displayName(path)
	var (
		data []byte
		err  error
	)
	if path == "-" {
		if r == nil {
			return nil, errorf(name, "standard input is not available here")
		}
		data, err = untrusted.ReadAll(r, MaxFileSize)
	} else {
		data, err = untrusted.ReadFileBuf(path, MaxFileSize, buf)
	}
	if err != nil {
		return nil, errorf(name, "%v", err)
	}
	return data, nil
}

func displayName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

// IsSession reports whether a file holds a Pi session rather than an
// execution trace: its name ends in .jsonl, or its first line is a session
// header.
func IsSession(name string, data []byte) bool {
	if strings.EqualFold(filepath.Ext(name), ".jsonl") {
		return true
	}
	line := data
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	d, err := capture.Parse(bytes.TrimRight(line, "\r"))
	return err == nil && d.Nodes[0].Kind == capture.Object && d.StrIs(d.Get(0, "type"), "session")
}

// Read reads the runs of one file: a trace holds one run, a session any
// number (possibly none).
func Read(name string, data []byte) ([]*Run, error) {
	if IsSession(name, data) {
		return ReadSession(name, data)
	}
	r, err := ReadTrace(name, data)
	if err != nil {
		return nil, err
	}
	return []*Run{r}, nil
}

// obj reads typed members of one JSON object, reporting the first problem
// at its position.
type obj struct {
	file string
	src  []byte
	line int
	d    *capture.Doc
	err  *Error
}

func (o *obj) fail(node capture.Node, format string, args ...any) {
	if o.err == nil {
		o.err = errAt(o.file, o.src, o.line, int(o.d.Nodes[node].Start), format, args...)
	}
}

// member returns member key of object i when it has kind k (NoNode when it is
// missing, or null and optional); a wrong kind, or a missing required
// member, is an error.
func (o *obj) member(i capture.Node, key string, k capture.Kind, required bool, what string) capture.Node {
	c := o.d.Get(i, key)
	if c == capture.NoNode || (!required && o.d.Nodes[c].Kind == capture.Null) {
		if required {
			o.fail(i, "%s has no %q", what, key)
		}
		return capture.NoNode
	}
	got := o.d.Nodes[c].Kind
	if got == k || (k == capture.True && got == capture.False) {
		return c
	}
	o.fail(c, "%q is %s, want %s", key, phrase(got), phrase(k))
	return capture.NoNode
}

// phrase names a JSON kind with its article: "a string", "an array", "null".
func phrase(k capture.Kind) string {
	switch k {
	case capture.Null:
		return "null"
	case capture.Array, capture.Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func (o *obj) str(i capture.Node, key string, required bool, what string) string {
	return o.d.Str(o.member(i, key, capture.String, required, what))
}

func (o *obj) boolean(i capture.Node, key string, what string) bool {
	c := o.member(i, key, capture.True, false, what)
	return c != capture.NoNode && o.d.Nodes[c].Kind == capture.True
}

// millis reads a number of milliseconds.
func (o *obj) millis(i capture.Node, key string, required bool, what string) int64 {
	c := o.member(i, key, capture.Number, required, what)
	if c == capture.NoNode {
		return 0
	}
	v, ok := toInt(o.d.Raw(c))
	if !ok {
		o.fail(c, "%q is out of range", key)
	}
	return v
}

func toInt(raw []byte) (int64, bool) {
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f >= 1<<63 || f < -(1<<63) {
		return 0, false
	}
	return int64(f), true
}

// ReadTrace reads an auggie execution trace: one JSON object with
// skillName, timestamp, toolCalls, finalText and stoppedReason (required)
// and model, route and brief (optional). See docs/trace.md.
func ReadTrace(name string, data []byte) (*Run, error) {
	d, err := capture.Parse(data)
	if err != nil {
		return nil, syntaxErr(name, data, 1, err)
	}
	o := &obj{file: name, src: data, line: 1, d: d}
	if k := d.Nodes[0].Kind; k != capture.Object {
		o.fail(0, "not an execution trace: the top-level value is %s, not an object", phrase(k))
		return nil, o.err
	}
	const what = "not an execution trace: the object"
	r := &Run{File: name, Source: SourceTrace}
	r.Skill = o.str(0, "skillName", true, what)
	if o.err == nil && blank(r.Skill) {
		o.fail(d.Get(0, "skillName"), "skillName is empty")
	}
	r.Timestamp = o.millis(0, "timestamp", true, what)
	calls := o.member(0, "toolCalls", capture.Array, true, what)
	r.FinalText = o.str(0, "finalText", true, what)
	r.StoppedReason = o.str(0, "stoppedReason", true, what)
	r.Model = o.str(0, "model", false, "")
	r.Provider = providerOf(r.Model)
	if rt := o.member(0, "route", capture.Object, false, ""); rt != capture.NoNode {
		r.Route = &Route{
			Tier:       o.str(rt, "tier", false, ""),
			Complexity: o.str(rt, "complexity", false, ""),
			Risk:       o.str(rt, "risk", false, ""),
			Reason:     o.str(rt, "reason", false, ""),
		}
		if c := o.member(rt, "confidence", capture.Number, false, ""); c != capture.NoNode {
			f, err := strconv.ParseFloat(string(d.Raw(c)), 64)
			if err != nil || math.IsInf(f, 0) {
				o.fail(c, "route confidence is out of range")
			}
			r.Route.Confidence, r.Route.HasConfidence = f, true
		}
	}
	o.member(0, "brief", capture.Object, false, "")
	if o.err != nil {
		return nil, o.err
	}
	r.Calls = make([]Call, 0, d.Len(calls))
	for c := range d.Children(calls) {
		if d.Nodes[c].Kind != capture.Object {
			o.fail(c, "tool call %d is %s, not an object", len(r.Calls), phrase(d.Nodes[c].Kind))
			return nil, o.err
		}
		what := fmt.Sprintf("tool call %d", len(r.Calls))
		call := Call{Index: len(r.Calls)}
		call.Server = o.str(c, "serverName", false, what)
		call.Tool = o.str(c, "toolName", true, what)
		if a := d.Get(c, "args"); a != capture.NoNode {
			call.Args = compactJSON(d.Raw(a))
		}
		if p := o.member(c, "resultPreview", capture.String, false, what); p != capture.NoNode {
			raw := d.Raw(p)
			call.ResultChars = strChars(raw)
			call.TotalChars = call.ResultChars
			if n, ok := truncatedTotal(raw); ok {
				call.TotalChars = n
			}
			// Replacements start with "[" or "R": decode only those.
			if len(raw) > 1 && (raw[1] == '[' || raw[1] == 'R') {
				call.Blocked = overflowText(d.StrPrefix(p, 400))
			}
		}
		call.Blocked = o.boolean(c, "blocked", what) || call.Blocked
		call.IsError = o.boolean(c, "isError", what)
		call.Timestamp = o.millis(c, "timestamp", false, what)
		o.member(c, "index", capture.Number, false, what)
		if o.err != nil {
			return nil, o.err
		}
		r.Calls = append(r.Calls, call)
	}
	return r, nil
}

// providerOf returns the provider of a fully qualified provider/vendor/model
// name, the form the router maps a skill's model: to; "" otherwise.
func providerOf(model string) string {
	parts := strings.Split(strings.TrimSpace(model), "/")
	if len(parts) < 3 || parts[0] == "" {
		return ""
	}
	return parts[0]
}

// overflowText reports a result replaced because it was over an overflow
// ceiling: skillopt's replacement, or the router's request to refine the
// query.
func overflowText(s string) bool {
	return reduce.IsOverflow(s) || strings.HasPrefix(s, "Result too large.")
}

// compactJSON returns a copy of valid JSON without insignificant
// whitespace, so that arguments compare equal however they were indented.
func compactJSON(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	inStr := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inStr {
			out = append(out, c)
			switch c {
			case '\\':
				i++
				if i < len(raw) {
					out = append(out, raw[i])
				}
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inStr = true
		}
		out = append(out, c)
	}
	return out
}

// strChars counts the characters (code points) of a JSON string token
// without decoding it; a surrogate pair written as two \u escapes counts
// once.
func strChars(tok []byte) int {
	if len(tok) < 2 {
		return 0
	}
	b := tok[1 : len(tok)-1]
	n := 0
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 {
			return n + utf8.RuneCount(b)
		}
		n += utf8.RuneCount(b[:i]) + 1
		b = b[i:]
		if len(b) < 6 || b[1] != 'u' {
			b = b[min(2, len(b)):]
			continue
		}
		v, _ := strconv.ParseUint(string(b[2:6]), 16, 32)
		b = b[6:]
		// A high surrogate followed by an escaped low surrogate is one
		// character.
		if v >= 0xD800 && v < 0xDC00 && len(b) >= 6 && b[0] == '\\' && b[1] == 'u' {
			if w, err := strconv.ParseUint(string(b[2:6]), 16, 32); err == nil && w >= 0xDC00 && w < 0xE000 {
				b = b[6:]
			}
		}
	}
}

// truncatedTotal reads the total size from the router's truncation note at
// the end of a result preview: "[...truncated, N total chars]".
func truncatedTotal(tok []byte) (int, bool) {
	const open, closing = "[...truncated, ", " total chars]\""
	if !bytes.HasSuffix(tok, []byte(closing)) {
		return 0, false
	}
	body := tok[:len(tok)-len(closing)]
	i := bytes.LastIndex(body, []byte(open))
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(string(body[i+len(open):]))
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
