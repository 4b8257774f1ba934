package schemas

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
)

// leafKind tells how a leaf failure is rendered.
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

// leaf is one failure at one location of the validated view.
type leaf struct {
	at      loc
	kind    leafKind
	keyword string // the failing keyword (kindKeyword)
	arg     any    // what the keyword asked for (kindKeyword)
	types   []string
	values  []any
}

// branchClass sorts failed anyOf branches by how far the value got.
type branchClass int

const (
	branchType  branchClass = iota // the value's type was rejected
	branchValue                    // the type fits, the value is not allowed
	branchDeep                     // the value matched the branch's shape and failed inside
)

// pickBranch reports a failed anyOf (or a oneOf that nothing matched). When
// a branch accepted the value's shape and failed further in, that branch's
// failures are reported (the one that got deepest when there are several).
// Otherwise the alternatives are merged into one failure listing the
// allowed values or types.
func (e *evaluator) pickBranch(branches [][]leaf, base loc) []leaf {
	// Alternatives whose "type" or "role" the value does not have are not
	// what the value meant when others are.
	if kept := e.keepMatching(branches, base); len(kept) > 0 {
		branches = kept
	}
	var (
		best      []leaf
		bestDepth = -1
		values    []any
		types     []string
		anyValue  bool
	)
	for _, ls := range branches {
		switch classify(ls, base) {
		case branchDeep:
			depth := 0
			for _, l := range ls {
				depth = max(depth, e.depth(l.at))
			}
			if depth > bestDepth || (depth == bestDepth && len(ls) < len(best)) {
				best, bestDepth = ls, depth
			}
		case branchValue:
			anyValue = true
			for _, l := range ls {
				switch l.keyword {
				case "enum":
					values = append(values, l.arg.([]any)...)
				case "const":
					values = append(values, l.arg)
				}
			}
		case branchType:
			for _, l := range ls {
				types = append(types, l.arg.([]string)...)
			}
		}
	}
	switch {
	case best != nil:
		return best
	case anyValue:
		return []leaf{{at: base, kind: kindValues, values: values}}
	default:
		return []leaf{{at: base, kind: kindTypes, types: types}}
	}
}

// keepMatching returns the branches without a failing const or enum at a
// "type" or "role" member of the value at base (or one that does not allow
// the member at all), when some have one (nil otherwise).
func (e *evaluator) keepMatching(branches [][]leaf, base loc) [][]leaf {
	if base.elem {
		return nil
	}
	var kept [][]leaf
	for _, ls := range branches {
		if !e.mismatch(ls, base) && classify(ls, base) != branchType {
			kept = append(kept, ls)
		}
	}
	if len(kept) == len(branches) {
		return nil
	}
	return kept
}

func (e *evaluator) mismatch(ls []leaf, base loc) bool {
	d := e.d
	for _, l := range ls {
		if l.at.elem || l.at.node == base.node || d.ParentOf(l.at.node) != base.node {
			continue
		}
		if l.kind == kindValues || l.keyword == "const" || l.keyword == "enum" || l.keyword == "additionalProperties" {
			if k := d.Key(l.at.node); k == "type" || k == "role" {
				return true
			}
		}
	}
	return false
}

func classify(ls []leaf, base loc) branchClass {
	class := branchType
	for _, l := range ls {
		if l.kind != kindKeyword || l.at != base {
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

// depth counts the reference tokens of a location in the view.
func (e *evaluator) depth(l loc) int {
	n := len(e.d.Ancestors(l.node))
	if l.elem {
		n++
	}
	return n
}

// render turns a leaf into Errors whose pointers refer to the body as given.
func (e *evaluator) render(l leaf) []Error {
	ptr := e.d.Pointer(l.at.node)
	out := Error{Pointer: ptr, Offset: int(e.d.Nodes[l.at.node].Start)}
	switch l.keyword {
	case "required":
		out.Missing, _ = l.arg.(string)
	case "additionalProperties":
		// An unknown member is reported at its key, not its value.
		out.Unknown = true
		if ks, _ := e.d.KeySpan(l.at.node); ks >= 0 {
			out.Offset = ks
		}
	}
	subj := subject(unescapeTokens(splitRaw(ptr)))
	out.Message = e.message(l, subj, vnode{i: l.at.node, elem: l.at.elem})
	return []Error{out}
}

// message words a leaf's failure; subj names the failing value and node is
// the value itself. The keywords are worded by family: those that judge the
// value, those that count its parts, and the rest (members, items and
// combinators).
func (e *evaluator) message(l leaf, subj string, node vnode) string {
	switch l.kind {
	case kindTypes:
		return fmt.Sprintf("%s must be %s, got %s", subj, joinTypes(l.types), e.describe(node))
	case kindValues:
		return fmt.Sprintf("%s %s is not one of %s", subj, e.format(node), joinValues(l.values))
	}
	if m, ok := e.valueMessage(l, subj, node); ok {
		return m
	}
	if m, ok := sizeMessage(l, subj); ok {
		return m
	}
	return e.structureMessage(l, subj)
}

// valueMessage words the failures that show the value itself: its type,
// the values allowed, the numeric bounds and the pattern. ok is false for a
// keyword of another family.
func (e *evaluator) valueMessage(l leaf, subj string, node vnode) (msg string, ok bool) {
	var format string
	switch l.keyword {
	case "type":
		return fmt.Sprintf("%s must be %s, got %s", subj, joinTypes(l.arg.([]string)), e.describe(node)), true
	case "enum":
		return fmt.Sprintf("%s %s is not one of %s", subj, e.format(node), joinValues(l.arg.([]any))), true
	case "const":
		return fmt.Sprintf("%s must be %s, got %s", subj, formatValue(l.arg), e.format(node)), true
	case "pattern":
		if l.arg == `\S` {
			return fmt.Sprintf("%s must contain non-whitespace text", subj), true
		}
		return fmt.Sprintf("%s %s does not match pattern %v", subj, e.format(node), l.arg), true
	case "minimum":
		format = "%s must be >= %v, got %s"
	case "maximum":
		format = "%s must be <= %v, got %s"
	case "exclusiveMinimum":
		format = "%s must be > %v, got %s"
	case "exclusiveMaximum":
		format = "%s must be < %v, got %s"
	case "multipleOf":
		format = "%s must be a multiple of %v, got %s"
	default:
		return "", false
	}
	return fmt.Sprintf(format, subj, l.arg, e.format(node)), true
}

// sizeMessage words the failures of a count: a string's length, an array's
// items, an object's members. ok is false for a keyword of another family.
func sizeMessage(l leaf, subj string) (msg string, ok bool) {
	switch l.keyword {
	case "minLength":
		return fmt.Sprintf("%s must be at least %s long", subj, characters(l.arg)), true
	case "maxLength":
		return fmt.Sprintf("%s must be at most %s long", subj, characters(l.arg)), true
	case "minItems":
		return fmt.Sprintf("%s must have at least %v items", subj, l.arg), true
	case "maxItems":
		return fmt.Sprintf("%s must have at most %v items", subj, l.arg), true
	case "minProperties":
		return fmt.Sprintf("%s must have at least %v properties", subj, l.arg), true
	case "maxProperties":
		return fmt.Sprintf("%s must have at most %v properties", subj, l.arg), true
	}
	return "", false
}

// structureMessage words the remaining failures: missing and unknown
// members, member names (propertyNames, at the member), items, the
// combinators, and the false schema.
func (e *evaluator) structureMessage(l leaf, subj string) string {
	switch l.keyword {
	case "required":
		return fmt.Sprintf("missing required property %q", l.arg)
	case "additionalProperties":
		// The key as given (a Gemini key is looked up in lowerCamelCase).
		return fmt.Sprintf("unknown property %q", e.d.Key(l.at.node))
	case "keyMinLength":
		return fmt.Sprintf("property name %s must be at least %s long", formatValue(e.d.Key(l.at.node)), characters(l.arg))
	case "keyMaxLength":
		return fmt.Sprintf("property name %s must be at most %s long", formatValue(e.d.Key(l.at.node)), characters(l.arg))
	case "keyPattern":
		return fmt.Sprintf("property name %s does not match pattern %v", formatValue(e.d.Key(l.at.node)), l.arg)
	case "uniqueItems":
		return fmt.Sprintf("%s repeats an earlier item", subj)
	case "contains":
		return fmt.Sprintf("%s has no item of the required kind", subj)
	case "oneOf":
		return fmt.Sprintf("%s matches more than one alternative", subj)
	case "not":
		return fmt.Sprintf("%s is not allowed here", subj)
	}
	return fmt.Sprintf("%s is not allowed", subj) // "false"
}

func characters(n any) string {
	if n == 1 {
		return "1 character"
	}
	return fmt.Sprintf("%v characters", n)
}

// describe names a value's type, with the value itself for scalars.
func (e *evaluator) describe(v vnode) string {
	switch kind := e.kind(v); kind {
	case capture.Null, capture.Object, capture.Array:
		return kind.String()
	default:
		return kind.String() + " " + e.format(v)
	}
}

// format renders a value briefly: strings quoted and shortened, long
// numbers abbreviated, containers elided.
func (e *evaluator) format(v vnode) string {
	d := e.d
	switch kind := e.kind(v); kind {
	case capture.Null:
		return "null"
	case capture.True:
		return "true"
	case capture.False:
		return "false"
	case capture.Object:
		return "{…}"
	case capture.Array:
		return "[…]"
	case capture.Number:
		raw := d.Raw(v.i)
		if len(raw) > 40 {
			return fmt.Sprintf("%s… (%d characters)", raw[:24], len(raw))
		}
		return string(raw)
	}
	return formatValue(d.StrPrefix(v.i, 4*49))
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

// unescapeTokens decodes RFC 6901 reference tokens in place.
func unescapeTokens(tokens []string) []string {
	for i, t := range tokens {
		if strings.IndexByte(t, '~') >= 0 {
			tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
	}
	return tokens
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

var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_$@.-]+$`) })

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
	if plainKey().MatchString(t) {
		return t
	}
	return strconv.Quote(t)
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

// listBudget is about how many characters of allowed values a message
// lists before it says how many more there are.
const listBudget = 110

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
	n, size := 0, 0
	for n < len(parts) && (n < 2 || size+len(parts[n]) <= listBudget) {
		size += len(parts[n]) + 2
		n++
	}
	if n < len(parts) {
		return strings.Join(parts[:n], ", ") + fmt.Sprintf(" … (%d more)", len(parts)-n)
	}
	return strings.Join(parts, ", ")
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
