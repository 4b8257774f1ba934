package output

import (
	"crypto/sha256"
	"path"
	"strings"
	"sync"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
)

// skillFiles recognises tool results that are skill files the model loaded:
// the call that produced the result names a SKILL.md, or a file inside the
// folder of a skill the request's catalog lists. (Results of skill_search,
// which loads skills by name, are exempt by the tool's name.)
type skillFiles struct {
	cat  *capture.Capture  // where the catalog is read from, when first needed
	dirs []string          // folders of the catalogued skills, each ending in "/"
	read bool              // dirs has been read
	args map[string]string // call ID → the text of its arguments
	// gemini maps a functionResponse part to the arguments of the
	// functionCall it answers (Gemini calls carry no IDs).
	gemini map[capture.Node]string
}

func newSkillFiles(c, cat *capture.Capture) *skillFiles {
	s := &skillFiles{cat: cat, args: callArgs(c)}
	if c.Provider == capture.Gemini {
		s.gemini = geminiCallArgs(c)
	}
	return s
}

// loaded reports whether result unit n answers a call that read a skill
// file.
func (s *skillFiles) loaded(c *capture.Capture, n capture.Node) bool {
	d := c.Doc
	var args string
	switch c.Provider {
	case capture.Anthropic:
		args = s.args[d.GetStr(n, "tool_use_id")]
	case capture.OpenAIChat, capture.Mistral:
		args = s.args[d.GetStr(n, "tool_call_id")]
	case capture.OpenAIResponses:
		args = s.args[d.GetStr(n, "call_id")]
	case capture.PiMessages:
		args = s.args[d.GetStr(n, "toolCallId")]
	case capture.Gemini:
		args = s.gemini[n]
	}
	return args != "" && s.names(args)
}

// names reports whether call arguments name a skill file: a path whose
// base name is SKILL.md, or a path inside a catalogued skill's folder.
func (s *skillFiles) names(args string) bool {
	a := strings.ReplaceAll(args, "\\/", "/")
	lower := strings.ToLower(a)
	for i := strings.Index(lower, "skill.md"); i >= 0; {
		before := byte('/')
		if i > 0 {
			before = lower[i-1]
		}
		after := byte(0)
		if j := i + len("skill.md"); j < len(lower) {
			after = lower[j]
		}
		if (before == '/' || before == '\\' || before == '"' || before == ' ' || before == '\'' || i == 0) && !isNameByte(after) {
			return true
		}
		k := strings.Index(lower[i+1:], "skill.md")
		if k < 0 {
			break
		}
		i += 1 + k
	}
	if !strings.Contains(a, "/") {
		return false
	}
	if !s.read {
		s.dirs, s.read = skillDirs(s.cat), true
	}
	for _, dir := range s.dirs {
		if strings.Contains(a, dir) {
			return true
		}
	}
	return false
}

// skillDirs returns the folders of the skills a capture's catalogs list.
// A conversation carries the same catalog on every request, and several
// rules ask on each, so the answer is kept by the catalog's bytes.
func skillDirs(c *capture.Capture) []string {
	h := sha256.New()
	n := 0
	c.WriteCatalog(func(b []byte) { h.Write(b); n += len(b) })
	if n == 0 {
		return nil
	}
	var key [32]byte
	copy(key[:], h.Sum(nil))
	dirCache.Lock()
	dirs, ok := dirCache.m[key]
	dirCache.Unlock()
	if ok {
		return dirs
	}
	for _, sk := range catalog.ParsePiCatalogs(c.CatalogTexts()...) {
		loc := strings.ReplaceAll(sk.Location, "\\", "/")
		if dir := path.Dir(loc); strings.HasSuffix(strings.ToLower(loc), "/skill.md") && dir != "/" && dir != "." {
			dirs = append(dirs, dir+"/")
		}
	}
	dirCache.Lock()
	defer dirCache.Unlock()
	if len(dirCache.m) >= 16 {
		clear(dirCache.m)
	}
	dirCache.m[key] = dirs
	return dirs
}

var dirCache = struct {
	sync.Mutex
	m map[[32]byte][]string
}{m: map[[32]byte][]string{}}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.'
}

// callArgs maps tool-call IDs to the decoded text of the call's arguments
// (all their strings, or the JSON text of arguments sent as a string).
func callArgs(c *capture.Capture) map[string]string {
	return byCallID(c, func(d *capture.Doc, call capture.Node, fn capture.Node) (string, bool) {
		args := d.GetAny(call, "input", "arguments", "args")
		if args == capture.NoNode && fn != capture.NoNode {
			args = d.GetAny(fn, "arguments", "args")
		}
		if args == capture.NoNode {
			return "", false
		}
		return stringsOf(d, args), true
	})
}

// stringsOf joins the decoded strings of a value, one per line.
func stringsOf(d *capture.Doc, n capture.Node) string {
	if d.Kind(n) == capture.String {
		return d.Str(n)
	}
	var b strings.Builder
	for i := range d.Walk(n) {
		if d.Kind(i) == capture.String {
			b.WriteString(d.Str(i))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// geminiCallArgs pairs each functionResponse part with the functionCall of
// the same name in the model turn before it, in order.
func geminiCallArgs(c *capture.Capture) map[capture.Node]string {
	d := c.Doc
	out := map[capture.Node]string{}
	root := capture.Node(0)
	if r := d.Get(0, "request"); d.Kind(r) == capture.Object && d.Get(0, "contents") == capture.NoNode {
		root = r
	}
	var pending []capture.Node // functionCall nodes of the latest model turn
	for content := range d.Children(d.Get(root, "contents")) {
		var calls []capture.Node
		for part := range d.Children(d.Get(content, "parts")) {
			if fc := d.GetAny(part, "functionCall", "function_call"); fc != capture.NoNode {
				calls = append(calls, fc)
			}
			fr := d.GetAny(part, "functionResponse", "function_response")
			if fr == capture.NoNode {
				continue
			}
			name := d.GetStr(fr, "name")
			for k, fc := range pending {
				if fc != capture.NoNode && d.GetStr(fc, "name") == name {
					if args := d.Get(fc, "args"); args != capture.NoNode {
						out[part] = stringsOf(d, args)
					}
					pending[k] = capture.NoNode
					break
				}
			}
		}
		if len(calls) > 0 {
			pending = calls
		}
	}
	return out
}
