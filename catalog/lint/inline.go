package lint

// Inline suppression comments in skill files.
//
// In the markdown body, an HTML comment; in the frontmatter, a YAML
// comment:
//
//	<!-- skillopt: disable=SK043,SK044 -->         from here to the end, or to a matching enable
//	<!-- skillopt: enable=SK043 -->                ends a disable
//	<!-- skillopt: disable-next-line=SK043 -->     the next line only
//	text <!-- skillopt: disable-line=SK043 -->     this line only
//	<!-- skillopt: disable-file=SK030 -->          the whole file, frontmatter included
//	version: 1.0  # skillopt: disable-line=SK030   in the frontmatter
//
// Rule references take every form the configuration takes (ID, ID prefix,
// name, any case); a reason may follow " -- ". Comments inside fenced
// code blocks are text, not directives. A directive that silences nothing
// is reported by SK059.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// inlineDirective is one rule reference of a suppression comment, with
// the lines it covers.
type inlineDirective struct {
	kind      string // disable, disable-line, disable-next-line, disable-file
	ref       string
	line, col int // of the comment
	// from and to are the lines covered (to 0: to the end of the file).
	from, to int
	ids      map[string]bool // rules the reference names; nil when unknown
	err      error           // an unknown reference
	used     bool
}

// inlineUnused is a directive SK059 reports.
type inlineUnused struct {
	file      string
	line, col int
	kind, ref string
	err       error
}

// directiveRe finds a directive after "<!--" or "#".
var directiveRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(<!--|(?:^|[ \t])#)[ \t]*skillopt:[ \t]*(disable-next-line|disable-line|disable-file|disable|enable)[ \t]*=[ \t]*([^\s>][^>]*?)[ \t]*(-->|$)`)
})

// parseInline finds the suppression comments of a skill file.
func parseInline(d *catalog.SkillDoc, notSkill bool) []*inlineDirective {
	if d == nil || !bytes.Contains(d.Raw, []byte("skillopt:")) {
		return nil
	}
	n := d.Lines()
	fmEnd := 0 // the last line of the frontmatter block (the closing ---)
	if d.CloseLine > 0 {
		fmEnd = d.CloseLine
	}
	var out []*inlineDirective
	open := map[string]*inlineDirective{} // disable without enable yet, by reference
	var fence []byte
	for l := 1; l <= n; l++ {
		text := d.Line(l)
		if l > fmEnd {
			// Fenced code blocks of the body hold examples, not
			// directives.
			t := bytes.TrimLeft(text, " ")
			if fence != nil {
				if bytes.HasPrefix(t, fence) && len(bytes.TrimSpace(bytes.TrimLeft(t, string(fence[:1])))) == 0 {
					fence = nil
				}
				continue
			}
			if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
				k := 0
				for k < len(t) && t[k] == t[0] {
					k++
				}
				fence = append([]byte(nil), t[:k]...)
				continue
			}
		}
		if !bytes.Contains(text, []byte("skillopt:")) {
			continue
		}
		inFrontmatter := l > 1 && l < fmEnd
		// The column of a byte offset of the line, counted on from the
		// previous one (matches come in order).
		counted, runes := 0, 0
		column := func(b int) int {
			runes += utf8.RuneCount(text[counted:b])
			counted = b
			return 1 + runes
		}
		for _, m := range directiveRe().FindAllSubmatchIndex(text, -1) {
			opener := string(text[m[2]:m[3]])
			isHTML := opener == "<!--"
			// HTML comments belong to the body, YAML comments to the
			// frontmatter; an HTML comment must be closed.
			if isHTML == inFrontmatter || (isHTML && m[9]-m[8] == 0) {
				continue
			}
			kind := string(text[m[4]:m[5]])
			refs, _, _ := strings.Cut(string(text[m[6]:m[7]]), " -- ")
			at := m[2]
			if !isHTML {
				at += bytes.IndexByte(text[m[2]:], '#')
			}
			col := column(at)
			for _, ref := range strings.Split(refs, ",") {
				ref = strings.TrimSpace(ref)
				if ref == "" {
					continue
				}
				key := strings.ToLower(ref)
				if kind == "enable" {
					if dd := open[key]; dd != nil {
						dd.to = l
						delete(open, key)
					}
					continue
				}
				dd := &inlineDirective{kind: kind, ref: ref, line: l, col: col}
				switch kind {
				case "disable":
					dd.from = l
					open[key] = dd
				case "disable-line":
					dd.from, dd.to = l, l
				case "disable-next-line":
					dd.from, dd.to = l+1, l+1
				case "disable-file":
					dd.from = 1
				}
				out = append(out, dd)
			}
		}
	}
	return out
}

// resolveInline resolves the references of the directives through the
// registry of lint rules.
func resolveInline(ds []*inlineDirective) {
	reg, err := registry()
	for _, dd := range ds {
		if dd.ids != nil || dd.err != nil {
			continue
		}
		if err != nil {
			dd.err = err
			continue
		}
		rs, err := reg.Match(dd.ref)
		if err != nil {
			dd.err = err
			continue
		}
		dd.ids = map[string]bool{}
		for _, r := range rs {
			dd.ids[r.ID] = true
		}
	}
}

// filterInline drops the findings of one file that its directives
// silence, marking the directives used, and returns the rest and how many
// were dropped. The lines each rule is silenced on are merged into spans
// first, so that the cost follows the number of findings and directives
// rather than their product.
func filterInline(ds []*inlineDirective, diags []rules.Diagnostic) ([]rules.Diagnostic, int) {
	resolveInline(ds)
	// The lines of the findings of each rule, in order.
	found := map[string][]int{}
	for _, d := range diags {
		found[d.Rule] = append(found[d.Rule], d.Line)
	}
	silenced := map[string][]lineSpan{}
	for id, lines := range found {
		slices.Sort(lines)
		var spans []lineSpan
		for _, dd := range ds {
			if dd.ids[id] {
				spans = append(spans, dd.span())
			}
		}
		silenced[id] = mergeSpans(spans)
	}
	// A directive is used when a finding of one of its rules is in its
	// lines.
	for _, dd := range ds {
		if dd.used || len(dd.ids) == 0 {
			continue
		}
		sp := dd.span()
		hit := func(id string) bool {
			lines := found[id]
			i, _ := slices.BinarySearch(lines, sp.from)
			return dd.ids[id] && i < len(lines) && lines[i] <= sp.to
		}
		if len(found) < len(dd.ids) {
			for id := range found {
				dd.used = dd.used || hit(id)
			}
		} else {
			for id := range dd.ids {
				dd.used = dd.used || hit(id)
			}
		}
	}
	out := diags[:0:0]
	n := 0
	for _, d := range diags {
		if inSpans(silenced[d.Rule], d.Line) {
			n++
			continue
		}
		out = append(out, d)
	}
	return out, n
}

// lineSpan is the lines from…to.
type lineSpan struct{ from, to int }

func (dd *inlineDirective) span() lineSpan {
	if dd.to == 0 {
		return lineSpan{dd.from, math.MaxInt}
	}
	return lineSpan{dd.from, dd.to}
}

// mergeSpans returns the union of spans as sorted, disjoint spans.
func mergeSpans(spans []lineSpan) []lineSpan {
	slices.SortFunc(spans, func(a, b lineSpan) int { return cmp.Compare(a.from, b.from) })
	var out []lineSpan
	for _, s := range spans {
		if s.to < s.from {
			continue
		}
		if n := len(out); n > 0 && s.from <= out[n-1].to {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// inSpans reports whether line is in one of the sorted, disjoint spans.
func inSpans(spans []lineSpan, line int) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].to >= line })
	return i < len(spans) && spans[i].from <= line
}

// suppressInline drops the findings the inline directives of their files
// silence, counting them in rep, and returns the directives that silenced
// nothing, leaving out those whose rules are all off in this run.
func suppressInline(x *run, inline map[string][]*inlineDirective, diags []rules.Diagnostic, rep *Report) ([]rules.Diagnostic, []inlineUnused) {
	if len(inline) == 0 {
		return diags, nil
	}
	byFile := map[string][]rules.Diagnostic{}
	var order []string
	var rest []rules.Diagnostic
	for _, d := range diags {
		if _, ok := inline[d.File]; ok {
			if _, seen := byFile[d.File]; !seen {
				order = append(order, d.File)
			}
			byFile[d.File] = append(byFile[d.File], d)
			continue
		}
		rest = append(rest, d)
	}
	for _, f := range order {
		kept, n := filterInline(inline[f], byFile[f])
		rep.Suppressed += n
		rest = append(rest, kept...)
	}
	on := x.enabled()
	var unused []inlineUnused
	for file, ds := range inline {
		resolveInline(ds)
		for _, dd := range ds {
			if dd.used {
				continue
			}
			if dd.err == nil {
				anyOn := false
				for id := range dd.ids {
					anyOn = anyOn || on[id]
				}
				if !anyOn {
					continue
				}
			}
			unused = append(unused, inlineUnused{file: file, line: dd.line, col: dd.col, kind: dd.kind, ref: dd.ref, err: dd.err})
		}
	}
	return rest, unused
}

// enabled lists the IDs of the rules that run.
func (x *run) enabled() map[string]bool {
	on := map[string]bool{}
	for _, group := range [][]*active{x.skill, x.agent, x.repo, x.unused} {
		for _, r := range group {
			on[r.ID] = true
		}
	}
	return on
}

// inlineMessage is SK059's message for an inline directive.
func inlineMessage(u inlineUnused) string {
	var ue *rules.UnknownRuleError
	if errors.As(u.err, &ue) {
		msg := fmt.Sprintf("suppression comment names unknown rule %q", ue.Ref)
		if ue.Suggest != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", ue.Suggest)
		}
		return msg
	}
	if u.err != nil {
		return fmt.Sprintf("suppression comment: %v", u.err)
	}
	return fmt.Sprintf("suppression comment %s=%s matched nothing: remove it", u.kind, u.ref)
}
