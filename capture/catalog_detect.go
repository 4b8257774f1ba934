package capture

import (
	"strings"
)

// Catalog markers of Pi's native skill catalog.
const (
	piCatalogOpen  = "<available_skills>"
	piCatalogClose = "</available_skills>"
)

// CatalogFormatPi names Pi's <available_skills> catalog format.
const CatalogFormatPi = "pi-available-skills"

// splitCatalogs finds native skill catalogs inside system text and splits
// the system segments around them, so catalog bytes are counted once, as
// SecCatalog.
func (a *adapter) splitCatalogs() {
	d := a.d
	var out []Segment
	changed := false
	for _, s := range a.segs {
		if s.Kind != SecSystem || s.Prov != ProvSystem {
			out = append(out, s)
			continue
		}
		pieces := []Segment{s}
		end := int(d.Nodes[s.Node].Skip)
		for n := s.Node; n < end; n++ {
			node := &d.Nodes[n]
			if node.Kind != String || int(node.Start) < s.Start || int(node.End) > s.End {
				continue
			}
			raw := d.Src[node.Start:node.End]
			if !strings.Contains(string(raw), "available_skills") {
				continue
			}
			for _, r := range catalogRanges(d.Str(n)) {
				c1, c2 := d.RawOffset(n, r[0]), d.RawOffset(n, r[1])
				pieces = splitPieces(pieces, Segment{Kind: SecCatalog, Prov: ProvSystem, Node: n, Start: c1, End: c2, Msg: s.Msg, Name: CatalogFormatPi})
				changed = true
			}
		}
		out = append(out, pieces...)
	}
	if changed {
		a.segs = out
	}
}

// splitPieces carves cat out of whichever piece contains it.
func splitPieces(pieces []Segment, cat Segment) []Segment {
	var out []Segment
	for _, p := range pieces {
		if p.Kind == SecCatalog || cat.Start < p.Start || cat.End > p.End {
			out = append(out, p)
			continue
		}
		if cat.Start > p.Start {
			before := p
			before.End = cat.Start
			out = append(out, before)
		}
		out = append(out, cat)
		if cat.End < p.End {
			after := p
			after.Start = cat.End
			out = append(out, after)
		}
	}
	return out
}

// catalogRanges returns the decoded byte ranges of every Pi catalog in text:
// the <available_skills> block plus, when the paragraph right before it
// talks about skills, that preamble paragraph.
func catalogRanges(text string) [][2]int {
	var out [][2]int
	from := 0
	for {
		i := strings.Index(text[from:], piCatalogOpen)
		if i < 0 {
			return out
		}
		open := from + i
		j := strings.Index(text[open:], piCatalogClose)
		if j < 0 {
			return out
		}
		end := open + j + len(piCatalogClose)
		start := open
		p := strings.TrimRight(text[from:open], " \t\r\n")
		pEnd := from + len(p)
		q := strings.LastIndex(text[from:pEnd], "\n\n")
		pStart := from
		if q >= 0 {
			pStart = from + q + 2
		}
		if pEnd > pStart && strings.Contains(strings.ToLower(text[pStart:pEnd]), "skill") {
			start = pStart
		}
		out = append(out, [2]int{start, end})
		from = end
	}
}
