// Package catalogbench compares the native skill catalog, the compact
// index (SO101) and the tag directory (SO102) on synthetic skill sets: the
// bytes of the first request, of a replayed session, pagination, time and
// peak memory.
package catalogbench

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillopt/skillopt/transform/catalogrules"

	"github.com/skillopt/skillopt/capture"
	"github.com/skillopt/skillopt/catalog"
	"github.com/skillopt/skillopt/internal/bench"
	"github.com/skillopt/skillopt/internal/bench/synth"
	"github.com/skillopt/skillopt/internal/config"
	"github.com/skillopt/skillopt/internal/ruleset"
	"github.com/skillopt/skillopt/rules"
)

// LoadBytes stands for one loaded skill: a synthetic SKILL.md of 2 KiB.
const LoadBytes = 2048

// BrowsePages is how many pages the long browse reads.
const BrowsePages = 5

// Row is the result for one catalog size.
type Row struct {
	Skills int `json:"skills"`
	// NativeBytes, CompactBytes and TagBytes are the catalog's bytes in
	// the first request: Pi's native catalog, the compact index and the tag
	// directory (the last two with their skill_search declaration).
	// OtherBytes is the rest of the request.
	NativeBytes  int `json:"native_bytes"`
	CompactBytes int `json:"compact_bytes"`
	TagBytes     int `json:"tag_bytes"`
	OtherBytes   int `json:"other_bytes"`
	// Replayed sessions (see Run): cumulative request bytes.
	CompactRequests   int     `json:"compact_requests"`
	TagRequests       int     `json:"tag_requests"`
	CumulativeCompact int     `json:"cumulative_compact_bytes"`
	CumulativeTag     int     `json:"cumulative_tag_bytes"`
	CumulativeSaving  float64 `json:"cumulative_saving_pct"`
	// BrowsedPages is how many pages the long browse read: BrowsePages,
	// or fewer when the tags have fewer cards.
	BrowsedPages     int     `json:"browsed_pages"`
	ManyPageRequests int     `json:"many_page_requests"`
	ManyPageTag      int     `json:"many_page_tag_bytes"`
	ManyPageSaving   float64 `json:"many_page_saving_pct"`
	// Pagination is "seen once/skills" when browsing every tag;
	// PaginatedOnce the skills seen exactly once.
	Pagination         string  `json:"pagination"`
	PaginatedOnce      int     `json:"paginated_once"`
	PaginationComplete bool    `json:"pagination_complete"`
	SnapshotMS         float64 `json:"snapshot_ms"`
	WarmMS             float64 `json:"warm_ms"`
	// WarmMS is a later request with the compact index (SO101) as
	// transform prepares it; WarmPrefetchMS the same with the prefetch
	// overlay (SO101 + SO103); both medians (see medianRequest).
	// PrefetchAllocBytes is what SO103 allocates on such a request (its
	// Run, mean of warmRounds).
	WarmPrefetchMS     float64 `json:"warm_prefetch_ms"`
	PrefetchAllocBytes int64   `json:"prefetch_alloc_bytes"`
	// FirstRequestMS is the first request of the catalog with SO101 +
	// SO103: parsing the catalog, the snapshot and its search structures
	// and the transform, catalog cache empty (the process's own one-time
	// work, such as compiling the schemas, done before); median of
	// firstRounds.
	FirstRequestMS float64 `json:"first_request_ms"`
	// PeakMiB is the process's peak resident set size while this size
	// ran, read as PeakSource says (see bench.Peak).
	PeakMiB    float64 `json:"peak_mib"`
	PeakSource string  `json:"peak_source"`
}

// Input is the synthetic data of one size: the skills, an Anthropic
// request carrying them in Pi's native catalog, and a card for each.
type Input struct {
	Skills  []catalog.Skill
	Body    []byte
	Profile *catalog.Profile
}

// NewInput generates n skills from seed.
func NewInput(n int, seed int64) (*Input, error) {
	syn := synth.Skills(n, seed)
	skills := make([]catalog.Skill, n)
	for i, s := range syn {
		skills[i] = catalog.Skill{Name: s.Name, Description: s.Description, Location: s.Location}
	}
	body, err := synth.Capture("anthropic", syn, 1)
	if err != nil {
		return nil, err
	}
	return &Input{Skills: skills, Body: body, Profile: Cards(skills)}, nil
}

// Cards gives every skill a card: tags from the words of its name that
// name a vocabulary topic, else a tag by position. Cards are preassigned:
// the benchmark measures transport, not card quality.
func Cards(skills []catalog.Skill) *catalog.Profile {
	prof := catalog.NewProfile()
	for i, sk := range skills {
		var tags []string
		for _, part := range strings.Split(sk.Name, "-") {
			if catalog.IsTag(part) && len(tags) < 3 {
				tags = append(tags, part)
			}
		}
		if len(tags) == 0 {
			tags = []string{catalog.Vocabulary[i%(len(catalog.Vocabulary)-1)].Name}
		}
		card := catalog.Intent(sk.Description)
		if card == "" {
			card = sk.Name
		}
		prof.Cards[sk.Name] = catalog.ProfileCard{Card: card, Tags: tags, SourceSHA256: catalog.SourceHash(sk.Description)}
	}
	return prof
}

// Run measures one catalog size with the default configuration.
//
// Sessions are replayed as their request bytes: every request carries the
// whole request so far. With the compact index the model loads a skill
// (LoadBytes) from the first answer on: 1 + replay requests, replay of them
// carrying the load. With the tag directory it browses one page first: one
// more request, 2 + replay in all, every one after the first carrying the
// page. The long browse reads up to BrowsePages pages before loading, each
// page one more request carried by every later one.
func Run(n int, seed int64, replay int) (Row, error) {
	row := Row{Skills: n}
	reset := bench.StartPeak()
	in, err := NewInput(n, seed)
	if err != nil {
		return row, err
	}

	// Requests first, on a collected heap: the browsing below leaves much
	// garbage behind at large sizes. The first request comes before the
	// warm ones, which find the catalog cache filled.
	runtime.GC()
	if row.FirstRequestMS, err = firstRequest(in.Body); err != nil {
		return row, err
	}
	if row.WarmMS, err = warm(in.Body); err != nil {
		return row, err
	}
	if row.WarmPrefetchMS, row.PrefetchAllocBytes, err = warmPrefetch(in.Body); err != nil {
		return row, err
	}

	start := time.Now()
	snap := catalog.NewSnapshot(in.Skills, catalog.Options{Profile: in.Profile})
	row.SnapshotMS = bench.Millis(time.Since(start))

	f, err := capture.Read("bench.json", in.Body, capture.Options{})
	if err != nil {
		return row, err
	}
	for _, s := range f.Captures[0].Segments() {
		if s.Kind == capture.SecCatalog {
			row.NativeBytes += s.End - s.Start
		}
	}
	row.OtherBytes = len(in.Body) - row.NativeBytes
	cs := catalogrules.Defaults
	// The skill_search declaration and the comma before it.
	tool := len(capture.RenderTool(capture.Anthropic, catalogrules.SearchTool())) + 1
	for _, b := range catalog.CompactBlocks([][]catalog.Skill{snap.Skills}, cs.BudgetChars) {
		row.CompactBytes += len(capture.Quote(b)) - 2
	}
	row.CompactBytes += tool
	row.TagBytes = len(capture.Quote(catalog.Directory(snap, cs.Critical, cs.Always))) - 2 + tool

	// Browse pages of the first skill's tags, the way the model would look
	// for it.
	var pages []int
	req := catalog.BrowseRequest{Tags: snap.CardOf(0).Tags}
	for len(pages) < BrowsePages {
		page, data, err := snap.Browse(req)
		if err != nil {
			return row, err
		}
		pages = append(pages, len(data))
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	compactReq := row.OtherBytes + row.CompactBytes
	tagReq := row.OtherBytes + row.TagBytes
	row.CompactRequests = 1 + replay
	row.CumulativeCompact = row.CompactRequests*compactReq + replay*LoadBytes
	row.TagRequests, row.CumulativeTag = tagSession(tagReq, pages[:1], replay)
	row.CumulativeSaving = bench.Pct(row.CumulativeCompact-row.CumulativeTag, row.CumulativeCompact)
	row.BrowsedPages = len(pages)
	row.ManyPageRequests, row.ManyPageTag = tagSession(tagReq, pages, replay)
	row.ManyPageSaving = bench.Pct(row.CumulativeCompact-row.ManyPageTag, row.CumulativeCompact)

	once, distinct, err := paginate(snap)
	if err != nil {
		return row, err
	}
	row.PaginatedOnce = once
	row.Pagination = fmt.Sprintf("%d/%d", once, snap.Len())
	row.PaginationComplete = once == snap.Len() && distinct == snap.Len()

	peak := bench.ReadPeak(reset)
	row.PeakMiB = float64(peak.KiB) / 1024
	row.PeakSource = peak.Source
	return row, nil
}

// tagSession returns the requests and cumulative bytes of a tag-directory
// session that browses pages (their response bytes) and then loads a skill
// followed by replay requests: request 1 browses, request 1+k carries pages
// 1..k, and from request 2+len(pages) on the load as well.
func tagSession(request int, pages []int, replay int) (requests, bytes int) {
	requests = 1 + len(pages) + replay
	bytes = requests*request + replay*LoadBytes
	for k, p := range pages {
		bytes += p * (requests - 1 - k)
	}
	return requests, bytes
}

// paginate browses every tag 50 cards a page and counts the skills seen
// exactly once and the distinct names seen.
func paginate(snap *catalog.Snapshot) (once, distinct int, err error) {
	seen := map[string]int{}
	all := []string{catalog.Unclassified}
	for _, t := range catalog.Vocabulary {
		all = append(all, t.Name)
	}
	req := catalog.BrowseRequest{Tags: all, PageSize: 50}
	for {
		page, _, err := snap.Browse(req)
		if err != nil {
			return 0, 0, err
		}
		for _, c := range page.Cards {
			seen[c.Name]++
		}
		if page.Cursor == nil {
			break
		}
		req.Cursor = *page.Cursor
	}
	for _, name := range snap.Names() {
		if seen[name] == 1 {
			once++
		}
	}
	return once, len(seen), nil
}

// warmRounds is the least number of timed warm requests; a small catalog
// gets more (see medianRequest).
const warmRounds = 11

// warm returns the median time to prepare a later request of the session
// as `skillopt transform --rules SO101` does: read and index the capture,
// run the rule, validate the result against the provider's schema. A first
// request, not timed, fills the catalog cache.
func warm(body []byte) (float64, error) {
	pipeline, err := ruleset.Pipeline([]string{"SO101"}, nil, nil)
	if err != nil {
		return 0, err
	}
	env := ruleset.Env(config.Default(), pipeline)
	res, err := request(body, pipeline, env)
	if err != nil {
		return 0, err
	}
	if !res.Changed() {
		return 0, fmt.Errorf("SO101 left the synthetic catalog unchanged")
	}
	return medianRequest(body, pipeline, env)
}

// medianRequest returns the median time of warm requests: at least
// warmRounds, more for a small catalog (about half a second in all,
// at most 500).
func medianRequest(body []byte, pipeline []*rules.Rule, env *rules.Env) (float64, error) {
	var ts []time.Duration
	var total time.Duration
	for len(ts) < warmRounds || len(ts) < 500 && total < 500*time.Millisecond {
		start := time.Now()
		if _, err := request(body, pipeline, env); err != nil {
			return 0, err
		}
		ts = append(ts, time.Since(start))
		total += ts[len(ts)-1]
	}
	slices.Sort(ts)
	return bench.Millis(ts[len(ts)/2]), nil
}

// prefetchPipeline returns SO101 + SO103 with the default configuration.
func prefetchPipeline() ([]*rules.Rule, *rules.Env, error) {
	pipeline, err := ruleset.Pipeline([]string{"SO101", "SO103"}, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return pipeline, ruleset.Env(config.Default(), pipeline), nil
}

// request prepares one request as `skillopt transform --rules
// SO101,SO103` does: read and index the capture, run the rules (each
// result validated against the provider's schema).
func request(body []byte, pipeline []*rules.Rule, env *rules.Env) (*rules.Result, error) {
	f, err := capture.Read("bench.json", body, capture.Options{})
	if err != nil {
		return nil, err
	}
	return rules.Run(f.Captures[0], pipeline, env)
}

// primeOnce does the process's one-time work (the registry, the compiled
// schemas) on a small catalog of its own.
var primeOnce sync.Once

func prime() {
	primeOnce.Do(func() {
		pipeline, env, err := prefetchPipeline()
		if err != nil {
			return
		}
		if body, err := synth.Capture("anthropic", synth.Skills(12, 99), 1); err == nil {
			request(body, pipeline, env)
		}
	})
}

// firstRounds is how many first requests are timed (the median counts).
const firstRounds = 3

// firstRequest times the first SO101 + SO103 request of a catalog: the
// median of firstRounds, the catalog cache dropped before each.
func firstRequest(body []byte) (float64, error) {
	prime()
	pipeline, env, err := prefetchPipeline()
	if err != nil {
		return 0, err
	}
	ts := make([]time.Duration, firstRounds)
	for i := range ts {
		catalogrules.DropCache()
		runtime.GC()
		start := time.Now()
		if _, err := request(body, pipeline, env); err != nil {
			return 0, err
		}
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return bench.Millis(ts[len(ts)/2]), nil
}

// warmPrefetch returns the median time of a warm SO101 + SO103 request and
// the mean bytes SO103's Run allocates on one.
func warmPrefetch(body []byte) (float64, int64, error) {
	pipeline, env, err := prefetchPipeline()
	if err != nil {
		return 0, 0, err
	}
	if _, err := request(body, pipeline, env); err != nil { // fills the cache
		return 0, 0, err
	}
	ms, err := medianRequest(body, pipeline, env)
	if err != nil {
		return 0, 0, err
	}
	// SO103 alone, on the capture SO101 compacted.
	f, err := capture.Read("bench.json", body, capture.Options{})
	if err != nil {
		return 0, 0, err
	}
	orig := f.Captures[0]
	compact, err := ruleset.Pipeline([]string{"SO101"}, nil, nil)
	if err != nil {
		return 0, 0, err
	}
	res, err := rules.Run(orig, compact, env)
	if err != nil {
		return 0, 0, err
	}
	var so103 *rules.Rule
	for _, r := range pipeline {
		if r.ID == "SO103" {
			so103 = r
		}
	}
	if so103 == nil {
		return 0, 0, fmt.Errorf("SO103 is not in the pipeline")
	}
	pass := func() error {
		return so103.Run(&rules.Pass{Rule: so103, Options: env.OptionsOf(so103.Options), Capture: res.Final, Original: orig, Env: env})
	}
	if err := pass(); err != nil {
		return 0, 0, err
	}
	// ReadMemStats counts every allocation (runtime/metrics leaves out
	// small ones still cached per processor).
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	for range warmRounds {
		if err := pass(); err != nil {
			return 0, 0, err
		}
	}
	runtime.ReadMemStats(&m)
	return ms, int64(m.TotalAlloc-before) / warmRounds, nil
}
