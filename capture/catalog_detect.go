package capture

import (
	"bytes"
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
	var out []Segment // nil until a catalog is found, then a.segs[:k] and on
	changed := false
	for k, s := range a.segs {
		if s.Kind != SecSystem || s.Prov != ProvSystem {
			if changed {
				out = append(out, s)
			}
			continue
		}
		pieces := []Segment{s}
		end := d.Nodes[s.Node].Skip
		for n := s.Node; n < end; n++ {
			node := &d.Nodes[n]
			if node.Kind != String || int(node.Start) < s.Start || int(node.End) > s.End {
				continue
			}
			raw := d.Src[node.Start+1 : node.End-1]
			if indexMarker(raw, "available_skills") < 0 {
				continue
			}
			ranges, ok := catalogRangesRaw(raw)
			if ok {
				// Raw ranges are relative to the token body.
				for i := range ranges {
					ranges[i][0] += int(node.Start) + 1
					ranges[i][1] += int(node.Start) + 1
				}
			} else {
				// Escaped markers (\u003c…): work on the decoded text.
				ranges = ranges[:0]
				for _, r := range catalogRanges(d.Str(n)) {
					ranges = append(ranges, [2]int{d.RawOffset(n, r[0]), d.RawOffset(n, r[1])})
				}
			}
			for _, r := range ranges {
				c1, c2 := r[0], r[1]
				pieces = splitPieces(pieces, Segment{Kind: SecCatalog, Prov: ProvSystem, Node: n, Start: c1, End: c2, Msg: s.Msg, Name: CatalogFormatPi})
				if !changed {
					out = append(make([]Segment, 0, len(a.segs)+2*len(ranges)), a.segs[:k]...)
					changed = true
				}
			}
		}
		if changed {
			out = append(out, pieces...)
		}
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

// catalogRangesRaw is catalogRanges working on the raw bytes of a string
// token (quotes excluded), without decoding it: the markers hold no
// character JSON must escape, so they appear literally unless a writer chose
// \u escapes, in which case ok is false and the caller decodes.
func catalogRangesRaw(raw []byte) (out [][2]int, ok bool) {
	from := 0
	for {
		i := indexMarker(raw[from:], piCatalogOpen)
		if i < 0 {
			if len(out) == 0 {
				return nil, false
			}
			return out, true
		}
		start := from + i
		j := indexMarker(raw[start:], piCatalogClose)
		if j < 0 {
			return out, len(out) > 0
		}
		end := start + j + len(piCatalogClose)
		if ps, ok := rawPreamble(raw, from, start); ok {
			start = ps
		}
		out = append(out, [2]int{start, end})
		from = end
	}
}

// escapeStart reports whether the backslash at raw[i] begins an escape
// (it is preceded by an even number of backslashes).
func escapeStart(raw []byte, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && raw[k] == '\\'; k-- {
		n++
	}
	return n%2 == 0
}

// rawPreamble finds, in raw[from:open], the paragraph right before the
// catalog (after the last blank line) and returns its start when it talks
// about skills.
func rawPreamble(raw []byte, from, open int) (int, bool) {
	// Trim trailing whitespace: spaces and the escapes \n, \r, \t.
	p := open
	for p > from {
		if raw[p-1] == ' ' {
			p--
			continue
		}
		if p-2 >= from && raw[p-2] == '\\' && escapeStart(raw, p-2) && (raw[p-1] == 'n' || raw[p-1] == 'r' || raw[p-1] == 't') {
			p -= 2
			continue
		}
		break
	}
	// The last escaped blank line ("\n\n") before p.
	pStart := from
	for q := p; q > from; {
		k := bytes.LastIndex(raw[from:q], []byte(`\n\n`))
		if k < 0 {
			break
		}
		k += from
		if escapeStart(raw, k) {
			pStart = k + 4
			break
		}
		q = k + 3 // a false hit: look further left
	}
	if p <= pStart {
		return 0, false
	}
	para := strings.ToLower(unquote(append(append([]byte{'"'}, raw[pStart:p]...), '"')))
	return pStart, strings.Contains(para, "skill")
}

// indexMarker is bytes.Index of a catalog marker, found by its '_'. A
// catalog is all tags, so searching on the marker's first byte ('<' or
// 'a') stops at nearly every entry of a catalog of 100,000 skills; an
// underscore is rare in prose and in tags, and memchr finds it at memory
// speed. Each '_' is checked against the whole marker: linear in len(b)
// times the marker's length at worst.
func indexMarker(b []byte, marker string) int {
	k := strings.IndexByte(marker, '_')
	if k < 0 {
		return bytes.Index(b, []byte(marker))
	}
	for from := 0; ; {
		i := bytes.IndexByte(b[min(from+k, len(b)):], '_')
		if i < 0 {
			return -1
		}
		at := from + i // where the marker would start
		if at+len(marker) > len(b) {
			return -1
		}
		if string(b[at:at+len(marker)]) == marker {
			return at
		}
		from = at + 1
	}
}
