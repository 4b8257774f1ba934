package schemas

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// leafKind tells how a leaf error is rendered.
type leafKind int

const (
	// kindKeyword is one failing schema keyword.
	kindKeyword leafKind = iota
	// kindTypes merges anyOf branches that all rejected the value's type.
	kindTypes
	// kindValues merges anyOf branches that accepted the type but not the
	// value (enum or const).
	kindValues
)

// leaf is one failure at one instance location of the validated document.
type leaf struct {
	loc     []string // instance location, as unescaped reference tokens
	kind    leafKind
	keyword string // the failing keyword (kindKeyword)
	arg     any    // the keyword's value in the schema (kindKeyword)
	msg     string // the validator's own message, used as a fallback
	types   []string
	values  []any
}

// pathView maps a location in the validated document back to the body as
// given.
type pathView interface {
	original(loc []string) []string
}

// identityView is the view of a body validated as given.
type identityView struct{}

func (identityView) original(loc []string) []string { return loc }

// collect flattens a validation error tree into leaf errors. Where an anyOf
// failed, only the most relevant branch is reported (see pickBranch).
func collect(ve *jsonschema.ValidationError, doc any) []leaf {
	if len(ve.Causes) == 0 {
		return []leaf{newLeaf(ve, doc)}
	}
	if ve.Message == "anyOf failed" || ve.Message == "oneOf failed" {
		return pickBranch(ve, doc)
	}
	var out []leaf
	for _, c := range ve.Causes {
		out = append(out, collect(c, doc)...)
	}
	return out
}

func newLeaf(ve *jsonschema.ValidationError, doc any) leaf {
	l := leaf{loc: splitPointer(ve.InstanceLocation), msg: ve.Message}
	frag := ve.AbsoluteKeywordLocation
	if i := strings.IndexByte(frag, '#'); i >= 0 {
		frag = frag[i+1:]
	} else {
		frag = ""
	}
	kw := splitPointer(frag)
	if ve.Message == "not allowed" {
		l.keyword = "false"
		return l
	}
	if len(kw) > 0 {
		l.keyword = kw[len(kw)-1]
		l.arg, _ = valueAt(doc, kw)
	}
	return l
}

// branchClass sorts failed anyOf branches by how far the value got.
type branchClass int

const (
	branchType  branchClass = iota // the value's type was rejected
	branchValue                    // the type fits, the value is not allowed
	branchDeep                     // the value matched the branch's shape and failed inside
)

// pickBranch reports a failed anyOf. When a branch accepted the value's
// shape and failed further in, that branch's errors are reported (the one
// that got deepest when there are several). Otherwise the alternatives are
// merged into one error listing the allowed values or types.
func pickBranch(ve *jsonschema.ValidationError, doc any) []leaf {
	base := splitPointer(ve.InstanceLocation)
	var (
		best      []leaf
		bestDepth = -1
		values    []any
		types     []string
		anyValue  bool
	)
	for _, cause := range ve.Causes {
		ls := collect(cause, doc)
		switch classify(ls, base) {
		case branchDeep:
			depth := 0
			for _, l := range ls {
				if len(l.loc) > depth {
					depth = len(l.loc)
				}
			}
			if depth > bestDepth || (depth == bestDepth && len(ls) < len(best)) {
				best, bestDepth = ls, depth
			}
		case branchValue:
			anyValue = true
			for _, l := range ls {
				switch l.keyword {
				case "enum":
					if a, ok := l.arg.([]any); ok {
						values = append(values, a...)
					}
				case "const":
					values = append(values, l.arg)
				}
			}
		case branchType:
			for _, l := range ls {
				types = append(types, schemaTypes(l.arg)...)
			}
		}
	}
	switch {
	case best != nil:
		return best
	case anyValue:
		return []leaf{{loc: base, kind: kindValues, values: values}}
	default:
		return []leaf{{loc: base, kind: kindTypes, types: types}}
	}
}

func classify(ls []leaf, base []string) branchClass {
	class := branchType
	for _, l := range ls {
		if l.kind != kindKeyword || !samePath(l.loc, base) {
			return branchDeep
		}
		switch l.keyword {
		case "type":
		case "enum", "const":
			class = branchValue
		default:
			return branchDeep
		}
	}
	return class
}

// render turns a leaf into Errors whose pointers refer to the body as given.
func render(l leaf, root any, view pathView) []Error {
	val, _ := valueAt(root, l.loc)
	orig := view.original(l.loc)
	ptr := formatPointer(orig)
	subj := subject(orig)
	one := func(format string, a ...any) []Error {
		return []Error{{Pointer: ptr, Message: fmt.Sprintf(format, a...)}}
	}
	switch l.kind {
	case kindTypes:
		return one("%s must be %s, got %s", subj, joinTypes(l.types), describe(val))
	case kindValues:
		return one("%s %s is not one of %s", subj, formatValue(val), joinValues(l.values))
	}
	switch l.keyword {
	case "type":
		return one("%s must be %s, got %s", subj, joinTypes(schemaTypes(l.arg)), describe(val))
	case "required":
		obj, _ := val.(map[string]any)
		names, _ := l.arg.([]any)
		var out []Error
		for _, n := range names {
			s, _ := n.(string)
			if _, ok := obj[s]; !ok {
				out = append(out, Error{Pointer: ptr, Message: fmt.Sprintf("missing required property %q", s)})
			}
		}
		if len(out) > 0 {
			return out
		}
	case "enum":
		values, _ := l.arg.([]any)
		return one("%s %s is not one of %s", subj, formatValue(val), joinValues(values))
	case "const":
		return one("%s must be %s, got %s", subj, formatValue(l.arg), formatValue(val))
	case "minimum":
		return one("%s must be >= %v, got %s", subj, l.arg, formatValue(val))
	case "maximum":
		return one("%s must be <= %v, got %s", subj, l.arg, formatValue(val))
	case "exclusiveMinimum":
		return one("%s must be > %v, got %s", subj, l.arg, formatValue(val))
	case "exclusiveMaximum":
		return one("%s must be < %v, got %s", subj, l.arg, formatValue(val))
	case "minLength":
		return one("%s must be at least %v characters long", subj, l.arg)
	case "maxLength":
		return one("%s must be at most %v characters long", subj, l.arg)
	case "minItems":
		return one("%s must have at least %v items", subj, l.arg)
	case "maxItems":
		return one("%s must have at most %v items", subj, l.arg)
	case "minProperties":
		return one("%s must have at least %v properties", subj, l.arg)
	case "maxProperties":
		return one("%s must have at most %v properties", subj, l.arg)
	case "pattern":
		return one("%s %s does not match pattern %v", subj, formatValue(val), l.arg)
	case "false":
		return one("%s is not allowed", subj)
	case "not":
		return one("%s is not allowed here", subj)
	}
	return one("%s: %s", subj, strings.ToLower(l.msg))
}

// finish removes duplicates and sorts by pointer (token by token, indexes
// numerically), then by message.
func finish(errs []Error) []Error {
	out := make([]Error, 0, len(errs))
	seen := make(map[Error]bool, len(errs))
	for _, e := range errs {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if c := comparePointers(out[i].Pointer, out[j].Pointer); c != 0 {
			return c < 0
		}
		return out[i].Message < out[j].Message
	})
	return out
}

func comparePointers(a, b string) int {
	if a == b {
		return 0
	}
	ta, tb := splitRaw(a), splitRaw(b)
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		na, ea := strconv.Atoi(ta[i])
		nb, eb := strconv.Atoi(tb[i])
		switch {
		case ea == nil && eb == nil:
			if na < nb {
				return -1
			}
			return 1
		case ta[i] < tb[i]:
			return -1
		default:
			return 1
		}
	}
	return len(ta) - len(tb)
}

func splitRaw(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

// splitPointer splits a pointer produced by the validator, whose tokens are
// also URL-path-escaped, into unescaped reference tokens.
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		t = strings.ReplaceAll(t, "~1", "/")
		parts[i] = strings.ReplaceAll(t, "~0", "~")
	}
	return parts
}

// formatPointer builds an RFC 6901 pointer from reference tokens.
func formatPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// valueAt returns the value at the location given by reference tokens.
func valueAt(v any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[t]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func samePath(a, b []string) bool {
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

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_$@.-]+$`)

// subject names the value at a location: its key, an index after its
// parent's name, or "body" for the root.
func subject(tokens []string) string {
	if len(tokens) == 0 {
		return "body"
	}
	t := tokens[len(tokens)-1]
	if isIndex(t) {
		return subject(tokens[:len(tokens)-1]) + "[" + t + "]"
	}
	if plainKey.MatchString(t) {
		return t
	}
	return strconv.Quote(t)
}

func schemaTypes(arg any) []string {
	switch t := arg.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func joinTypes(types []string) string {
	seen := make(map[string]bool, len(types))
	var uniq []string
	for _, t := range types {
		if !seen[t] {
			seen[t] = true
			uniq = append(uniq, t)
		}
	}
	return strings.Join(uniq, " or ")
}

func joinValues(values []any) string {
	seen := make(map[string]bool, len(values))
	var parts []string
	for _, v := range values {
		var s string
		if str, ok := v.(string); ok {
			s = str
		} else {
			s = formatValue(v)
		}
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// describe names a value's type, with the value itself for scalars.
func describe(v any) string {
	switch v.(type) {
	case nil, map[string]any, []any:
		return jsonType(v)
	}
	return jsonType(v) + " " + formatValue(v)
}

// formatValue renders a value briefly: strings quoted and shortened,
// containers abbreviated.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if utf8.RuneCountInString(x) > 48 {
			r := []rune(x)
			x = string(r[:45]) + "…"
		}
		return strconv.Quote(x)
	case map[string]any:
		return "{…}"
	case []any:
		return "[…]"
	}
	return fmt.Sprint(v)
}
