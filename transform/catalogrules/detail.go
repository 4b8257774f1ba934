package catalogrules

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/measure/units"
	"github.com/skillopt/skillopt/rules"
)

// detail is the catalog section of measure's report, given by whichever
// catalog rule comes first in the pipeline.
func detail(in rules.DetailInput) (*rules.Detail, error) {
	for _, st := range in.Result.Steps {
		if strings.HasPrefix(st.Rule.ID, "SO1") {
			if st.Rule != in.Rule {
				return nil, nil
			}
			break
		}
	}
	r := report(in.Result, in.Env, in.Replay, in.Count)
	if r == nil {
		return nil, nil
	}
	d := &rules.Detail{Key: "catalog", Data: r}
	if r.NamesOnly {
		d.Warnings = append(d.Warnings, fmt.Sprintf("the skill names alone take %s characters of catalog.budget_chars = %s: the compact index shows no intents, only names",
			units.Thousands(r.NamesChars), units.Thousands(r.BudgetChars)))
	}
	if r.DroppedIntents > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("the compact index dropped the intents of %s of %s skills to fit catalog.budget_chars = %s: the model sees their names only",
			units.Thousands(r.DroppedIntents), units.Thousands(r.Intents), units.Thousands(r.BudgetChars)))
	}
	if r.next != nil {
		d.Next = append(d.Next, *r.next)
	}
	return d, nil
}

// Report compares the native skill catalog of a capture with the
// compact index and (with a current card profile) the tag directory, and
// replays each over follow-up requests.
type Report struct {
	Format string `json:"format"`
	// Listed counts the entries of the native catalogs; Skills those the
	// catalog rules index (no repeated name, none excluded by
	// catalog.exclude or disable-model-invocation).
	Listed       int `json:"listed"`
	Skills       int `json:"skills"`
	Repeated     int `json:"repeated,omitempty"`
	Excluded     int `json:"excluded,omitempty"`
	NotInvoked   int `json:"not_invoked,omitempty"`
	NativeBytes  int `json:"native_bytes"`
	CompactBytes int `json:"compact_bytes"`
	TagBytes     int `json:"tag_bytes,omitempty"`
	// SearchToolBytes is the skill_search declaration, included in the
	// compact and tag figures.
	SearchToolBytes int `json:"search_tool_bytes"`
	// LoadBytes is the SKILL.md a session loads (the best match for the
	// latest human text), 0 when the file is not readable here.
	LoadBytes int    `json:"load_bytes"`
	LoadSkill string `json:"load_skill,omitempty"`
	// FilesHere says whether the catalog's skill files are on this machine
	// (its first skills' files were found); loads count only then.
	FilesHere   bool         `json:"files_here"`
	BrowseBytes int          `json:"browse_bytes,omitempty"`
	Requests    int          `json:"requests"`
	Replay      []ReplayPath `json:"replay"`
	// Intents counts the indexed skills that have an intent to show;
	// DroppedIntents those the compact index left out to stay within
	// BudgetChars (catalog.budget_chars).
	Intents        int `json:"intents"`
	DroppedIntents int `json:"dropped_intents"`
	// NamesOnly says the names alone fill catalog.budget_chars (NamesChars
	// characters with the index's frame): no intent is shown, and none is
	// derived or counted.
	NamesOnly   bool `json:"names_only,omitempty"`
	NamesChars  int  `json:"names_chars,omitempty"`
	BudgetChars int  `json:"budget_chars"`

	next *rules.Suggestion
}

// ReplayPath is one discovery path over the replayed requests.
type ReplayPath struct {
	Path         string  `json:"path"`
	InitialBytes int     `json:"initial_bytes"`
	Cumulative   int     `json:"cumulative_bytes"`
	SavedPct     float64 `json:"saved_pct_vs_native"`
}

// report measures the capture's native catalog, when it has one; count
// (nil when counting is off) gives the tokens of the next step's saving.
func report(res *rules.Result, env *rules.Env, replay int, count func([]string) []int) *Report {
	c := res.Original
	// The comparison is about what the catalog rules do: without one in the
	// pipeline there is nothing to report (and nothing to pay for).
	compactStep, catalogRule := catalogSteps(res)
	if !catalogRule {
		return nil
	}
	set := SettingsOf(env)
	// SO101 parsed the catalogs and rendered the compact index when it ran:
	// its cache holds both, with the intents it kept.
	var cached *cacheEntry
	if key, ok := catalogKey(c); ok {
		cached = cacheGet(key)
	}
	var cats []embedded
	if cached != nil {
		cats = withSpans(c, cached.cats)
	} else {
		cats = fromCapture(c)
	}
	if len(cats) == 0 {
		return nil
	}
	r := &Report{Format: capture.CatalogFormatPi, Requests: max(replay, 0) + 1, BudgetChars: set.BudgetChars}
	// The skills SO101 and SO102 index, counted the way they count them.
	var all []catalog.Skill
	var groups [][]catalog.Skill // without SO101's cache
	if cached != nil {
		all = cached.eligible(set.Exclude)
	} else {
		groups = eligibleGroups(cats, set.Exclude)
		for _, g := range groups {
			all = append(all, g...)
		}
	}
	r.countListed(cats, set.Exclude)
	r.Skills = len(all)
	tool := capture.RenderTool(c.Provider, SearchTool())
	r.SearchToolBytes = len(tool) + 1 // and its separating comma
	var blocks []string
	var stats catalog.CompactStats
	if cached != nil {
		blocks, stats = cached.compactBlocks(set.BudgetChars, set.Exclude)
	} else {
		blocks, stats = catalog.Compact(groups, set.BudgetChars)
	}
	r.compactSize(compactStep, blocks, stats)

	var prof *catalog.Profile
	if set.Profile != "" {
		if p, err := catalog.LoadProfileCached(env.Resolve(set.Profile)); err == nil {
			prof = p
		}
	}
	_, query := latestHuman(c)
	// A snapshot (cards, search) is needed only with cards or with the
	// skill files at hand.
	r.FilesHere = prof != nil || anySkillFileHere(all)
	var snap *catalog.Snapshot
	if r.FilesHere {
		snap = catalog.NewSnapshot(all, catalog.Options{Profile: prof})
		r.loadedSkill(snap, query)
	}
	r.replayPaths(len(c.Body), snap, set, query)
	if snap == nil || !snap.HasCards() || len(snap.Bucket(catalog.Unclassified)) == snap.Len() {
		r.next = tagStep(res, set, all, r, compactStep != nil, strings.Join(blocks, ""), count)
	}
	return r
}

// catalogSteps returns SO101's step when it applied, and whether the
// pipeline ran any catalog rule.
func catalogSteps(res *rules.Result) (compact *rules.Step, ran bool) {
	for i, st := range res.Steps {
		if strings.HasPrefix(st.Rule.ID, "SO1") {
			ran = true
			if st.Rule.ID == "SO101" && st.Applied {
				compact = &res.Steps[i]
			}
		}
	}
	return compact, ran
}

// countListed counts the catalogs' bytes and entries: every listed skill,
// those listed twice, those excluded and those the model may not invoke.
func (r *Report) countListed(cats []embedded, exclude []string) {
	excluded := map[string]bool{}
	for _, n := range exclude {
		excluded[n] = true
	}
	listed := 0
	for _, e := range cats {
		listed += len(e.Skills)
	}
	names := make(map[string]bool, listed)
	for _, e := range cats {
		r.NativeBytes += e.Segment.End - e.Segment.Start
		for _, sk := range e.Skills {
			r.Listed++
			switch {
			case names[sk.Name]:
				r.Repeated++
			case excluded[sk.Name]:
				r.Excluded++
			case sk.DisableModelInvocation:
				r.NotInvoked++
			}
			names[sk.Name] = true
		}
	}
}

// compactSize sets the compact index's size and what it dropped: measured
// by SO101's step when it applied, else from the blocks it would write.
func (r *Report) compactSize(compactStep *rules.Step, blocks []string, stats catalog.CompactStats) {
	if compactStep != nil {
		// SO101 replaced the catalogs and declared skill_search: its step
		// already measured the compact form.
		r.CompactBytes = r.NativeBytes - (compactStep.BytesBefore - compactStep.BytesAfter)
	} else {
		for _, b := range blocks {
			r.CompactBytes += jsonLen(b)
		}
		r.CompactBytes += r.SearchToolBytes
	}
	r.Intents, r.DroppedIntents = stats.Intents, stats.Intents-stats.Kept
	if compactStep != nil && stats.NamesOnly {
		r.NamesOnly, r.NamesChars = true, stats.Floor
	}
	if compactStep == nil {
		// Without the compact index in the result, nothing was dropped.
		r.DroppedIntents = 0
	}
}

// loadedSkill names the skill a session would load, the best match for
// its request, and its size. When the catalog's skill files are not on
// this machine (a capture made elsewhere) its size cannot be counted, and
// without cards nothing else depends on which skill it is, so the caller
// skips the search.
func (r *Report) loadedSkill(snap *catalog.Snapshot, query string) {
	if res := snap.Search(query, 1); len(res) > 0 {
		r.LoadSkill = res[0].Name
		if data, err := snap.Load(res[0].Name); err == nil {
			r.LoadBytes = len(data)
		}
	}
}

// replayPaths adds the cumulative bytes of each discovery path over the
// replayed requests: native, compact and, with current cards whose
// directory fits, the tag directory with one browse.
func (r *Report) replayPaths(native int, snap *catalog.Snapshot, set *Settings, query string) {
	rest := native - r.NativeBytes
	n := r.Requests
	add := func(path string, initial, extra int) {
		cum := n*(rest+initial) + (n-1)*(r.LoadBytes+extra)
		r.Replay = append(r.Replay, ReplayPath{Path: path, InitialBytes: rest + initial, Cumulative: cum})
	}
	add("native", r.NativeBytes, 0)
	add("compact", r.CompactBytes, 0)
	if snap != nil && snap.HasCards() && len(snap.Bucket(catalog.Unclassified)) < snap.Len() {
		dir := catalog.Directory(snap, set.Critical, set.Always)
		if catalog.DirectoryFits(dir, set.BudgetChars) {
			r.TagBytes = jsonLen(dir) + r.SearchToolBytes
			// One browse: the first page of the loaded skill's tags.
			tags := []string{catalog.Unclassified}
			if i := snap.Lookup(r.LoadSkill); i >= 0 && len(snap.CardOf(i).Tags) > 0 {
				tags = snap.CardOf(i).Tags
			}
			if _, data, err := snap.Browse(catalog.BrowseRequest{Tags: tags, Query: query}); err == nil {
				r.BrowseBytes = len(data)
			}
			add("tag", r.TagBytes, r.BrowseBytes)
		}
	}
	base := r.Replay[0].Cumulative
	for i := range r.Replay {
		r.Replay[i].SavedPct = units.Percent(base-r.Replay[i].Cumulative, base)
	}
}

// tagStep measures what the tag directory (SO102) would save on this
// capture, for a catalog without current cards: it renders the directory
// with every skill carrying three tags, spread over the vocabulary so
// that every tag is in use (the largest directory cards can give, up to
// the digits of the counts), and compares it with the catalog as the
// pipeline left it. Nil when the directory would not fit the budget or
// would save nothing.
func tagStep(res *rules.Result, set *Settings, all []catalog.Skill, r *Report, compacted bool, compactText string, count func([]string) []int) *rules.Suggestion {
	if len(all) == 0 {
		return nil
	}
	// Every skill carries three tags spread over the vocabulary: the
	// counts follow without building the cards.
	n := len(catalog.Vocabulary)
	counts := make([]catalog.TagCount, n)
	for t := range counts {
		counts[t].Tag = catalog.Vocabulary[t].Name
	}
	for i := range all {
		for k := range 3 {
			counts[(3*i+k)%n].Count++
		}
	}
	used := counts[:0]
	for _, tc := range counts {
		if tc.Count > 0 {
			used = append(used, tc)
		}
	}
	// Which of the few critical and always-listed names are skills here.
	named := map[string]bool{}
	for _, n := range slices.Concat(set.Critical, set.Always) {
		named[n] = false
	}
	if len(named) > 0 {
		for _, sk := range all {
			if _, ok := named[sk.Name]; ok {
				named[sk.Name] = true
			}
		}
	}
	dir := catalog.DirectoryOf(len(all), used, func(name string) bool { return named[name] }, set.Critical, set.Always)
	if !catalog.DirectoryFits(dir, set.BudgetChars) {
		return nil
	}
	tagBytes := jsonLen(dir) + r.SearchToolBytes
	// The catalog as the pipeline left it, and its text.
	now, nowText := r.NativeBytes, ""
	if compacted {
		now, nowText = r.CompactBytes, compactText
	} else {
		for _, e := range fromCapture(res.Original) {
			nowText += string(e.Segment.Bytes(res.Original.Doc))
		}
	}
	if tagBytes >= now {
		return nil
	}
	s := &rules.Suggestion{Rule: "SO102",
		Action:     "run `skillopt catalog init --skills DIR` (or `--from CAPTURE`), then set catalog.profile",
		Effect:     fmt.Sprintf("the tag directory would cut the catalog from %s to ~%s", units.Size(now), units.Size(tagBytes)),
		SavedBytes: now - tagBytes}
	inPipeline := false
	for _, st := range res.Steps {
		inPipeline = inPipeline || st.Rule.ID == "SO102"
	}
	if !inPipeline {
		s.Action += ", and add SO102 to the pipeline"
	}
	if count != nil {
		t := count([]string{nowText, dir})
		s.SavedTokens = max(t[0]-t[1], 0)
	}
	return s
}

// jsonLen is the length of s encoded inside a JSON string.
func jsonLen(s string) int { return len(capture.Quote(s)) - 2 }

// latestHuman returns the latest genuine human text of a capture.
func latestHuman(c *capture.Capture) (int, string) {
	segs := c.Segments()
	for k := len(segs) - 1; k >= 0; k-- {
		if segs[k].Prov == capture.ProvHuman {
			return k, c.SegmentText(segs[k])
		}
	}
	return -1, ""
}

// writeText renders the catalog report for a terminal.
// Text is the section for a terminal.
func (r *Report) Text() string {
	var b strings.Builder
	writeText(&b, r)
	return b.String()
}

// Markdown is the section as Markdown.
func (r *Report) Markdown() string {
	var b strings.Builder
	writeMarkdown(&b, r)
	return b.String()
}

func writeText(w io.Writer, r *Report) {
	fmt.Fprintf(w, "  catalog replay over %d requests (%s; %s):\n", r.Requests, skillsText(r), loadText(r))
	for _, p := range r.Replay {
		fmt.Fprintf(w, "    %-8s initial %12s  cumulative %14s  saved %7s\n", p.Path, units.Thousands(p.InitialBytes), units.Thousands(p.Cumulative), savedText(r, p))
	}
}

// skillsText counts the skills the catalog rules index, and says why
// that is fewer than the catalog lists.
func skillsText(r *Report) string {
	if r.Listed == r.Skills {
		if r.Skills == 1 {
			return "1 skill"
		}
		return fmt.Sprintf("%s skills", units.Thousands(r.Skills))
	}
	var why []string
	for _, x := range []struct {
		n    int
		what string
	}{{r.Repeated, "repeated"}, {r.Excluded, "in catalog.exclude"}, {r.NotInvoked, "not model-invoked"}} {
		if x.n > 0 {
			why = append(why, fmt.Sprintf("%s %s", units.Thousands(x.n), x.what))
		}
	}
	return fmt.Sprintf("%s of %s listed skills indexed: %s", units.Thousands(r.Skills), units.Thousands(r.Listed), strings.Join(why, ", "))
}

// loadText says what one skill load adds to each follow-up request.
func loadText(r *Report) string {
	switch {
	case !r.FilesHere:
		return "the catalog's SKILL.md files are not on this machine, so skill loads are not counted"
	case r.LoadSkill == "":
		return "no skill matches the request, so no load is counted"
	case r.LoadBytes == 0:
		return fmt.Sprintf("the SKILL.md of %s is not on this machine, so its load is not counted", r.LoadSkill)
	}
	return fmt.Sprintf("loading %s adds %s bytes", r.LoadSkill, units.Thousands(r.LoadBytes))
}

// writeMarkdown renders the catalog report as a Markdown list.
func writeMarkdown(w io.Writer, r *Report) {
	fmt.Fprintf(w, "- catalog replay over %d requests (%s; %s):", r.Requests, skillsText(r), loadText(r))
	for i, p := range r.Replay {
		sep := ";"
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %s bytes (%s saved)", sep, p.Path, units.Thousands(p.Cumulative), savedText(r, p))
	}
	fmt.Fprintln(w)
}

// savedText is what path p saves against the first path (the native
// catalog), as text shows it.
func savedText(r *Report, p ReplayPath) string {
	base := r.Replay[0].Cumulative
	return units.PercentText(base-p.Cumulative, base)
}

// anySkillFileHere reports whether one of the catalog's first skills has its
// SKILL.md at the location the catalog names.
func anySkillFileHere(all []catalog.Skill) bool {
	for _, sk := range all[:min(len(all), 3)] {
		if sk.Location == "" {
			continue
		}
		if st, err := os.Stat(sk.Location); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}
