package catalog

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker opens every block skillopt writes in place of a native catalog.
const Marker = "<!--skill-optimizer:auto:v2-->"

// Resolver is the line that tells the model how to reach skills.
const Resolver = "<skill_resolver>Use skill_search to search, load, inspect resources, or request a location.</skill_resolver>"

const (
	indexOpen  = `<skill_index format="tsv" columns="name,intent">`
	indexClose = "</skill_index>"
	// maxIntentChars bounds one routing phrase.
	maxIntentChars = 64
)

// intentPrefixes are openings that carry no routing signal.
var intentPrefixes = []string{
	"when the user asks to ", "when the user wants to ", "when the user asks for ", "the user asks to ", "the user wants to ",
	"when the user ", "when you need to ", "when you want to ", "you need to ",
	"use this skill when ", "use this skill to ", "use this skill for ", "use this when ", "use when ", "use to ", "use for ",
	"this skill should be used when ", "this skill ", "a skill that ", "a skill to ", "a skill for ", "skill for ",
	"helps you ", "helps ", "provides ", "guide for ", "guidance for ",
}

// Intent derives a short routing phrase from a skill description: its first
// sentence without boilerplate openings, cut at the first clause break and
// at a word boundary within 64 characters.
func Intent(desc string) string { return intent(desc) }

func intent(desc string) string {
	s := firstSentence(desc)
	for changed := true; changed; {
		changed = false
		// Only the start of s can match a prefix: lower that much.
		low := strings.ToLower(s[:runeBoundary(s, 3*maxPrefixLen)])
		for _, p := range intentPrefixes {
			if strings.HasPrefix(low, p) && len(s) > len(p)+8 {
				s = s[len(p):]
				changed = true
				break
			}
		}
	}
	for _, sep := range []string{"; ", " — ", " – ", " - ", ": ", " (", ", including ", ", such as ", ". "} {
		if i := strings.Index(s, sep); i >= 12 {
			s = s[:i]
		}
	}
	if utf8.RuneCountInString(s) > maxIntentChars {
		s = shorten(s, maxIntentChars)
	}
	// Never end on a word that needs a continuation.
	for {
		i := strings.LastIndexByte(s, ' ')
		if i < 0 || !danglingWord(strings.ToLower(strings.TrimRight(s[i+1:], ",;:"))) {
			break
		}
		s = s[:i]
	}
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	if r, size := utf8.DecodeRuneInString(s); size > 0 && unicode.IsUpper(r) {
		// Keep acronyms (PDF, API) as written; lower a capitalised word.
		if r2, _ := utf8.DecodeRuneInString(s[size:]); !unicode.IsUpper(r2) {
			s = string(unicode.ToLower(r)) + s[size:]
		}
	}
	return s
}

// danglingWord reports whether w cannot end a phrase.
func danglingWord(w string) bool {
	switch w {
	case "a", "an", "and", "or", "the", "of", "to", "for", "from", "with", "in", "on", "by", "into", "as", "at", "via":
		return true
	}
	return false
}

// shorten cuts s to at most max characters: at the last clause break
// (", ", " and ", " with ", " from ", " for ") past 36 characters if there
// is one, else at the last space, else hard.
func shorten(s string, max int) string {
	limit := len(s)
	n := 0
	for i := range s {
		if n == max {
			limit = i
			break
		}
		n++
	}
	head := s[:limit]
	best := -1
	for _, b := range []string{", ", " and ", " with ", " from ", " for ", " using ", " in "} {
		if i := strings.LastIndex(head, b); i >= 36 && i > best {
			best = i
		}
	}
	if best > 0 {
		return head[:best]
	}
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		return head[:i]
	}
	return head
}

func sentenceEnd(s string) int {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			// Not an abbreviation such as "e.g. " or "i.e. ".
			if i >= 3 && s[i-2] == '.' {
				continue
			}
			return i
		}
	}
	return -1
}

// firstSentence returns desc with white space runs as single spaces, cut
// before the end of its first sentence: strings.Fields joined by spaces,
// then cut at sentenceEnd, in one pass that stops at that end.
func firstSentence(desc string) string {
	b := make([]byte, 0, min(len(desc), 256))
	space, cut := false, true
	for i := 0; i < len(desc); {
		var (
			r    rune
			size int
		)
		if c := desc[i]; c < utf8.RuneSelf {
			r, size = rune(c), 1
		} else {
			r, size = utf8.DecodeRuneInString(desc[i:])
		}
		if unicode.IsSpace(r) {
			space = len(b) > 0
			i += size
			continue
		}
		if space {
			// A sentence ends at . ! or ? followed by a space, unless it
			// is an abbreviation such as "e.g."; one that ends at the very
			// start leaves the text whole.
			if n := len(b); cut {
				if c := b[n-1]; (c == '.' || c == '!' || c == '?') && !(n-1 >= 3 && b[n-3] == '.') {
					if n-1 > 0 {
						return string(b[:n-1])
					}
					cut = false
				}
			}
			b = append(b, ' ')
			space = false
		}
		b = append(b, desc[i:i+size]...)
		i += size
	}
	return string(b)
}

// maxPrefixLen is the length of the longest intent prefix.
var maxPrefixLen = func() int {
	n := 0
	for _, p := range intentPrefixes {
		n = max(n, len(p))
	}
	return n
}()

// runeBoundary returns the largest rune boundary of s at or below n.
func runeBoundary(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// cell makes a value safe for one TSV cell inside an XML-like block.
func cell(s string) string {
	if !strings.ContainsAny(s, "\t\n\r&<>") {
		return s // nearly every name and intent: nothing to replace
	}
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	return xmlEscape(s)
}

// CompactBlocks is Compact without its figures.
func CompactBlocks(groups [][]Skill, budget int) []string {
	blocks, _ := Compact(groups, budget)
	return blocks
}

// CompactStats counts the intents of a compact index: the skills whose
// description gives one, and those the budget let in. NamesOnly says the
// names alone (Floor characters with the index's frame) leave no room for
// any intent, which are then not derived (Intents is 0).
type CompactStats struct {
	Intents, Kept int
	NamesOnly     bool
	Floor         int
}

// Compact renders the compact index of each catalog (groups[i] are
// the eligible skills of catalog i in source order). All catalogs share one
// soft character budget: every name is always listed; intents are admitted
// cheapest first (ties in source order) while the total stays within
// budget. The first block carries the marker and the resolver line.
func Compact(groups [][]Skill, budget int) ([]string, CompactStats) {
	var stats CompactStats
	type cand struct {
		g, i, cost, order int
		text              string
	}
	names := make([][]string, len(groups))
	floor := utf8.RuneCountInString(Marker) + 1 + utf8.RuneCountInString(Resolver)
	var cands []cand
	order := 0
	for g, skills := range groups {
		floor += utf8.RuneCountInString(indexOpen) + 1 + utf8.RuneCountInString(indexClose) + 1
		names[g] = make([]string, len(skills))
		for i, sk := range skills {
			names[g][i] = cell(sk.Name)
			floor += utf8.RuneCountInString(names[g][i]) + 1
		}
	}
	// An intent costs at least two characters (a tab and one more): when
	// the names leave less, none is derived.
	stats.Floor = floor
	if stats.NamesOnly = budget-floor < 2; !stats.NamesOnly {
		for g, skills := range groups {
			for i, sk := range skills {
				if in := cell(Intent(sk.Description)); in != "" {
					cands = append(cands, cand{g: g, i: i, cost: 1 + utf8.RuneCountInString(in), order: order, text: in})
				}
				order++
			}
		}
	}
	// Cheapest first, in catalog order among equals (orders are unique).
	slices.SortFunc(cands, func(a, b cand) int {
		if a.cost != b.cost {
			return a.cost - b.cost
		}
		return a.order - b.order
	})
	intents := make([][]string, len(groups))
	for g := range groups {
		intents[g] = make([]string, len(groups[g]))
	}
	left := budget - floor
	for _, c := range cands {
		if c.cost > left {
			break
		}
		intents[c.g][c.i] = c.text
		left -= c.cost
		stats.Kept++
	}
	stats.Intents = len(cands)
	out := make([]string, len(groups))
	for g := range groups {
		var b strings.Builder
		if g == 0 {
			b.WriteString(Marker)
			b.WriteByte('\n')
		}
		b.WriteString(indexOpen)
		b.WriteByte('\n')
		for i, n := range names[g] {
			b.WriteString(n)
			if intents[g][i] != "" {
				b.WriteByte('\t')
				b.WriteString(intents[g][i])
			}
			b.WriteByte('\n')
		}
		b.WriteString(indexClose)
		if g == 0 {
			b.WriteByte('\n')
			b.WriteString(Resolver)
		}
		out[g] = b.String()
	}
	return out, stats
}
