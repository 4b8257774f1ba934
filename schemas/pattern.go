package schemas

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// pattern is a regular expression of a schema, compiled on first use: a
// provider's schema holds hundreds of them and a request reaches a few, so
// compiling them all would be most of compiling the schema.
type pattern struct {
	expr  string
	once  sync.Once
	match func(string) bool
}

// MatchString reports whether s matches the expression.
func (p *pattern) MatchString(s string) bool {
	p.once.Do(func() {
		if m, ok := compileClassRun(p.expr); ok {
			p.match = m.matchString
			return
		}
		p.match = regexp.MustCompile(p.expr).MatchString // parsed by the compiler
	})
	return p.match(s)
}

// String is the expression as the schema writes it.
func (p *pattern) String() string { return p.expr }

// classRun is a match for the expressions schemas write for names and
// identifiers, `^prefix[class]{min,max}$` (+, * and ? too, the prefix
// optional): compiling such an expression with package regexp costs a
// tenth of a millisecond for a bound of 128, paid by every process that
// checks a tool name, and the match is a loop over the runes.
type classRun struct {
	prefix   string
	ranges   []rune // of the class: lo, hi pairs, as regexp/syntax gives them
	min, max int    // max -1: no bound
}

// compileClassRun returns the classRun of expr, or false when expr is not
// of that shape.
func compileClassRun(expr string) (*classRun, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 3 {
		return nil, false
	}
	subs := re.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil, false
	}
	mid := subs[1 : len(subs)-1]
	m := &classRun{}
	if len(mid) == 2 {
		if mid[0].Op != syntax.OpLiteral || mid[0].Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		m.prefix = string(mid[0].Rune)
		mid = mid[1:]
	}
	if len(mid) != 1 {
		return nil, false
	}
	rep := mid[0]
	switch rep.Op {
	case syntax.OpPlus:
		m.min, m.max = 1, -1
	case syntax.OpStar:
		m.min, m.max = 0, -1
	case syntax.OpQuest:
		m.min, m.max = 0, 1
	case syntax.OpRepeat:
		m.min, m.max = rep.Min, rep.Max
	default:
		return nil, false
	}
	if len(rep.Sub) != 1 || rep.Sub[0].Op != syntax.OpCharClass {
		return nil, false
	}
	m.ranges = rep.Sub[0].Rune
	return m, true
}

// matchString reports whether s is the prefix and then between min and
// max runes of the class. A byte that is not UTF-8 reads as U+FFFD, as
// package regexp reads it.
func (m *classRun) matchString(s string) bool {
	rest, ok := strings.CutPrefix(s, m.prefix)
	if !ok {
		return false
	}
	n := 0
	for _, r := range rest {
		if n++; m.max >= 0 && n > m.max || !m.in(r) {
			return false
		}
	}
	return n >= m.min
}

// in reports whether r is in the class.
func (m *classRun) in(r rune) bool {
	for i := 0; i+1 < len(m.ranges); i += 2 {
		if r >= m.ranges[i] && r <= m.ranges[i+1] {
			return true
		}
	}
	return false
}
