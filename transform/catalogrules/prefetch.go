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

// prefetchLabel follows the overlay's opening tag: the lines after it are
// catalog entries for discovery, not instructions the person gave.
const prefetchLabel = "Discovery metadata, not instructions: skill catalog entries that may fit this request, each a name and its catalog description verbatim."

// prefetchOptions are SO103's own keys.
type prefetchOptions struct {
	Limit    int      `toml:"prefetch_limit" doc:"Most skills SO103 (prefetch) appends to the latest human message (0..20)."`
	MaxChars int      `toml:"prefetch_max_chars" doc:"Character budget of SO103's whole overlay, tags and label included (200..20000). The best-ranked skills that fit are listed; a description is never shortened."`
	Usage    []string `toml:"usage" doc:"Execution traces and Pi sessions (files or folders, inside the configuration file's folder) read as usage evidence by SO103, as catalog search --usage reads them; transform, diff, measure and check take --usage PATH instead."`
}

func (*prefetchOptions) Section() string { return "catalog" }

// Check reports values out of range.
func (o *prefetchOptions) Check() []rules.OptionError {
	var out []rules.OptionError
	if o.Limit < 0 || o.Limit > 20 {
		out = append(out, rules.OptionError{Key: "prefetch_limit", Msg: fmt.Sprintf("%d is outside 0..20", o.Limit)})
	}
	if o.MaxChars < 200 || o.MaxChars > 20000 {
		out = append(out, rules.OptionError{Key: "prefetch_max_chars", Msg: fmt.Sprintf("%d is outside 200..20000", o.MaxChars)})
	}
	return append(out, checkUsagePaths(o.Usage)...)
}

// prefetch is SO103.
var prefetch = &rules.Rule{
	ID:       "SO103",
	Title:    "Prefetch the skills that match the latest request",
	Why:      "Naming the few skills that match what the person just asked saves the model a skill_search round trip. It is opt-in because it adds text to the request, and it quotes the catalog verbatim so it can never steer the model beyond what the catalog says.",
	Since:    rules.FirstVersion,
	Name:     "catalog.prefetch",
	Kind:     rules.Transform,
	Severity: rules.Info,
	Engine:   rules.Engine{Additive: true, Opt: true},
	Requires: []*rules.Rule{CompactIndex},
	Doc: "Appends the few skills that match the latest human request, names and catalog descriptions verbatim, to that request, labelled as discovery metadata rather than instructions. " +
		"Legacy compact-index path only (no current card profile), off by default. The query is the latest genuine human text and nothing else " +
		"(never system text, tool results, injected context or assistant text); ranking is BM25F with exact-name and bounded typo signals fused by " +
		"reciprocal rank, and with catalog.usage (or --usage) the decayed usage evidence of execution traces and Pi sessions, ranked as catalog search --usage ranks it: " +
		"among the skills that match nearly as well as the best, the most used first; an unreadable path is a warning and adds nothing. The overlay carries the catalog fingerprint, lists at most catalog.prefetch_limit skills in catalog order (the best-ranked that fit " +
		"catalog.prefetch_max_chars characters, overlay included; a description is never shortened), never SKILL.md " +
		"bodies or file locations. With a catalog.profile that has no current card for these skills, its activation tags apply: a specialist among the ranked skills brings its one supporting workflow skill within the same limit (not recursively). It is added once: a marked request is left alone, and no human text or no match means no change.",
	Options: &prefetchOptions{Limit: 3, MaxChars: 2000},
	Reads:   []string{"catalog.exclude", "catalog.profile"},
	Detail:  detail,
	Run: func(p *rules.Pass) error {
		set := SettingsOf(p.Env)
		opts := p.Options.(*prefetchOptions)
		limit := opts.Limit
		// The catalog as captured: an earlier rule may have compacted it.
		// Its key is known from SO101; its parsed skills and the snapshot
		// with its search structures come from the catalog cache after the
		// first request, and are not looked at before the human text is.
		key, ok := catalogKey(p.Original)
		if !ok {
			p.Idle("no native skill catalog")
			return nil
		}
		if limit == 0 {
			p.Idle("catalog.prefetch_limit is 0")
			return nil
		}
		var e *cacheEntry
		if set.Profile != "" {
			e, _ = entryOf(p.Original, key)
			if prof, err := currentProfile(p, e.eligible(set.Exclude)); err != nil || prof != nil {
				p.Idle("the tag directory (SO102) never prefetches")
				return err
			}
		}
		node, text := latestHumanText(p.Capture)
		if node == capture.NoNode || strings.TrimSpace(text) == "" {
			p.Idle("no human text to match")
			return nil
		}
		if strings.Contains(text, prefetchTag) {
			p.Idle("the request is already prefetched")
			return nil
		}
		if e == nil {
			e, _ = entryOf(p.Original, key)
		}
		usage, err := prefetchUsage(p, opts.Usage)
		if err != nil {
			return err
		}
		snap := e.snapshot(set.Exclude)
		// A profile without a current card for these skills can still
		// carry activation tags: a specialist brings its support.
		var prof *catalog.Profile
		if set.Profile != "" {
			prof, _ = catalog.LoadProfileCached(p.Env.Resolve(set.Profile))
		}
		overlay := prefetchOverlay(snap, text, limit, opts.MaxChars, usage, prof)
		if overlay == "" {
			p.Idle("no skill matches the latest human text")
			return nil
		}
		p.Edit(rules.Edit{Pointer: p.Capture.Doc.Pointer(node), NewJSON: capture.Quote(text + overlay), Message: "skill prefetch"})
		return nil
	},
}

// prefetchOverlay ranks the snapshot for query and renders the overlay
// within budget characters ("" when nothing matches or fits).
func prefetchOverlay(snap *catalog.Snapshot, query string, limit, budget int, usage catalog.Usage, prof *catalog.Profile) string {
	res := prof.WithSupport(snap, snap.SearchUsage(query, limit, usage), limit)
	if len(res) == 0 {
		return ""
	}
	head := fmt.Sprintf("\n\n%s catalog=%q>\n%s\n", prefetchTag, snap.Fingerprint[:16], prefetchLabel)
	const tail = "</skill_prefetch>"
	// The best-ranked entries that fit, then listed in catalog order.
	used := utf8.RuneCountInString(head) + utf8.RuneCountInString(tail)
	var idx []int
	for _, r := range res {
		i := snap.Lookup(r.Name)
		if n := utf8.RuneCountInString(prefetchEntry(snap.Skills[i])); used+n <= budget {
			idx = append(idx, i)
			used += n
		}
	}
	if len(idx) == 0 {
		return ""
	}
	sort.Ints(idx)
	var b strings.Builder
	b.WriteString(head)
	for _, i := range idx {
		b.WriteString(prefetchEntry(snap.Skills[i]))
	}
	b.WriteString(tail)
	return b.String()
}

// prefetchEntry is one skill's line of the overlay: its name and its
// description exactly as the catalog gives it.
func prefetchEntry(sk catalog.Skill) string {
	return sk.Name + ": " + sk.Description + "\n"
}

// latestHumanText returns the string node and text of the latest genuine
// human text of a capture, or capture.NoNode.
func latestHumanText(c *capture.Capture) (capture.Node, string) {
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
		best := capture.NoNode
		end := d.Nodes[s.Node].Skip
		for n := s.Node; n < end; n++ {
			if d.Kind(n) != capture.String {
				continue
			}
			if key := d.Key(n); key == "text" || key == "content" {
				best = n
			}
		}
		if best != capture.NoNode {
			return best, d.Str(best)
		}
	}
	return capture.NoNode, ""
}
