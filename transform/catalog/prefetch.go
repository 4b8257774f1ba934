package catalogrules

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// prefetchTag opens the overlay SO103 appends; its catalog attribute is the
// catalog fingerprint, and its presence stops a second append.
const prefetchTag = "<skill_prefetch"

// maxPrefetchChars bounds the overlay.
const maxPrefetchChars = 2000

// prefetchOptions are SO103's own keys.
type prefetchOptions struct {
	Limit int `toml:"prefetch_limit" doc:"Most skills SO103 (prefetch) appends to the latest human message (0..20)."`
}

func (*prefetchOptions) Section() string { return "catalog" }

// Check reports values out of range.
func (o *prefetchOptions) Check() []rules.OptionError {
	if o.Limit < 0 || o.Limit > 20 {
		return []rules.OptionError{{Key: "prefetch_limit", Msg: fmt.Sprintf("%d is outside 0..20", o.Limit)}}
	}
	return nil
}

// prefetch is SO103.
var prefetch = &rules.Rule{
	ID:       "SO103",
	Name:     "catalog.prefetch",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Additive: true,
	Opt:      true,
	Requires: []string{"SO101"},
	Doc: "Appends the few skills that match the latest human request, names and descriptions verbatim, to that request. " +
		"Legacy compact-index path only (no current card profile), off by default. The query is the latest genuine human text and nothing else " +
		"(never system text, tool results, injected context or assistant text); ranking is BM25F with exact-name and bounded typo signals fused by " +
		"reciprocal rank. The overlay carries the catalog fingerprint, lists at most catalog.prefetch_limit skills in catalog order, never SKILL.md " +
		"bodies or file locations, and is added once: a marked request is left alone, and no human text or no match means no change.",
	Options: &prefetchOptions{Limit: 3},
	Reads:   []string{"catalog.exclude", "catalog.profile"},
	Detail:  detail,
	Run: func(p *rules.Pass) error {
		set := SettingsOf(p.Env)
		limit := p.Options.(*prefetchOptions).Limit
		if limit == 0 {
			return nil
		}
		// The catalog as captured: an earlier rule may have compacted it.
		// Its parsed skills and the snapshot with its search structures
		// come from the catalog cache after the first request.
		var e *cacheEntry
		if set.Profile != "" {
			if e, _ = entryFor(p.Original); e == nil {
				return nil
			}
			if prof, err := currentProfile(p, e.eligible(set.Exclude)); err != nil || prof != nil {
				return err // tag-directory mode never prefetches
			}
		}
		node, text := latestHumanText(p.Capture)
		if node < 0 || strings.TrimSpace(text) == "" || strings.Contains(text, prefetchTag) {
			return nil
		}
		if e == nil {
			if e, _ = entryFor(p.Original); e == nil {
				return nil
			}
		}
		snap := e.snapshot(set.Exclude)
		overlay := prefetchOverlay(snap, text, limit)
		if overlay == "" {
			return nil
		}
		p.Edit(rules.Edit{Pointer: p.Capture.Doc.Pointer(node), NewJSON: capture.Quote(text + overlay), Message: "skill prefetch"})
		return nil
	},
}

// prefetchOverlay ranks the snapshot for query and renders the overlay
// ("" when nothing matches).
func prefetchOverlay(snap *catalog.Snapshot, query string, limit int) string {
	res := snap.Search(query, limit)
	if len(res) == 0 {
		return ""
	}
	idx := make([]int, 0, len(res))
	for _, r := range res {
		idx = append(idx, snap.Lookup(r.Name))
	}
	sort.Ints(idx) // catalog order
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n%s catalog=%q>\n", prefetchTag, snap.Fingerprint[:16])
	for _, i := range idx {
		sk := snap.Skills[i]
		line := sk.Name + ": " + strings.Join(strings.Fields(sk.Description), " ") + "\n"
		if utf8.RuneCountInString(b.String())+utf8.RuneCountInString(line) > maxPrefetchChars {
			break
		}
		b.WriteString(line)
	}
	b.WriteString("</skill_prefetch>")
	return b.String()
}

// latestHumanText returns the string node and text of the latest genuine
// human text of a capture, or -1.
func latestHumanText(c *capture.Capture) (int, string) {
	segs := c.Segments()
	for k := len(segs) - 1; k >= 0; k-- {
		s := segs[k]
		if s.Prov != capture.ProvHuman {
			continue
		}
		d := c.Doc
		if d.Kind(s.Node) == capture.String {
			return s.Node, d.Str(s.Node)
		}
		// A whole message or block: its last text string.
		best := -1
		end := int(d.Nodes[s.Node].Skip)
		for n := s.Node; n < end; n++ {
			if d.Kind(n) != capture.String {
				continue
			}
			if key := d.Key(n); key == "text" || key == "content" {
				best = n
			}
		}
		if best >= 0 {
			return best, d.Str(best)
		}
	}
	return -1, ""
}
