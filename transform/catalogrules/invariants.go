package catalogrules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/rules"
)

// catalogTexts returns the decoded system and developer strings of a
// capture that hold a skillopt catalog block.
func catalogTexts(c *capture.Capture) []string {
	var out []string
	d := c.Doc
	for _, s := range c.Segments() {
		if s.Kind != capture.SecSystem || s.Prov != capture.ProvSystem {
			continue
		}
		end := d.Nodes[s.Node].Skip
		for n := s.Node; n < end; n++ {
			if raw := string(d.Raw(n)); d.Kind(n) == capture.String && (strings.Contains(raw, "skill-optimizer:auto") || strings.Contains(raw, "<skill_index ")) {
				out = append(out, d.Str(n))
			}
		}
	}
	return out
}

// indexNames lists the names of every compact index row in texts.
func indexNames(texts []string) []string {
	var names []string
	for _, t := range texts {
		for {
			i := strings.Index(t, "<skill_index ")
			if i < 0 {
				break
			}
			t = t[i:]
			j := strings.Index(t, "</skill_index>")
			if j < 0 {
				break
			}
			body := t[strings.IndexByte(t, '\n')+1 : j]
			for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
				if line == "" {
					continue
				}
				name, _, _ := strings.Cut(line, "\t")
				names = append(names, name)
			}
			t = t[j:]
		}
	}
	return names
}

func catalogChanged(res *rules.Result) bool {
	for _, s := range res.Steps {
		if s.Applied && strings.HasPrefix(s.Rule.ID, "SO1") {
			return true
		}
	}
	return false
}

// markerOnce is SO410.
var markerOnce = &rules.Rule{
	ID: "SO410", Name: "catalog.marker-once", Kind: rules.Invariant, Severity: rules.Error,
	Title: "The catalog marker appears once",
	Why:   "The marker is how skillopt recognises its own catalog block; two markers mean a block was added twice, and none means a catalog was removed without its replacement.",
	Since: rules.FirstVersion,
	Doc: "A transformed catalog carries the skillopt marker exactly once per request. " +
		"The marker identifies the stable block that replaced the native catalogs; two markers mean a block was added twice, one missing means a catalog was dropped without its replacement.",
	Run: func(p *rules.Pass) error {
		if !catalogChanged(p.Result) {
			return nil
		}
		n := strings.Count(strings.Join(catalogTexts(p.Result.Final), "\n"), catalog.Marker)
		if n != 1 {
			p.Reportf("", "catalog marker appears %d times, want exactly once", n)
		}
		return nil
	},
}

// namesOnce is SO411.
var namesOnce = &rules.Rule{
	ID: "SO411", Name: "catalog.names-once", Kind: rules.Invariant, Severity: rules.Error,
	Title: "Every eligible skill stays in the compact index once",
	Why:   "The compact index is only safe if the model can still reach every skill it may use: a missing name hides a skill, a repeated one spends the budget twice.",
	Since: rules.FirstVersion,
	Reads: []string{"catalog.exclude"},
	Doc: "Every eligible skill name appears exactly once in the compact index. " +
		"The compact index promises that the model still sees every skill it may use; a missing name hides a skill and a repeated one wastes the budget.",
	Run: func(p *rules.Pass) error {
		names := indexNames(catalogTexts(p.Result.Final))
		if len(names) == 0 {
			return nil
		}
		count := map[string]int{}
		for _, n := range names {
			count[n]++
		}
		set := SettingsOf(p.Env)
		for _, g := range eligibleGroups(fromCapture(p.Result.Original), set.Exclude) {
			for _, sk := range g {
				if c := count[cellText(sk.Name)]; c != 1 {
					p.Reportf("", "skill %q appears %d times in the compact index", sk.Name, c)
				}
			}
		}
		return nil
	},
}

// cellText is how a name is written in an index row.
func cellText(s string) string {
	return cellEscaper.Replace(s)
}

var cellEscaper = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ", "&", "&amp;", "<", "&lt;", ">", "&gt;")

// noPaths is SO412.
var noPaths = &rules.Rule{
	ID: "SO412", Name: "catalog.no-paths", Kind: rules.Invariant, Severity: rules.Error,
	Title: "No skill file paths in a transformed catalog",
	Why:   "Paths reveal the host's file layout and let the model read skill files directly instead of going through skill_search.",
	Since: rules.FirstVersion,
	Doc: "No filesystem location of a skill appears in a transformed catalog. " +
		"The compact index and the tag directory route through skill_search; file paths in the prompt would leak the host's layout and invite the model to bypass the resolver.",
	Run: func(p *rules.Pass) error {
		texts := strings.Join(catalogTexts(p.Result.Final), "\n")
		if texts == "" {
			return nil
		}
		for _, sk := range allSkills(fromCapture(p.Result.Original)) {
			if sk.Location != "" && strings.Contains(texts, sk.Location) {
				p.Reportf("", "location of skill %q appears in the transformed catalog", sk.Name)
			}
		}
		if strings.Contains(texts, "<location>") {
			p.Reportf("", "a <location> element survives in the transformed catalog")
		}
		return nil
	},
}

// directoryBound is SO413.
var directoryBound = &rules.Rule{
	ID: "SO413", Name: "catalog.directory-bound", Kind: rules.Invariant, Severity: rules.Error,
	Title: "The tag directory stays within its bound",
	Why:   "The directory is worth having only because its size does not grow with the catalog; exceeding the bound would bring the cost back.",
	Since: rules.FirstVersion,
	Reads: []string{"catalog.budget_chars"},
	Doc: "A tag directory is at most min(4,000, catalog.budget_chars) characters. " +
		"The directory's value is that its size does not grow with the catalog; the bound covers the whole block, hints included.",
	Run: func(p *rules.Pass) error {
		set := SettingsOf(p.Env)
		for _, t := range catalogTexts(p.Result.Final) {
			i := strings.Index(t, catalog.Marker)
			j := strings.Index(t, "</skill_resolver>")
			if i < 0 || j < i || !strings.Contains(t[i:j], "<skill_directory") {
				continue
			}
			if n := utf8.RuneCountInString(t[i : j+len("</skill_resolver>")]); n > min(catalog.MaxDirectoryChars, set.BudgetChars) {
				p.Reportf("", "tag directory of %d characters exceeds %d", n, min(catalog.MaxDirectoryChars, set.BudgetChars))
			}
		}
		return nil
	},
}

// browseFacts is what paging through every tag of a snapshot shows: the
// characters of each page, in order, and how often each card is reached.
// SO414 and SO415 read it; it is computed once per catalog and
// configuration, however many captures carry the catalog.
type browseFacts struct {
	pageChars []int
	reached   map[string]int
	names     []string // the snapshot's cards, in its order
	err       error
}

// pageThrough pages through s (browseAll) and keeps what the invariants
// read.
func pageThrough(s *catalog.Snapshot) *browseFacts {
	f := &browseFacts{reached: map[string]int{}, names: s.Names()}
	f.err = browseAll(s, func(page *catalog.Page, data []byte) {
		f.pageChars = append(f.pageChars, utf8.RuneCount(data))
		for _, c := range page.Cards {
			f.reached[c.Name]++
		}
	})
	return f
}

// browseFactsOf returns the browse facts of the snapshot a capture's
// skill_search would use (nil when it has no catalog): its eligible
// skills under the configured exclusions and card profile.
func browseFactsOf(p *rules.Pass, c *capture.Capture) (*browseFacts, error) {
	key, ok := catalogKey(c)
	if !ok {
		return nil, nil
	}
	e, _ := entryOf(c, key)
	if len(e.cats) == 0 {
		return nil, nil
	}
	set := SettingsOf(p.Env)
	prof, err := currentProfile(p, e.eligible(set.Exclude))
	if err != nil {
		return nil, err
	}
	return e.browseFacts(set.Exclude, prof), nil
}

// browseAll pages through every card of every tag, calling fn per page.
func browseAll(s *catalog.Snapshot, fn func(page *catalog.Page, data []byte)) error {
	tags := []string{catalog.Unclassified}
	for _, t := range catalog.Vocabulary {
		tags = append(tags, t.Name)
	}
	req := catalog.BrowseRequest{Tags: tags, Match: "any", PageSize: 50}
	for pages := 0; pages < 100000; pages++ {
		page, data, err := s.Browse(req)
		if err != nil {
			return err
		}
		fn(page, data)
		if page.Cursor == nil {
			return nil
		}
		req.Cursor = *page.Cursor
	}
	return fmt.Errorf("browse did not end")
}

// browseBound is SO414.
var browseBound = &rules.Rule{
	ID: "SO414", Name: "catalog.browse-bound", Kind: rules.Invariant, Severity: rules.Error,
	Title: "A browse page stays within its bound",
	Why:   "Every page the model browses stays in the conversation; the bound keeps one browse cheap however many skills there are.",
	Since: rules.FirstVersion,
	Reads: []string{"catalog.exclude", "catalog.profile"},
	Doc: "Every skill_search browse page is at most 3,000 characters of JSON, cursor and facets included. " +
		"A page enters the conversation and stays there; its bound keeps one browse cheap whatever the catalog's size.",
	Run: func(p *rules.Pass) error {
		f, err := browseFactsOf(p, p.Result.Original)
		if err != nil || f == nil {
			return err
		}
		for _, n := range f.pageChars {
			if n > catalog.MaxPageChars {
				p.Reportf("", "browse page of %d characters exceeds %d", n, catalog.MaxPageChars)
			}
		}
		return f.err
	},
}

// paginationComplete is SO415.
var paginationComplete = &rules.Rule{
	ID: "SO415", Name: "catalog.pagination-complete", Kind: rules.Invariant, Severity: rules.Error,
	Title: "Paging through the tags reaches every card once",
	Why:   "With the tag directory the prompt names no skill, so paging is the model's only complete view of the catalog; a lost or repeated card breaks that promise.",
	Since: rules.FirstVersion,
	Reads: []string{"catalog.exclude", "catalog.profile"},
	Doc: "Paging through every tag reaches every eligible card exactly once, unclassified ones included. " +
		"With the tag directory the prompt no longer names each skill, so pagination is the model's only complete path to them: no card may be lost or repeated.",
	Run: func(p *rules.Pass) error {
		f, err := browseFactsOf(p, p.Result.Original)
		if err != nil || f == nil {
			return err
		}
		if f.err != nil {
			return f.err
		}
		for _, n := range f.names {
			if f.reached[n] != 1 {
				p.Reportf("", "card %q reached %d times by pagination", n, f.reached[n])
			}
		}
		return nil
	},
}

// prefetchBlocks returns (pointer, block) of every prefetch overlay.
func prefetchBlocks(c *capture.Capture) map[capture.Node]string {
	out := map[capture.Node]string{}
	d := c.Doc
	for n := range capture.Node(len(d.Nodes)) {
		if d.Kind(n) == capture.String && strings.Contains(string(d.Raw(n)), "skill_prefetch") {
			t := d.Str(n)
			if i := strings.Index(t, prefetchTag); i >= 0 {
				out[n] = t[i:]
			}
		}
	}
	return out
}

// added keeps the overlays of after that were not already in before (an
// overlay the capture arrived with is not the transform's doing).
func added(after, before map[capture.Node]string) map[capture.Node]string {
	old := map[string]bool{}
	for _, b := range before {
		old[b] = true
	}
	out := map[capture.Node]string{}
	for n, b := range after {
		if !old[b] {
			out[n] = b
		}
	}
	return out
}

// overlayVerbatim is SO416.
var overlayVerbatim = &rules.Rule{
	ID: "SO416", Name: "catalog.overlay-verbatim", Kind: rules.Invariant, Severity: rules.Error,
	Title: "A prefetch overlay quotes the catalog verbatim",
	Why:   "The overlay must be metadata the model can trust as the catalog's own words, not instructions or paraphrases that could change what a skill claims.",
	Since: rules.FirstVersion,
	Doc: "A prefetch overlay is labelled as discovery metadata and lists catalog skills with their descriptions verbatim, in catalog order. " +
		"The overlay is discovery metadata, not instructions: it says so, and it must say exactly what the catalog says, byte for byte, white space included " +
		"(no paraphrase, no SKILL.md body, no location), in a stable order.",
	Run: func(p *rules.Pass) error {
		blocks := added(prefetchBlocks(p.Result.Final), prefetchBlocks(p.Result.Original))
		if len(blocks) == 0 {
			return nil
		}
		skills := allSkills(fromCapture(p.Result.Original))
		pos := map[string]int{}
		entry := map[string]string{}
		for i, sk := range skills {
			if _, dup := pos[sk.Name]; !dup {
				pos[sk.Name] = i
				entry[sk.Name] = prefetchEntry(sk)
			}
		}
		for _, b := range blocks {
			_, rest, _ := strings.Cut(b, "\n")
			if r, ok := strings.CutPrefix(rest, prefetchLabel+"\n"); ok {
				rest = r
			} else {
				p.Reportf("", "overlay is not labelled as discovery metadata")
			}
			last := -1
			for rest != "" && !strings.HasPrefix(rest, "</skill_prefetch>") {
				line, _, _ := strings.Cut(rest, "\n")
				name, _, ok := strings.Cut(line, ": ")
				i, known := pos[name]
				if !ok || !known {
					p.Reportf("", "overlay line %q is not a catalog skill", clipLine(line))
					break
				}
				if !strings.HasPrefix(rest, entry[name]) {
					p.Reportf("", "overlay description of %q is not verbatim", name)
					break
				}
				if i < last {
					p.Reportf("", "overlay lists %q out of catalog order", name)
				}
				last = i
				rest = rest[len(entry[name]):]
			}
		}
		return nil
	},
}

func clipLine(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "…"
	}
	return s
}

// overlayLatestHuman is SO417.
var overlayLatestHuman = &rules.Rule{
	ID: "SO417", Name: "catalog.overlay-latest-human", Kind: rules.Invariant, Severity: rules.Error,
	Title: "A prefetch overlay goes only in the latest human text",
	Why:   "Only the person's latest words are a query; touching system text, tool results or earlier turns would change what the model was told and break cached prefixes.",
	Since: rules.FirstVersion,
	Doc: "A prefetch overlay appears at most once, in the latest genuine human text, and nowhere else. " +
		"Only the person's latest words are a query; system text, tool results, injected context and older turns must stay byte-identical.",
	Run: func(p *rules.Pass) error {
		blocks := added(prefetchBlocks(p.Result.Final), prefetchBlocks(p.Result.Original))
		if len(blocks) == 0 {
			return nil
		}
		node, _ := latestHumanText(p.Result.Final)
		if len(blocks) > 1 {
			p.Reportf("", "%d prefetch overlays, want at most one", len(blocks))
		}
		for n := range blocks {
			if n != node {
				p.Reportf(p.Result.Final.Doc.Pointer(n), "prefetch overlay outside the latest human text")
			}
		}
		return nil
	},
}
