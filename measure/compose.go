package measure

import (
	"sort"

	"github.com/skillopt/skillopt/capture"
)

// The context composition of the cached prefix: of the tokens a turn read
// from the cache, how many were system prompt, skill catalog, tool
// declarations, conversation and tool results (the sections measure
// counts), where the request is known.

// PrefixSections shares out the cache read of one turn, or of every
// turn whose request is known, among the sections of the prompt.
type PrefixSections struct {
	// Turns counts the turns summed (1 for a turn).
	Turns int `json:"turns"`
	// Read is the tokens read from the cache (the cache account's);
	// Sections share it out, largest first, in the proportions of the
	// counted prompt through the cached prefix.
	Read     int             `json:"read"`
	Sections []SectionTokens `json:"sections"`
}

// SectionTokens is one section's tokens.
type SectionTokens struct {
	Kind   string `json:"kind"`
	Tokens int    `json:"tokens"`
}

// blockSections counts the tokens of each section in block i of l, in
// the order of capture.Sections, summing to the block's count. Blocks
// are counted once by identity.
func (tc *tokenCache) blockSections(l *layout, i int) []int {
	b := &l.blocks[i]
	if got, ok := tc.sections[b.hash]; ok {
		return got
	}
	var texts []string
	var kinds []int
	l.parts(i, b.End, func(kind capture.Section, text string, raw []byte) {
		if raw != nil {
			text = string(raw)
		}
		if text == "" {
			return
		}
		texts = append(texts, text)
		kinds = append(kinds, sectionIndex(kind))
	})
	raw := make([]int, len(capture.Sections))
	if len(texts) > 0 {
		for k, n := range tc.counter.CountAll(texts) {
			raw[kinds[k]] += n
		}
	}
	out := shareOut(raw, b.tokens)
	if tc.sections == nil {
		tc.sections = map[[32]byte][]int{}
	}
	tc.sections[b.hash] = out
	return out
}

func sectionIndex(k capture.Section) int {
	for i, s := range capture.Sections {
		if s == k {
			return i
		}
	}
	return len(capture.Sections) - 1 // other
}

// shareOut scales counts to sum to total, by largest remainder; counts
// that sum to 0 give it all to "other".
func shareOut(counts []int, total int) []int {
	out := make([]int, len(counts))
	sum := 0
	for _, n := range counts {
		sum += n
	}
	if total <= 0 {
		return out
	}
	if sum == 0 {
		out[len(out)-1] = total
		return out
	}
	type rem struct{ i, r int }
	var rems []rem
	given := 0
	for i, n := range counts {
		out[i] = n * total / sum
		given += out[i]
		rems = append(rems, rem{i, n * total % sum})
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for k := 0; given < total; k++ {
		out[rems[k%len(rems)].i]++
		given++
	}
	return out
}

// cachedSections shares out a turn's cache read among the sections of
// its request: the prefix of the counted prompt as long as the read's
// share of the cache account's prompt tokens, block by block, the block
// it ends in in proportion. nil when the request is not known (a session
// file holds no system prompt and no tools).
func cachedSections(tc *tokenCache, l *layout, use *CacheUse) *PrefixSections {
	if !known(l) {
		return nil
	}
	ps := &PrefixSections{Turns: 1, Read: use.Read, Sections: []SectionTokens{}}
	all := use.Read + use.Written + use.Uncached
	if use.Read == 0 || all == 0 || l.tokens() == 0 {
		return ps
	}
	cut := int(int64(use.Read) * int64(l.tokens()) / int64(all))
	raw := make([]int, len(capture.Sections))
	prev := 0
	for i := range l.blocks {
		if prev >= cut {
			break
		}
		secs := tc.blockSections(l, i)
		if l.ends[i] > cut {
			// The block the prefix ends in, in proportion.
			secs = shareOut(secs, cut-prev)
		}
		for k, v := range secs {
			raw[k] += v
		}
		prev = l.ends[i]
	}
	ps.Sections = sectionList(shareOut(raw, use.Read))
	return ps
}

// sectionList lists the sections with tokens, largest first.
func sectionList(counts []int) []SectionTokens {
	out := []SectionTokens{}
	for k, n := range counts {
		if n > 0 {
			out = append(out, SectionTokens{Kind: string(capture.Sections[k]), Tokens: n})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Tokens > out[j].Tokens })
	return out
}

// sumSections adds up the turns' composition; nil when no turn has one.
func sumSections(turns []ConvTurn) *PrefixSections {
	var sum *PrefixSections
	counts := make([]int, len(capture.Sections))
	for _, t := range turns {
		p := t.Cached
		if p == nil {
			continue
		}
		if sum == nil {
			sum = &PrefixSections{Sections: []SectionTokens{}}
		}
		sum.Turns++
		sum.Read += p.Read
		for _, s := range p.Sections {
			counts[sectionIndex(capture.Section(s.Kind))] += s.Tokens
		}
	}
	if sum != nil {
		sum.Sections = sectionList(counts)
	}
	return sum
}
